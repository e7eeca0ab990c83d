#!/usr/bin/env node
// The installed hook entrypoint: `node run-hook.mjs <event> <agent-id>` runs
// `<root>/hooks-runtime/current/bin/tama run-hook <event> <agent-id>` (or
// $TAMA_BIN) with this process's stdin, stdout and stderr, and ends the way
// the engine ended. It never decides anything itself: an engine that cannot
// start is a TAMA_HOOK_INFRASTRUCTURE failure (exit 1), never a pass.

import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));
const engine = process.env.TAMA_BIN || join(root, 'hooks-runtime', 'current', 'bin', 'tama');
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'];

let child;
let ended = false;
// A signal that arrives before the engine is started is delivered to it once it is.
let pending;
const forward = (signal) => (child ? child.kill(signal) : (pending = signal));

function end(code, signal) {
  if (ended) return;
  ended = true;
  for (const name of FORWARDED) process.off(name, forward);
  // Die by the engine's signal; node handles SIGUSR1 itself and ignores SIGPIPE, so exit 128+n there.
  if (signal && signal !== 'SIGUSR1') process.kill(process.pid, signal);
  process.exit(signal ? 128 + (constants.signals[signal] ?? 0) : code ?? 1);
}

function cannotStart(error) {
  process.stderr.write(`TAMA_HOOK_INFRASTRUCTURE: cannot start the Tama engine ${engine}: ${error.message}\n`);
  end(1);
}

// Listen first: the engine may answer, and be signalled, before spawn() returns.
for (const name of FORWARDED) process.on(name, forward);
try {
  child = spawn(engine, ['run-hook', ...process.argv.slice(2)], { stdio: 'inherit' });
  if (pending) child.kill(pending);
  // After a start, 'error' only means a forwarded signal was not delivered; 'exit' still comes.
  child.on('error', (error) => child.pid === undefined && cannotStart(error));
  child.on('exit', end);
} catch (error) {
  cannotStart(error);
}
