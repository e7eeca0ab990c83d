// A scripted model on 127.0.0.1 that speaks the three wire protocols the real
// harnesses use: Anthropic Messages (Claude Code), OpenAI Responses (Codex)
// and OpenAI Chat Completions (oh-my-pi), each streamed as server-sent events.
//
// A script is a list of turns, or a function `(request, index) => turn` (it
// may return a promise, to hold the answer until something happened). Every
// request that offers tools takes the next turn: `{shell: "<command>"}`
// answers with one call of the harness's shell tool, `{call: {name, input}}`
// with a call of any tool, `{text: "..."}` with prose. When the script is
// spent (or the function returns nothing), the model says "done". Requests
// without tools (titles, quota probes) get a short text and take no turn. A
// turn's `before()` runs, and is awaited, as it is taken. `GET .../models`
// lists the one scripted model. Every request is kept, so a journey can read
// what the harness sent back to the model after a refusal.

import http from "node:http";

export async function startModel(script) {
  const requests = [];
  let next = 0;
  const take = typeof script === "function" ? script : (_, index) => script[index];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", async () => {
      if (req.method === "GET") {
        const listed = req.url.split("?")[0].endsWith("/models");
        res.writeHead(listed ? 200 : 404, { "content-type": "application/json" });
        res.end(JSON.stringify(listed ? { object: "list", data: [{ id: "scripted", object: "model" }] } : { error: { message: `no such endpoint ${req.url}` } }));
        return;
      }
      let json = {};
      try {
        json = body ? JSON.parse(body) : {};
      } catch {
        json = { unparsed: body };
      }
      requests.push({ path: req.url, body: json });
      const tools = Array.isArray(json.tools) ? json.tools : [];
      const turn = tools.length > 0 ? (await take(json, next++)) ?? { text: "done" } : { text: "ok" };
      await turn.before?.();
      const wire = wireOf(req.url);
      if (!wire) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: `no such endpoint ${req.url}` } }));
        return;
      }
      const events = wire(turn, tools, requests.length);
      if (json.stream === false) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(events.final));
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      for (const [name, data] of events.stream) {
        if (name) res.write(`event: ${name}\n`);
        res.write(`data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
      }
      res.end();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    /** Every text the harness sent the model after its first request, as one string. */
    transcript: () => JSON.stringify(requests.map((r) => r.body)),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

function wireOf(url) {
  const path = url.split("?")[0];
  if (path.endsWith("/messages")) return anthropic;
  if (path.endsWith("/responses")) return responses;
  if (path.endsWith("/chat/completions")) return completions;
  return null;
}

/** The tool call a turn makes, if any: `{name, input}`. */
function callOf(turn, tools) {
  if (turn.call) return turn.call;
  if (turn.shell) return shellCall(tools, turn.shell);
  return null;
}

/** The shell tool the request offers and the input that runs `command` through it. */
function shellCall(tools, command) {
  const names = tools.map((t) => t.name ?? t.function?.name);
  for (const [name, input] of [
    ["Bash", { command, description: "run the command" }],
    ["exec_command", { cmd: command }],
    ["shell_command", { command }],
    ["shell", { command: ["bash", "-lc", command] }],
    ["bash", { command }],
  ]) {
    if (names.includes(name)) return { name, input };
  }
  throw new Error(`the request offers no shell tool: ${names.join(", ")}`);
}

function anthropic(turn, tools, n) {
  const call = callOf(turn, tools);
  const block = call ? { type: "tool_use", id: `toolu_${n}`, name: call.name, input: call.input } : { type: "text", text: turn.text };
  const stop = block.type === "tool_use" ? "tool_use" : "end_turn";
  const message = {
    id: `msg_${n}`,
    type: "message",
    role: "assistant",
    model: "scripted",
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  };
  const start = block.type === "tool_use" ? { ...block, input: {} } : { type: "text", text: "" };
  const delta =
    block.type === "tool_use"
      ? { type: "input_json_delta", partial_json: JSON.stringify(block.input) }
      : { type: "text_delta", text: block.text };
  return {
    final: { ...message, content: [block], stop_reason: stop },
    stream: [
      ["message_start", { type: "message_start", message }],
      ["content_block_start", { type: "content_block_start", index: 0, content_block: start }],
      ["content_block_delta", { type: "content_block_delta", index: 0, delta }],
      ["content_block_stop", { type: "content_block_stop", index: 0 }],
      ["message_delta", { type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 1 } }],
      ["message_stop", { type: "message_stop" }],
    ],
  };
}

function responses(turn, tools, n) {
  const call = callOf(turn, tools);
  const item = call
    ? { type: "function_call", id: `fc_${n}`, call_id: `call_${n}`, name: call.name, arguments: JSON.stringify(call.input), status: "completed" }
    : { type: "message", id: `msg_${n}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: turn.text, annotations: [] }] };
  const usage = { input_tokens: 1, input_tokens_details: { cached_tokens: 0 }, output_tokens: 1, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 2 };
  const response = { id: `resp_${n}`, object: "response", created_at: 0, status: "in_progress", model: "scripted", output: [] };
  const done = { ...response, status: "completed", output: [item], usage };
  return {
    final: done,
    stream: [
      ["response.created", { type: "response.created", response }],
      ["response.output_item.added", { type: "response.output_item.added", output_index: 0, item }],
      ["response.output_item.done", { type: "response.output_item.done", output_index: 0, item }],
      ["response.completed", { type: "response.completed", response: done }],
    ],
  };
}

function completions(turn, tools, n) {
  const base = { id: `chatcmpl_${n}`, object: "chat.completion.chunk", created: 0, model: "scripted" };
  let delta;
  let finish;
  let message;
  const call = callOf(turn, tools);
  if (call) {
    const toolCall = { id: `call_${n}`, type: "function", function: { name: call.name, arguments: JSON.stringify(call.input) } };
    delta = { role: "assistant", content: null, tool_calls: [{ index: 0, ...toolCall }] };
    message = { role: "assistant", content: null, tool_calls: [toolCall] };
    finish = "tool_calls";
  } else {
    delta = { role: "assistant", content: turn.text };
    message = { role: "assistant", content: turn.text };
    finish = "stop";
  }
  const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
  return {
    final: { ...base, object: "chat.completion", choices: [{ index: 0, message, finish_reason: finish }], usage },
    stream: [
      [null, { ...base, choices: [{ index: 0, delta, finish_reason: null }] }],
      [null, { ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }], usage }],
      [null, "[DONE]"],
    ],
  };
}
