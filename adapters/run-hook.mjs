#!/usr/bin/env node
// The installed hook entrypoint: `node run-hook.mjs <event> <agent-id>` runs
// `<root>/hooks-runtime/current/bin/tama run-hook <event> <agent-id>` (or
// $TAMA_BIN) with this process's stdin, stdout and stderr, and ends the way
// the engine ended. It never decides anything itself: an engine that cannot
// start is a TAMA_HOOK_INFRASTRUCTURE refusal, answered in the block form of
// the harness named by --provider or TAMA_PROVIDER (Codex: exit 0 and its
// block JSON, since Codex runs the tool after any exit but 0 and 2; Claude
// Code and any harness not named: exit 2 with the reason on stderr), never
// a pass.

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

/** The harness and the event (registry spelling) the arguments name, as `tama run-hook` reads them. */
function invocation(args) {
  let provider = process.env.TAMA_PROVIDER || 'claude';
  const positional = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--provider' || arg === '--registry') {
      if (arg === '--provider') provider = args[i + 1] ?? provider;
      i++;
    } else if (arg.startsWith('--provider=')) {
      provider = arg.slice('--provider='.length);
    } else if (!arg.startsWith('--')) {
      positional.push(arg);
    }
  }
  const event = (positional[0] ?? '').split(':')[0].replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  return { provider: provider.toLowerCase(), event };
}

/** The harness's block for `reason`: what it writes and how it exits. */
function block(provider, event, reason) {
  const deny = { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: reason } } };
  const stop = { continue: false, stopReason: reason };
  if (provider === 'codex') {
    const answer = event === 'permission_request' ? deny
      : event === 'session_start' || event === 'pre_compact' ? stop
        : { decision: 'block', reason };
    return { stdout: `${JSON.stringify(answer)}\n`, stderr: '', code: 0 };
  }
  if (event === 'permission_request') return { stdout: `${JSON.stringify(deny)}\n`, stderr: `${reason}\n`, code: 0 };
  if (event === 'session_start') return { stdout: `${JSON.stringify(stop)}\n`, stderr: `${reason}\n`, code: 0 };
  return { stdout: `${JSON.stringify({ decision: 'block', reason })}\n`, stderr: `${reason}\n`, code: 2 };
}

function cannotStart(error) {
  const { provider, event } = invocation(process.argv.slice(2));
  const reason = `TAMA_HOOK_INFRASTRUCTURE: cannot start the Tama engine ${engine}: ${error.message}`;
  const answer = block(provider, event, reason);
  process.stdout.write(answer.stdout);
  process.stderr.write(answer.stderr);
  end(answer.code);
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
