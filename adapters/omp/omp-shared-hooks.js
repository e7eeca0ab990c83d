// Tama's oh-my-pi extension. oh-my-pi imports an extension module once per
// process, so this is only a shell: it imports Tama's adapter from
// ~/.shared-hooks/omp/adapter.js under that file's SHA-256 digest, forwards
// every event, tool and command the adapter registers to it, and can import
// a newer installed adapter in place (`tama_reload_hook_runtime`, as a tool
// and as a slash command, and the `reload-adapter` session-control request).
//
// bun keys its module cache by path alone, so a query string cannot make a
// second module: the adapter is imported from a copy named by its digest,
// `adapter.<digest>.js` beside it, whose URL also carries `?sha256=<digest>`.

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const RELOAD = 'tama_reload_hook_runtime';
const INFRASTRUCTURE = 'TAMA_HOOK_INFRASTRUCTURE';
const SHUTDOWN_BUDGET_MS = 2_000;
/** Every oh-my-pi event a handler can be registered for, forwarded from the start, so an adapter adopted later can handle one the first did not. */
const EVENTS = [
  'resources_discover', 'session_start', 'session_before_switch', 'session_switch', 'session_before_branch',
  'session_branch', 'session_before_compact', 'session_compact', 'session_shutdown', 'session_before_tree',
  'session_tree', 'context', 'before_provider_request', 'after_provider_response', 'before_agent_start',
  'agent_start', 'agent_end', 'session_stop', 'turn_start', 'turn_end', 'message_start', 'message_update',
  'message_end', 'tool_execution_start', 'tool_execution_update', 'tool_execution_end', 'auto_compaction_start',
  'auto_compaction_end', 'auto_retry_start', 'auto_retry_end', 'input', 'tool_call', 'tool_result', 'user_bash',
  'user_python',
];

/** `~/.shared-hooks/omp`. */
export function adapterDir(env = process.env) {
  return join(env.HOME || homedir(), '.shared-hooks', 'omp');
}

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** The digests of the adapter's sibling modules, by name. */
function siblingDigests(dir) {
  const digests = new Map();
  let names = [];
  try {
    names = readdirSync(dir);
  } catch {
    return digests;
  }
  for (const name of names.filter((n) => n.endsWith('.mjs')).sort()) {
    try {
      digests.set(name, sha256(readFileSync(join(dir, name))));
    } catch {
      digests.set(name, null);
    }
  }
  return digests;
}

/** Imports the installed adapter under its digest; resolves with `{ digest, module }`. */
async function importInstalled(dir) {
  const bytes = readFileSync(join(dir, 'adapter.js'));
  const digest = sha256(bytes);
  const copy = join(dir, `adapter.${digest}.js`);
  const intact = existsSync(copy) && sha256(readFileSync(copy)) === digest;
  if (!intact) {
    const tmp = `${copy}.tmp-${process.pid}`;
    writeFileSync(tmp, bytes, { mode: 0o644 });
    renameSync(tmp, copy);
  }
  const module = await import(`${pathToFileURL(copy).href}?sha256=${digest}`);
  if (typeof module.default !== 'function') throw new Error(`${copy} has no default export to register it`);
  return { digest, module };
}

class Shell {
  constructor(pi, dir) {
    this.pi = pi;
    this.dir = dir;
    this.loaded = null; // { digest, handlers, tools, commands, api }
    this.loadError = null;
    this.forwardedTools = new Set();
    this.forwardedCommands = new Set();
    this.siblings = siblingDigests(dir);
    this.adopting = null;
  }

  /** A fresh registration table, and the `pi` the adapter registers on: its registrations land in the table. */
  table(digest) {
    const table = { digest, handlers: new Map(), tools: new Map(), commands: new Map(), api: null };
    const shell = this;
    table.pi = new Proxy(this.pi, {
      get(target, key) {
        if (key === 'on') {
          return (event, handler) => {
            const list = table.handlers.get(event) ?? [];
            list.push(handler);
            table.handlers.set(event, list);
            return () => list.splice(list.indexOf(handler) >>> 0, 1);
          };
        }
        if (key === 'registerTool') return (tool) => table.tools.set(tool.name, tool);
        if (key === 'registerCommand') return (name, options) => table.commands.set(name, options);
        const value = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    table.host = { adopt: (ctx) => shell.adopt(ctx), status: () => shell.status() };
    return table;
  }

  /** Imports the installed adapter and has it register; the table, or throws. */
  async register(imported) {
    const table = this.table(imported.digest);
    const api = await imported.module.default(table.pi, table.host);
    table.api = api ?? {};
    // The digest the module read from its own URL, never the file on disk.
    table.digest = typeof imported.module.digest === 'string' ? imported.module.digest : null;
    return table;
  }

  /** Makes oh-my-pi call the loaded adapter's tools and commands by name. */
  forwardRegistrations(table) {
    for (const [name, tool] of table.tools) {
      if (this.forwardedTools.has(name) || name === RELOAD) continue;
      this.forwardedTools.add(name);
      this.pi.registerTool({ ...tool, execute: (...args) => this.#tool(name).execute(...args) });
    }
    for (const [name, options] of table.commands) {
      if (this.forwardedCommands.has(name) || name === RELOAD) continue;
      this.forwardedCommands.add(name);
      this.pi.registerCommand(name, { ...options, handler: (...args) => this.#command(name).handler(...args) });
    }
  }

  #tool(name) {
    const tool = this.loaded?.tools.get(name);
    if (!tool) throw new Error(`the loaded Tama adapter has no tool ${name}`);
    return tool;
  }

  #command(name) {
    const command = this.loaded?.commands.get(name);
    if (!command) throw new Error(`the loaded Tama adapter has no command ${name}`);
    return command;
  }

  /** Runs the loaded adapter's handlers of `name` the way oh-my-pi runs one extension's. */
  async emit(name, event, ctx) {
    if (!this.loaded) {
      if (name !== 'tool_call') return undefined;
      return { block: true, reason: `${INFRASTRUCTURE}: Tama's oh-my-pi adapter could not be loaded from ${this.dir}: ${this.loadError}; run tama setup omp, then /${RELOAD}` };
    }
    let result;
    let current = event;
    for (const handler of [...(this.loaded.handlers.get(name) ?? [])]) {
      const answer = await handler(current, ctx);
      if (answer === undefined) continue;
      if (name === 'before_provider_request') {
        current = { ...current, payload: answer };
        result = answer;
      } else if (answer?.block || answer?.decision === 'block' || answer?.handled) {
        return answer;
      } else {
        result = answer;
      }
    }
    return result;
  }

  /** The loaded adapter's status, with its digest as it read it from its module URL. */
  status() {
    const api = this.loaded?.api;
    const status = typeof api?.status === 'function' ? api.status() : { processId: process.pid, runtime: {} };
    return { ...status, runtime: { ...status.runtime, adapterDigest: this.loaded?.digest ?? null }, adapterReloadSupported: true };
  }

  /** Adopts the installed adapter when its digest differs from the loaded one; concurrent callers share one adoption. */
  adopt(ctx) {
    this.adopting ??= this.#adopt(ctx).finally(() => { this.adopting = null; });
    return this.adopting;
  }

  async #adopt(ctx) {
    const before = this.loaded?.digest ?? null;
    let imported;
    try {
      const installed = sha256(readFileSync(join(this.dir, 'adapter.js')));
      if (this.loaded && installed === before) {
        return { ok: true, changed: false, message: `The installed OMP adapter ${installed} is already loaded` };
      }
      imported = await importInstalled(this.dir);
    } catch (error) {
      return { ok: false, error: `Tama could not reload its OMP adapter: ${error.message}` };
    }
    // The old adapter ends its session (closes its engine), then the new one registers.
    if (this.loaded) await this.#run('session_shutdown', { type: 'session_shutdown' }, ctx, SHUTDOWN_BUDGET_MS);
    let table;
    try {
      table = await this.register(imported);
      this.forwardRegistrations(table);
    } catch (error) {
      // The loaded adapter keeps running: it starts its session again.
      await this.#run('session_start', { type: 'session_start', reason: 'reload' }, ctx).catch(() => {});
      return { ok: false, error: `Tama could not reload its OMP adapter: ${error.message}` };
    }
    const previous = this.loaded;
    this.loaded = table;
    this.loadError = null;
    try {
      await this.#run('session_start', { type: 'session_start', reason: 'reload' }, ctx);
    } catch (error) {
      // A failed activation: the new adapter ends its session, the prior one (and its digest) comes back.
      await this.#run('session_shutdown', { type: 'session_shutdown' }, ctx, SHUTDOWN_BUDGET_MS);
      this.loaded = previous;
      await this.#run('session_start', { type: 'session_start', reason: 'reload' }, ctx).catch(() => {});
      return { ok: false, error: `Tama could not reload its OMP adapter: its session_start failed: ${error.message}` };
    }
    const lines = [`Loaded the installed OMP adapter ${table.digest} in place of ${before ?? 'an adapter without a digest'}`];
    const changed = [...siblingDigests(this.dir)].filter(([name, digest]) => this.siblings.get(name) !== digest).map(([name]) => name);
    if (changed.length > 0) {
      lines.push(`Its sibling modules ${changed.join(', ')} changed since oh-my-pi started; oh-my-pi imports them once per process, so start oh-my-pi again (/restart keeps the session) to run them`);
    }
    return { ok: true, changed: true, message: lines.join('\n') };
  }

  async #run(name, event, ctx, budgetMs) {
    const handlers = [...(this.loaded?.handlers.get(name) ?? [])];
    const bounded = (promise) => (budgetMs ? Promise.race([promise, new Promise((resolve) => setTimeout(resolve, budgetMs).unref?.())]) : promise);
    if (name === 'session_shutdown') {
      await Promise.all(handlers.map((handler) => bounded(Promise.resolve().then(() => handler(event, ctx))).catch(() => {})));
      return;
    }
    for (const handler of handlers) await handler(event, ctx);
  }

  /** The reload tool and command: adopt the installed adapter, then reload the engine's registry. */
  async reload(ctx) {
    const adoption = await this.adopt(ctx);
    if (!adoption.ok) return { ok: false, text: adoption.error };
    let session;
    try {
      session = ctx?.sessionManager?.getSessionId?.();
    } catch {
      session = undefined;
    }
    const engine = typeof this.loaded?.api?.reloadEngine === 'function'
      ? await this.loaded.api.reloadEngine(session).catch((error) => ({ ok: false, text: `Tama could not reload its hook runtime: ${error.message}` }))
      : { ok: false, text: 'the loaded Tama adapter cannot reload its engine' };
    const text = [adoption.changed ? adoption.message : null, engine.text].filter(Boolean).join('\n');
    return { ok: engine.ok, text };
  }
}

export default async function ompSharedHooks(pi) {
  const shell = new Shell(pi, adapterDir());
  try {
    shell.loaded = await shell.register(await importInstalled(shell.dir));
    shell.forwardRegistrations(shell.loaded);
  } catch (error) {
    shell.loadError = error.message;
    process.stderr.write(`${INFRASTRUCTURE}: Tama's oh-my-pi adapter could not be loaded from ${shell.dir}: ${error.message}; every tool call is refused until it is\n`);
  }
  for (const name of EVENTS) pi.on(name, (event, ctx) => shell.emit(name, event, ctx));
  const parameters = pi.typebox?.Type?.Object ? pi.typebox.Type.Object({}) : { type: 'object', properties: {} };
  pi.registerTool({
    name: RELOAD,
    label: 'Reload Tama hook runtime',
    description: "Loads the installed Tama oh-my-pi adapter in place when it changed, then has Tama's engine re-read its hook registry.",
    parameters,
    async execute(_toolCallId, _params, _signal, _onUpdate, ctx) {
      const outcome = await shell.reload(ctx);
      if (!outcome.ok) throw new Error(outcome.text);
      return { content: [{ type: 'text', text: outcome.text }], details: shell.status() };
    },
  });
  pi.registerCommand(RELOAD, {
    description: 'Load the installed Tama adapter in place and reload its hook runtime',
    async handler(_args, ctx) {
      const outcome = await shell.reload(ctx);
      try {
        ctx?.ui?.notify?.(outcome.text, outcome.ok ? 'info' : 'error');
      } catch {
        // No UI: the text is on stderr below.
      }
      process.stderr.write(`${outcome.text}\n`);
      return outcome.text;
    },
  });
  return shell;
}
