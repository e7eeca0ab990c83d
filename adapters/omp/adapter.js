// Tama's oh-my-pi adapter. It forwards every event to one
// `tama run-hook --serve omp` and gives oh-my-pi the engine's decisions; it
// never evaluates policy itself. oh-my-pi loads it through the shell
// (omp-shared-hooks.js), which imports it under its SHA-256 digest so an
// open session can adopt a newer one in place.

import { EngineClient } from './engine-client.mjs';
import * as events from './hook-events.mjs';
import { withInstalledContracts } from './installed-contract.mjs';
import { ProviderRequests } from './provider-request.mjs';
import { runPeerHooks } from './peers.mjs';
import { watchReloadRequests } from './session-control.mjs';

const DIGEST = /^[0-9a-f]{64}$/;

/**
 * The digest this module was imported under, read from its own module URL:
 * the shell names the file `adapter.<digest>.js` and adds `?sha256=<digest>`
 * (bun keeps no query in a module URL, node does). A module imported without
 * one has no identity: `null`, never the digest of the file on disk.
 */
export function digestOf(url) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const fromQuery = parsed.searchParams.get('sha256');
  if (fromQuery && DIGEST.test(fromQuery)) return fromQuery;
  const fromName = /adapter\.([0-9a-f]{64})\.js$/.exec(parsed.pathname);
  return fromName ? fromName[1] : null;
}

export const digest = digestOf(import.meta.url);

/** Registers the adapter's handlers on `pi`; `host` is the shell (its `adopt` reloads the adapter in place). */
export default function activate(pi, host = {}) {
  const engine = new EngineClient();
  const providers = new ProviderRequests(engine);
  let watcher = null;
  let currentSession;
  /** What the peer hooks gave for the model since its last turn began; given at the next. */
  let peerContext = [];

  const dispatch = (event, payload) => engine.request({ op: 'dispatch', event, payload });
  /** The engine's refusal of `event`, `null` on a pass; a failure to get an answer is a refusal. */
  const refusalOf = async (event, payload, what) => {
    try {
      return events.refusal(await dispatch(event, payload), what);
    } catch (error) {
      return events.failure(error, what);
    }
  };

  pi.on('tool_call', async (event, ctx) => {
    const payload = events.toolCall(event, ctx);
    const [reason, peers] = await Promise.all([
      refusalOf('pre_tool_use', payload, `the ${event?.toolName} call`),
      runPeerHooks('PreToolUse', payload),
    ]);
    const refused = reason ?? peers.deny;
    return refused === null ? undefined : { block: true, reason: refused };
  });

  pi.on('tool_result', async (event, ctx) => {
    const reason = await refusalOf('post_tool_use', events.toolResult(event, ctx), `the result of the ${event?.toolName} call`);
    if (reason === null) return undefined;
    return { content: [...(Array.isArray(event?.content) ? event.content : []), { type: 'text', text: reason }] };
  });

  pi.on('session_stop', async (event, ctx) => {
    const payload = events.sessionStop(event, ctx);
    const reason = await refusalOf('stop', payload, 'the end of the turn');
    if (reason !== null) return { decision: 'block', reason };
    // Peer news (messages, sent ones come back) keeps the turn going, once.
    const peers = await runPeerHooks('Stop', payload);
    return peers.block === null ? undefined : { decision: 'block', reason: peers.block };
  });

  pi.on('input', async (event, ctx) => {
    const payload = events.input(event, ctx);
    const reason = await refusalOf('user_prompt_submit', payload, 'the prompt');
    if (reason === null) {
      peerContext.push(...(await runPeerHooks('UserPromptSubmit', payload)).context);
      return undefined;
    }
    notify(ctx, reason);
    return { handled: true };
  });

  pi.on('before_agent_start', () => {
    if (peerContext.length === 0) return undefined;
    const content = peerContext.join('\n\n');
    peerContext = [];
    return { message: { customType: 'tama-peers', content, display: true } };
  });

  pi.on('session_start', async (event, ctx) => {
    const session = events.sessionId(event, ctx);
    currentSession = session;
    watcher?.stop();
    watcher = watchReloadRequests({ session, host, status: () => status(session), ctx });
    const payload = events.session('SessionStart', event, ctx);
    const reason = await refusalOf('session_start', payload, 'the session start');
    if (reason !== null) process.stderr.write(`tama: ${reason}\n`);
    peerContext = (await runPeerHooks('SessionStart', payload)).context;
  });

  pi.on('session_shutdown', async (event, ctx) => {
    watcher?.stop();
    watcher = null;
    const payload = events.session('SessionEnd', event, ctx);
    const ended = runPeerHooks('SessionEnd', payload);
    try {
      await engine.request({ op: 'dispatch', event: 'session_end', payload }, { timeoutMs: 800 });
    } catch {
      // The engine ends every hook run it still holds when its input closes.
    }
    await Promise.all([ended, engine.shutdown(900)]);
  });

  pi.on('before_provider_request', (event, ctx) => {
    const payload = withInstalledContracts(event?.payload);
    return providers.decide(payload, events.sessionId(event, ctx));
  });

  /** oh-my-pi's process and session, and the engine's own process, said apart. */
  function status(session = currentSession) {
    const running = engine.current;
    return {
      processId: process.pid,
      sessionId: session ?? null,
      runtime: {
        adapterDigest: digest,
        engineProcessId: running?.state?.processId ?? running?.pid ?? null,
        engine: running?.bin ?? null,
        loadedReleaseId: running?.state?.loadedReleaseId ?? null,
      },
      adapterReloadSupported: typeof host.adopt === 'function',
    };
  }

  /** Asks the engine to re-read its registry; the text says what it answered. */
  async function reloadEngine(session = currentSession) {
    const answer = await engine.request({ op: 'reload' }, { ordered: true });
    const state = answer.state ?? {};
    const who = `oh-my-pi process ${process.pid}${session ? `, session ${session}` : ''}; Tama engine process ${state.processId}`;
    if (answer.ok !== true) return { ok: false, text: `Tama could not reload its registry (${who}): ${answer.error}` };
    const changed = answer.result?.changed ? 'adopted a changed registry' : 'found the registry unchanged';
    return { ok: true, text: `Tama reloaded its hook runtime: the engine ${changed} (release ${state.loadedReleaseId ?? 'none'}, generation ${state.generation}; ${who})` };
  }

  return { digest, reloadEngine, status, engine };
}

function notify(ctx, text) {
  try {
    ctx?.ui?.notify?.(text, 'error');
  } catch {
    // No UI (print mode): the reason is on stderr.
  }
  process.stderr.write(`tama: ${text}\n`);
}
