// Model requests are decided at once, never by waiting on the engine:
// oh-my-pi waits for a before_provider_request handler only up to its own
// budget and then sends the request unchanged. Each request is decided from
// the newest answer `block-text-outside-tool-calls` gave in the session; one
// fresh dispatch (never two at once) runs meanwhile and decides the next.

/** `'openai'` (function tools), `'anthropic'` (Messages tools), `'none'` (no tools) or `'unknown'`. */
export function toolShape(payload) {
  const tools = payload?.tools;
  if (!Array.isArray(tools) || tools.length === 0) return 'none';
  if (tools.every((tool) => tool && typeof tool === 'object' && 'input_schema' in tool)) return 'anthropic';
  const openaiFunction = (tool) => tool?.type === 'function' && (typeof tool.function?.name === 'string' || typeof tool.name === 'string');
  if (tools.every(openaiFunction)) return 'openai';
  return 'unknown';
}

/**
 * What the model answered last in this request, as the gate reads it:
 * `{ text, toolCalls }` of the newest assistant answer (the assistant items
 * that follow each other last in the conversation, whatever came after them),
 * or `null` before the model answered at all. OpenAI Chat Completions, OpenAI Responses and
 * Anthropic Messages payloads are read.
 */
export function assistantTurn(payload) {
  const messages = Array.isArray(payload?.messages) ? payload.messages : Array.isArray(payload?.input) ? payload.input : [];
  let text = '';
  let toolCalls = 0;
  let found = false;
  const assistantItem = (item) => item?.role === 'assistant' || item?.type === 'function_call' || item?.type === 'custom_tool_call';
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const item = messages[i];
    if (!assistantItem(item)) {
      if (found) break;
      continue;
    }
    found = true;
    if (item.role !== 'assistant') {
      toolCalls += 1;
      continue;
    }
    toolCalls += Array.isArray(item.tool_calls) ? item.tool_calls.length : 0;
    let own = '';
    if (typeof item.content === 'string') own = item.content;
    else if (Array.isArray(item.content)) {
      for (const part of item.content) {
        if (part?.type === 'tool_use') toolCalls += 1;
        else if (typeof part?.text === 'string' && part.type !== 'thinking' && part.type !== 'reasoning') own += part.text;
      }
    }
    text = own + text;
  }
  return found ? { text: text.slice(0, 4000), toolCalls } : null;
}

export class ProviderRequests {
  #engine;
  #warn;
  #newest = new Map();
  #running = new Set();
  #warnedUnknown = false;

  constructor(engine, { warn = (line) => process.stderr.write(`${line}\n`) } = {}) {
    this.#engine = engine;
    this.#warn = warn;
  }

  /** The newest answer of the session: `'refuse'`, `'pass'`, or `undefined` before the first. */
  newest(session) {
    return this.#newest.get(session ?? '');
  }

  /** Whether a dispatch for the session is running now. */
  running(session) {
    return this.#running.has(session ?? '');
  }

  /** The payload to send now; starts the dispatch that decides the next request. */
  decide(payload, session) {
    const key = session ?? '';
    const forced = this.#newest.get(key) !== 'pass';
    this.#refresh(key, payload);
    if (!forced) return payload;
    switch (toolShape(payload)) {
      case 'openai':
        return { ...payload, tool_choice: 'required' };
      case 'unknown':
        if (!this.#warnedUnknown) {
          this.#warnedUnknown = true;
          this.#warn('tama: this model request names tools in a shape Tama does not know, so block-text-outside-tool-calls cannot require a tool call in it; the request goes unchanged and the completion gate still checks the turn');
        }
        return payload;
      default:
        // Anthropic Messages: models that reject tool_choice `any`/`tool` would fail before any work.
        return payload;
    }
  }

  #refresh(key, payload) {
    if (this.#running.has(key)) return;
    this.#running.add(key);
    const request = {
      op: 'dispatch',
      event: 'before_provider_request',
      payload: { session_id: key || undefined, hook_event_name: 'BeforeProviderRequest', omp_pid: process.pid, assistant_turn: assistantTurn(payload) },
    };
    this.#engine
      .request(request)
      .then(
        (answer) => (answer?.ok === true && answer.result?.decision === 'allow' ? 'pass' : 'refuse'),
        () => 'refuse',
      )
      .then((verdict) => {
        this.#newest.set(key, verdict);
        this.#running.delete(key);
      });
  }
}
