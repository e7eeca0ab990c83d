// oh-my-pi events as the engine reads them, and the engine's decisions as
// oh-my-pi reads them. Translation only: every verdict is the engine's.

import { INFRASTRUCTURE } from './engine-client.mjs';

/** The oh-my-pi session a handler runs for, when oh-my-pi says. */
export function sessionId(event, ctx) {
  if (typeof event?.session_id === 'string') return event.session_id;
  try {
    const id = ctx?.sessionManager?.getSessionId?.();
    return typeof id === 'string' && id ? id : undefined;
  } catch {
    return undefined;
  }
}

function common(event, ctx) {
  return { session_id: sessionId(event, ctx), cwd: ctx?.cwd ?? process.cwd(), omp_pid: process.pid };
}

/**
 * A tool call as a `pre_tool_use` payload. The tool's input goes as it is:
 * an anchored edit's patch (in `patch`, `input`, `raw_input` or `content`) is
 * read by the engine's tool declaration, which makes every file header of it
 * a target of its own, so a multi-file edit is judged for every file before
 * oh-my-pi applies any.
 */
export function toolCall(event, ctx) {
  return {
    ...common(event, ctx),
    hook_event_name: 'PreToolUse',
    tool_name: String(event?.toolName ?? ''),
    tool_input: event?.input ?? {},
    tool_use_id: event?.toolCallId,
  };
}

/** A finished tool call as a `post_tool_use` payload. */
export function toolResult(event, ctx) {
  return {
    ...common(event, ctx),
    hook_event_name: 'PostToolUse',
    tool_name: String(event?.toolName ?? ''),
    tool_input: event?.input ?? {},
    tool_use_id: event?.toolCallId,
    tool_response: { content: event?.content ?? [], is_error: event?.isError === true },
  };
}

/** A turn about to settle as a `stop` payload. */
export function sessionStop(event, ctx) {
  return {
    ...common(event, ctx),
    hook_event_name: 'Stop',
    stop_hook_active: event?.stop_hook_active === true,
    turn_id: event?.turn_id,
    last_assistant_message: textOf(event?.last_assistant_message),
  };
}

/** A prompt as a `user_prompt_submit` payload. */
export function input(event, ctx) {
  return { ...common(event, ctx), hook_event_name: 'UserPromptSubmit', prompt: String(event?.text ?? ''), source: event?.source };
}

/** `session_start` and `session_shutdown` (as `session_end`). */
export function session(name, event, ctx) {
  return { ...common(event, ctx), hook_event_name: name, reason: event?.reason };
}

function textOf(message) {
  if (!message) return undefined;
  if (typeof message.content === 'string') return message.content;
  if (!Array.isArray(message.content)) return undefined;
  return message.content.filter((part) => part?.type === 'text').map((part) => part.text).join('\n');
}

/**
 * The engine's answer as a refusal: `null` when it passed, else the reason to
 * give oh-my-pi. An answer that is not a pass (a refusal, a cancellation, an
 * engine error) is a refusal; so is one that cannot be read.
 */
export function refusal(answer, what) {
  if (answer?.ok !== true) {
    const why = typeof answer?.error === 'string' ? answer.error : 'the engine answered without a decision';
    return why.startsWith(INFRASTRUCTURE) ? why : `${INFRASTRUCTURE}: Tama could not decide ${what}: ${why}`;
  }
  const decision = answer.result;
  if (decision?.decision === 'allow') return null;
  if (typeof decision?.reason === 'string' && decision.reason) return decision.reason;
  if (decision?.decision === 'block' || decision?.decision === 'cancelled') {
    return `${decision.hookId ?? 'a Tama hook'} refused ${what} without a reason`;
  }
  return `${INFRASTRUCTURE}: Tama could not decide ${what}: the engine's answer has no decision`;
}

/** A request that failed before the engine answered (dead, unstartable, timed out), as a refusal. */
export function failure(error, what) {
  return `${INFRASTRUCTURE}: Tama could not decide ${what}: ${error?.message ?? error}`;
}
