// One `tama run-hook --serve omp` for this oh-my-pi process: requests go out
// side by side and answers are matched by id. Only reloads and shutdown are
// ordered: a request made after one of them is written once it is answered.
// An engine that died is started again for the next request; one whose
// answers say `coreReplacedByRelease` is replaced by the installed release's
// engine as soon as it owes no answer.

import { spawn } from 'node:child_process';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const INFRASTRUCTURE = 'TAMA_HOOK_INFRASTRUCTURE';

/** The installed engine: `$TAMA_BIN`, else `~/.shared-hooks/hooks-runtime/current/bin/tama`. */
export function installedEngine(env = process.env) {
  return env.TAMA_BIN || join(env.HOME || homedir(), '.shared-hooks', 'hooks-runtime', 'current', 'bin', 'tama');
}

/** Milliseconds a request waits for its answer (`TAMA_OMP_DISPATCH_TIMEOUT_MS`, else 25 s: under oh-my-pi's 30 s tool_call budget). */
export function requestTimeoutMs(env = process.env) {
  const ms = Number(env.TAMA_OMP_DISPATCH_TIMEOUT_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : 25_000;
}

/** One engine process and the answers it still owes. */
class Process {
  constructor(bin, env, onStderr) {
    this.bin = bin;
    this.owed = new Map();
    this.replaceWanted = false;
    this.exited = false;
    this.state = null;
    let buffered = '';
    this.exit = new Promise((resolve) => { this.onExit = resolve; });
    this.ready = new Promise((resolve, reject) => { this.onReady = { resolve, reject }; });
    this.ready.catch(() => {});
    this.child = spawn(bin, ['run-hook', '--serve', 'omp'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.pid = this.child.pid;
    this.child.stdin.on('error', () => {});
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk) => {
      buffered += chunk;
      let end;
      while ((end = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        if (line.trim()) this.#frame(line);
      }
    });
    this.child.stderr.on('data', (chunk) => onStderr(chunk));
    this.child.on('error', (error) => this.#ended(`cannot start the Tama engine ${bin}: ${error.message}`));
    // Answers written just before the engine ended are read first: its stdout ends with it,
    // unless a process it left holds the pipe, which is waited for only briefly.
    const stdoutEnded = new Promise((resolve) => this.child.stdout.on('close', resolve));
    this.child.on('exit', (code, signal) => {
      const why = `the Tama engine ${bin} (process ${this.pid}) exited (${signal ?? `status ${code}`}) before answering`;
      Promise.race([stdoutEnded, new Promise((resolve) => setTimeout(resolve, 100))]).then(() => this.#ended(why));
    });
  }

  #frame(line) {
    let frame;
    try {
      frame = JSON.parse(line);
    } catch (error) {
      return this.#ended(`the Tama engine wrote a line that is not JSON (${error.message}): ${line.slice(0, 200)}`, { kill: true });
    }
    if (frame?.state) {
      this.state = frame.state;
      if (frame.state.coreReplacedByRelease === true) this.replaceWanted = true;
    }
    if (frame && 'ready' in frame && !('id' in frame)) {
      if (frame.ready === true) this.onReady.resolve(frame.state);
      else this.#ended(`the Tama engine refused to start: ${frame.error ?? 'no reason given'}`, { kill: true });
      return;
    }
    const key = String(frame?.id);
    const waiter = this.owed.get(key);
    if (!waiter) return;
    this.owed.delete(key);
    waiter.resolve(frame);
  }

  #ended(why, { kill = false } = {}) {
    if (kill && !this.exited) this.child.kill('SIGKILL');
    if (this.exited) return;
    this.exited = true;
    this.why = why;
    this.onReady.reject(new Error(why));
    for (const waiter of this.owed.values()) waiter.reject(new Error(why));
    this.owed.clear();
    this.onExit();
  }

  send(id, request) {
    if (this.exited) return Promise.reject(new Error(this.why));
    return new Promise((resolve, reject) => {
      this.owed.set(String(id), { resolve, reject });
      this.child.stdin.write(`${JSON.stringify({ id, ...request })}\n`);
    });
  }

  forget(id) {
    this.owed.delete(String(id));
  }

  /** Closes the engine's input and waits for it to end; kills it after `graceMs`. */
  async close(graceMs) {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGTERM'), graceMs);
    await this.exit;
    clearTimeout(timer);
  }
}

export class EngineClient {
  #env;
  #onStderr;
  #process = null;
  #replacing = null;
  #ordered = Promise.resolve();
  #next = 0;

  constructor({ env = process.env, onStderr = (chunk) => process.stderr.write(chunk) } = {}) {
    this.#env = { ...env, TAMA_AGENT_ID: env.TAMA_AGENT_ID || 'omp' };
    this.#onStderr = onStderr;
  }

  /** The engine process answering now (its pid and last state), if any. */
  get current() {
    const p = this.#process;
    return p && !p.exited ? { pid: p.pid, state: p.state, bin: p.bin } : null;
  }

  /** The engine to write to: the running one, a new one when it died, or the installed release's when it was replaced and owes nothing. */
  async #engine() {
    if (this.#replacing) await this.#replacing;
    const p = this.#process;
    if (p && !p.exited && p.replaceWanted && p.owed.size === 0) {
      this.#replacing = p.close(5_000).finally(() => { this.#replacing = null; });
      await this.#replacing;
    }
    if (!this.#process || this.#process.exited) {
      this.#process = new Process(installedEngine(this.#env), this.#env, this.#onStderr);
    }
    return this.#process;
  }

  /**
   * Sends `request` (`op` and its fields) and resolves with the engine's
   * answer frame; rejects when the engine died, could not start, or did not
   * answer within `timeoutMs` (the dispatch is then cancelled).
   */
  async request(request, { timeoutMs = requestTimeoutMs(this.#env), ordered = false } = {}) {
    const id = `omp-${process.pid}-${++this.#next}`;
    const before = this.#ordered;
    let done;
    if (ordered) this.#ordered = new Promise((resolve) => { done = resolve; });
    try {
      await before;
      const engine = await this.#engine();
      let timer;
      const timeout = new Promise((_, reject) => {
        timer = setTimeout(() => {
          engine.forget(id);
          if (request.op === 'dispatch') engine.send(`${id}-cancel`, { op: 'cancel', dispatchId: id }).catch(() => {});
          reject(new Error(`the Tama engine (process ${engine.pid}) did not answer ${describe(request)} within ${timeoutMs} ms`));
        }, timeoutMs);
      });
      try {
        return await Promise.race([engine.send(id, request), timeout]);
      } finally {
        clearTimeout(timer);
      }
    } finally {
      done?.();
    }
  }

  /** Closes the engine's input after every ordered request before it; the engine ends what it still runs. */
  async shutdown(graceMs = 1_500) {
    const before = this.#ordered;
    let done;
    this.#ordered = new Promise((resolve) => { done = resolve; });
    try {
      await before;
      const p = this.#process;
      this.#process = null;
      if (p && !p.exited) await p.close(graceMs);
    } finally {
      done();
    }
  }
}

function describe(request) {
  return request.op === 'dispatch' ? `the ${request.event} dispatch` : `the ${request.op} request`;
}
