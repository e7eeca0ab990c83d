// What the oh-my-pi adapter's tests share: a scratch home with Tama's
// extension installed by the real `tama setup omp`, the real engine behind
// it, and a stand-in for the `pi` oh-my-pi hands an extension (the real
// oh-my-pi runs in tests/omp/).

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { builtTama } from '../../../tests/built-tama.mjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** The built `tama` under test: `$TAMA_UNDER_TEST`, else the release build's. */
export const TAMA = process.env.TAMA_UNDER_TEST || builtTama();
export const WASM = join(ROOT, 'target', 'wasm', 'wasm32-wasip2', 'release');

export const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A scratch home with the extension installed by `tama setup omp`; this
 * process's HOME, TAMA_HOME and OKO_HOME point into it, as oh-my-pi's would.
 */
export function scratchHome(env = {}) {
  const home = mkdtempSync(join(tmpdir(), 'tama-omp-'));
  Object.assign(process.env, { HOME: home, TAMA_HOME: join(home, '.tama'), OKO_HOME: join(home, '.oko'), TAMA_CACHE_DIR: join(tmpdir(), 'tama-omp-cache') }, env);
  delete process.env.TAMA_BIN;
  delete process.env.TAMA_REGISTRY;
  shareControlKey(process.env.TAMA_HOME);
  const setup = execFileSync(TAMA, ['setup', 'omp'], { env: process.env, encoding: 'utf8' });
  return {
    home,
    setup,
    adapterDir: join(home, '.shared-hooks', 'omp'),
    shellPath: join(home, '.omp', 'agent', 'extensions', 'omp-shared-hooks.js'),
    remove: () => rmSync(home, { recursive: true, force: true }),
  };
}

/**
 * The scratch homes share one compile cache, whose artifacts Tama tags with
 * `$TAMA_HOME/control.key`: so they share one key too, as one user's runs do.
 */
function shareControlKey(tamaHome) {
  const shared = join(tmpdir(), 'tama-omp-cache.control.key');
  const partial = `${shared}.${process.pid}.tmp`;
  try {
    writeFileSync(partial, randomBytes(32), { mode: 0o600, flag: 'wx' });
    linkSync(partial, shared);
  } catch (err) {
    if (err.code !== 'EEXIST') throw err;
  } finally {
    rmSync(partial, { force: true });
  }
  mkdirSync(tamaHome, { recursive: true, mode: 0o700 });
  copyFileSync(shared, join(tamaHome, 'control.key'));
}

/** Writes and seals `~/.shared-hooks/registry.json`; wasm components named in it are copied beside it. */
export function installRegistry(home, registry, components = []) {
  const dir = join(home, '.shared-hooks');
  mkdirSync(dir, { recursive: true });
  for (const name of components) copyFileSync(join(WASM, name), join(dir, name));
  const path = join(dir, 'registry.json');
  writeFileSync(path, JSON.stringify({ version: 1, catalog: { version: 1, agentHooks: [] }, ...registry }, null, 2));
  execFileSync(TAMA, ['registry', 'seal', path], { env: process.env });
  return path;
}

/** A wasm hook entry for a built component. */
export function wasmHook(id, file, extra = {}) {
  return { id, type: 'wasm', component: file, sha256: sha256(readFileSync(join(WASM, file))), config: {}, state: [], timeout: 5, blocking: true, ...extra };
}

/** A command hook entry. */
export function commandHook(id, command, extra = {}) {
  return { id, type: 'command', command, timeout: 30, blocking: true, ...extra };
}

/** The `pi` oh-my-pi hands an extension, keeping what is registered on it. */
export function fakePi() {
  const handlers = new Map();
  const tools = new Map();
  const commands = new Map();
  return {
    handlers,
    tools,
    commands,
    on(event, handler) {
      handlers.set(event, [...(handlers.get(event) ?? []), handler]);
    },
    registerTool(tool) {
      tools.set(tool.name, tool);
    },
    registerCommand(name, options) {
      commands.set(name, options);
    },
    /** Runs the handlers of `event` as oh-my-pi does for one extension: a block ends it, a provider payload is chained. */
    async emit(event, payload, ctx = context()) {
      let result;
      for (const handler of handlers.get(event) ?? []) {
        const answer = await handler(payload, ctx);
        if (answer === undefined) continue;
        if (event === 'before_provider_request') payload = { ...payload, payload: answer };
        result = answer;
        if (answer?.block || answer?.decision === 'block') return answer;
      }
      return result;
    },
  };
}

/** A handler context for a session. */
export function context(session = 'session-1', cwd = process.cwd()) {
  const notes = [];
  return { cwd, notes, sessionManager: { getSessionId: () => session }, ui: { notify: (text, level) => notes.push({ text, level }) } };
}

/** Loads the installed shell on a fresh `pi`; resolves with both. */
export async function loadShell(shellPath) {
  const pi = fakePi();
  const module = await import(`${pathToFileURL(shellPath).href}?load=${Math.random()}`);
  const shell = await module.default(pi);
  return { pi, shell };
}

/** Waits until `check()` is truthy, polling; throws after `ms`. */
export async function until(check, ms = 10_000, what = 'the condition') {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** Whether a process is alive. */
export function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Ends the shell's adapter session (closing its engine). */
export async function shutdown(pi) {
  await pi.emit('session_shutdown', { type: 'session_shutdown' });
}
