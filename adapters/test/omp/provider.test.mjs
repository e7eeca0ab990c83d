// Model requests: decided at once from the newest answer of
// block-text-outside-tool-calls (the default registry's gate, run by the
// real engine), with one background dispatch at a time deciding the next;
// and the installed contracts put in place of the session's copy.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandHook, context, installRegistry, loadShell, scratchHome, shutdown, until } from './support.mjs';

let home;
let pi;
let shell;
let agent;

before(async () => {
  home = scratchHome();
  agent = join(home.home, '.oko', 'agents', 'omp');
  ({ pi, shell } = await loadShell(home.shellPath));
  await pi.emit('session_start', { type: 'session_start' }, context('session-p'));
});

after(async () => {
  await shutdown(pi);
  home.remove();
});

const tools = [{ type: 'function', function: { name: 'bash', parameters: { type: 'object' } } }];
const openai = (messages = []) => ({ model: 'm', stream: true, tools, messages: [{ role: 'system', content: 'system' }, { role: 'user', content: 'go' }, ...messages] });
const anthropic = (messages = []) => ({ model: 'claude', max_tokens: 10, system: 'system', tools: [{ name: 'bash', input_schema: { type: 'object' } }], messages: [{ role: 'user', content: 'go' }, ...messages] });
const prose = [{ role: 'assistant', content: 'All done, nothing left.' }];
const toolAnswer = [{ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'bash', arguments: '{}' } }] }, { role: 'tool', tool_call_id: 'c', content: 'ok' }];

/** One model request through the adapter, in session-p; the handler must answer at once. */
function request(payload) {
  const handler = pi.handlers.get('before_provider_request')[0];
  const answer = handler({ type: 'before_provider_request', payload }, context('session-p'));
  return answer;
}

const openWork = (status) => {
  mkdirSync(agent, { recursive: true });
  writeFileSync(join(agent, 'role.json'), '{"role":"supervisor"}');
  writeFileSync(join(agent, 'work.json'), JSON.stringify({ handedOut: [{ id: 'T-9', title: 'review', executor: 'codex-1', status }] }));
};

test('the first OpenAI request is forced before any answer; a pass leaves the next one free', async () => {
  const first = await request(openai());
  assert.equal(first.tool_choice, 'required');
  await until(async () => (await request(openai(prose))).tool_choice === undefined, 10_000, 'a passing answer');
});

test('prose while work is open makes the next OpenAI request require a tool call; Anthropic requests are never forced', async () => {
  openWork('open');
  await until(async () => (await request(openai(prose))).tool_choice === 'required', 10_000, 'the refusal to decide a request');
  const messages = anthropic([{ role: 'assistant', content: [{ type: 'text', text: 'Done.' }] }]);
  const sent = await request(messages);
  assert.equal(sent, messages, 'an Anthropic Messages request goes unchanged');
  assert.equal(sent.tool_choice, undefined);
  // A tool call answer with the work still open passes: the request after it is free again.
  await until(async () => (await request(openai(toolAnswer))).tool_choice === undefined, 10_000, 'a pass after a tool call');
  openWork('done');
});

test('an unknown tool shape goes unchanged, with the limitation on stderr', async () => {
  const lines = [];
  const write = process.stderr.write;
  process.stderr.write = (chunk, ...rest) => { lines.push(String(chunk)); return write.call(process.stderr, chunk, ...rest); };
  try {
    openWork('open');
    const odd = { model: 'm', tools: [{ kind: 'mystery' }], messages: [{ role: 'user', content: 'go' }, ...prose] };
    await until(async () => { await request(odd); return lines.some((l) => /shape Tama does not know/.test(l)); }, 10_000, 'the stderr note');
    assert.equal(await request(odd), odd);
  } finally {
    process.stderr.write = write;
    openWork('done');
  }
});

test('requests are decided at once while one dispatch at a time runs in the background', async () => {
  installRegistry(home.home, { releaseId: 'slow-provider', events: { before_provider_request: { blocking: true, hooks: [commandHook('slow-provider-check', 'sleep 2')] } } });
  // An engine started on the built-in registry keeps to it; the next one reads the installed file.
  await shell.loaded.api.engine.shutdown();
  await until(async () => { await request(openai(prose)); const s = await shell.loaded.api.engine.request({ op: 'status' }); return s.result.dispatchStages.running.some((f) => f.event === 'before_provider_request'); }, 10_000, 'a slow dispatch');
  const answers = await Promise.all(Array.from({ length: 20 }, () => request(openai(prose))));
  assert.equal(answers.length, 20);
  // Answered while the one dispatch still runs, and no second one started.
  const status = await shell.loaded.api.engine.request({ op: 'status' });
  const running = status.result.dispatchStages.running.filter((f) => f.event === 'before_provider_request');
  assert.equal(running.length, 1);
  rmSync(join(home.home, '.shared-hooks', 'registry.json'));
  await shell.loaded.api.engine.shutdown();
});

const START = '<!-- jeden contracts: start -->';
const END = '<!-- jeden contracts: end -->';
const appendSystem = () => join(home.home, '.omp', 'agent', 'APPEND_SYSTEM.md');
const withContracts = (block) => openai([{ role: 'user', content: `before\n${START}\n${block}\n${END}\nafter` }]);

test('contracts: a missing file leaves the request as it is', async () => {
  rmSync(appendSystem(), { recursive: true, force: true });
  const payload = withContracts('old contract');
  const sent = await request(payload);
  assert.deepEqual(sent.messages, payload.messages);
});

test('contracts: the installed block replaces the one the request carries, on every request', async () => {
  writeFileSync(appendSystem(), `# mine\n${START}\nnew contract 1\n${END}\ntail\n`);
  let sent = await request(withContracts('old contract'));
  assert.equal(sent.messages.at(-1).content, `before\n${START}\nnew contract 1\n${END}\nafter`);
  writeFileSync(appendSystem(), `${START}\nnew contract 2\n${END}\n`);
  sent = await request(withContracts('old contract'));
  assert.match(sent.messages.at(-1).content, /new contract 2/);
  const unmarked = openai([{ role: 'user', content: 'no block here' }]);
  assert.deepEqual((await request(unmarked)).messages, unmarked.messages);
  writeFileSync(appendSystem(), 'no markers at all\n');
  assert.match((await request(withContracts('old contract'))).messages.at(-1).content, /old contract/);
});

test('contracts: an unreadable file keeps the session copy and says so on stderr', async () => {
  rmSync(appendSystem(), { force: true });
  mkdirSync(appendSystem());
  const lines = [];
  const write = process.stderr.write;
  process.stderr.write = (chunk, ...rest) => { lines.push(String(chunk)); return true; };
  try {
    const sent = await request(withContracts('old contract'));
    assert.match(sent.messages.at(-1).content, /old contract/);
  } finally {
    process.stderr.write = write;
  }
  assert.ok(lines.some((l) => l.startsWith(`Tama cannot read the installed contracts ${appendSystem()}: `) && l.includes('; this model request keeps the contracts its session started with')), lines.join(''));
  rmSync(appendSystem(), { recursive: true });
});

test('request shapes: Chat Completions and Responses function tools are OpenAI, input_schema tools are Anthropic', async () => {
  const { toolShape, assistantTurn } = await import('../../omp/provider-request.mjs');
  assert.equal(toolShape(openai()), 'openai');
  assert.equal(toolShape({ input: [], tools: [{ type: 'function', name: 'bash', parameters: {} }] }), 'openai');
  assert.equal(toolShape(anthropic()), 'anthropic');
  assert.equal(toolShape({ messages: [] }), 'none');
  assert.equal(toolShape({ tools: [{ type: 'web_search' }] }), 'unknown');
  assert.deepEqual(assistantTurn(openai(prose)), { text: 'All done, nothing left.', toolCalls: 0 });
  assert.deepEqual(assistantTurn(openai(toolAnswer)), { text: '', toolCalls: 1 });
  assert.equal(assistantTurn(openai()), null);
  const responses = { input: [
    { role: 'user', content: 'go' },
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Looking.' }] },
    { type: 'function_call', name: 'bash', arguments: '{}', call_id: 'c' },
    { type: 'function_call_output', call_id: 'c', output: 'ok' },
  ] };
  assert.deepEqual(assistantTurn(responses), { text: 'Looking.', toolCalls: 1 });
  assert.deepEqual(assistantTurn(anthropic([{ role: 'assistant', content: [{ type: 'thinking', thinking: 'x' }, { type: 'text', text: 'Done.' }] }, { role: 'user', content: 'continue' }])), { text: 'Done.', toolCalls: 0 });
});
