// The `reload-adapter` session-control operation: `tama sessions reload
// --session ID` writes `reload-adapter.<request>.request.json` into the
// session-control folder; the running adapter of that session takes it,
// adopts the installed adapter through its shell, and answers with
// `reload-adapter.<request>.receipt.json`.

import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const REQUEST = /^reload-adapter\.([A-Za-z0-9_-]{1,64})\.request\.json$/;
export const RECEIPT_SCHEMA = 'ai.wisent.tama.reload-adapter.receipt.v1';

/** `$TAMA_HOME/session-control`, `TAMA_HOME` defaulting to `~/.tama`. */
export function sessionControlDir(env = process.env) {
  return join(env.TAMA_HOME || join(env.HOME || homedir(), '.tama'), 'session-control');
}

/** The poll interval (`TAMA_OMP_CONTROL_POLL_MS`, else 250 ms). */
function pollMs(env = process.env) {
  const ms = Number(env.TAMA_OMP_CONTROL_POLL_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : 250;
}

/**
 * Watches for reload requests naming `session`; returns `{ stop }`. Each is
 * taken by renaming it (so one process takes it), checked, carried out by
 * `host.adopt`, and answered with a receipt built from `status()` after it.
 */
export function watchReloadRequests({ session, host, status, ctx, dir = sessionControlDir() }) {
  if (!session) return { stop() {} };
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      let names;
      try {
        names = readdirSync(dir);
      } catch {
        return;
      }
      for (const name of names) {
        const match = REQUEST.exec(name);
        if (match) await take(dir, name, match[1], { session, host, status, ctx });
      }
    } catch (error) {
      process.stderr.write(`tama: reading reload requests in ${dir} failed: ${error.message}\n`);
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => { tick(); }, pollMs());
  timer.unref?.();
  return { stop: () => clearInterval(timer) };
}

async function take(dir, name, requestId, { session, host, status, ctx }) {
  const path = join(dir, name);
  let request;
  try {
    request = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return; // Being written, or not ours to judge yet.
  }
  if (request?.sessionId !== session) return;
  const claimed = `${path}.taken-${process.pid}`;
  try {
    renameSync(path, claimed);
  } catch {
    return; // Another process took it.
  }
  let receipt;
  if (request.op !== 'reload-adapter' || request.requestId !== requestId) {
    receipt = { ok: false, error: `the request ${name} is not a reload-adapter request for ${requestId}` };
  } else if (typeof host.adopt !== 'function') {
    receipt = { ok: false, error: 'the shell that loaded this adapter cannot reload it; oh-my-pi must start again once (/restart keeps the session)' };
  } else {
    const outcome = await host.adopt(ctx);
    receipt = outcome.ok ? { ok: true, message: outcome.message } : { ok: false, error: outcome.error };
  }
  // The status after the adoption: the adapter now loaded names its own digest.
  const now = host.status?.() ?? status();
  write(join(dir, `reload-adapter.${requestId}.receipt.json`), {
    schema: RECEIPT_SCHEMA,
    operation: 'reload-adapter',
    requestId,
    ...receipt,
    ...now,
    answeredAtMs: Date.now(),
  });
  rmSync(claimed, { force: true });
}

function write(path, value) {
  mkdirSync(join(path, '..'), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
}
