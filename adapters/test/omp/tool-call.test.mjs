// The adapter forwards oh-my-pi's events to the real engine and gives back
// its decisions; a dispatch that cannot be answered blocks and never passes.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  alive, commandHook, context, installRegistry, loadShell, scratchHome, shutdown, sleep, until, wasmHook,
} from './support.mjs';

let home;
let pi;
let shell;

before(async () => {
  home = scratchHome();
  installRegistry(home.home, {
    releaseId: 'omp-test',
    events: {
      'pre_tool_use:bash': { blocking: true, hooks: [wasmHook('block-git-hook-bypass', 'block_git_hook_bypass.wasm')] },
      'pre_tool_use:write': { blocking: true, hooks: [wasmHook('no-env-files', 'gate_template.wasm')] },
      'pre_tool_use:slowtool': { blocking: true, hooks: [commandHook('slow-check', 'sleep 3')] },
      'pre_tool_use:quicktool': { blocking: true, hooks: [commandHook('quick-check', 'true')] },
      user_prompt_submit: { blocking: true, hooks: [commandHook('no-secrets', 'grep -q SECRET && { echo "prompt names a secret" >&2; exit 2; }; exit 0')] },
      stop: { blocking: true, hooks: [wasmHook('block-supervisor-stop', 'block_supervisor_stop.wasm', { state: ['oko.role', 'oko.work'] })] },
    },
  }, ['block_git_hook_bypass.wasm', 'gate_template.wasm', 'block_supervisor_stop.wasm']);
  ({ pi, shell } = await loadShell(home.shellPath));
  await pi.emit('session_start', { type: 'session_start' });
});

after(async () => {
  await shutdown(pi);
  home.remove();
});

const bash = (command) => ({ type: 'tool_call', toolName: 'bash', toolCallId: `call-${Math.random()}`, input: { command } });

test('setup printed every file it wrote', () => {
  for (const name of ['omp-shared-hooks.js', 'adapter.js', 'engine-client.mjs', 'session-control.mjs', 'bin/tama']) {
    assert.match(home.setup, new RegExp(`wrote .*${name.replace('.', '\\.')}`), name);
  }
});

test('a --no-verify commit is blocked with the gate reason; a plain command passes', async () => {
  const refused = await pi.emit('tool_call', bash('git commit --no-verify -m x'));
  assert.equal(refused.block, true);
  assert.match(refused.reason, /^block-git-hook-bypass: /);
  assert.match(refused.reason, /--no-verify/);
  assert.equal(await pi.emit('tool_call', bash('git commit -m x')), undefined);
});

test('every file header of an anchored edit is a target, judged before the edit applies', async () => {
  for (const field of ['input', 'patch', 'raw_input', 'content']) {
    const edit = { type: 'tool_call', toolName: 'edit', toolCallId: `edit-${field}`, input: { [field]: '[src/a.txt#1a2b]\nSWAP 1.=1:\n+a\n[config/.env#3c4d]\nSWAP 1.=1:\n+TOKEN=x\n' } };
    const refused = await pi.emit('tool_call', edit);
    assert.equal(refused?.block, true, field);
    assert.match(refused.reason, /no-env-files: .*config\/\.env/, field);
  }
  const harmless = { type: 'tool_call', toolName: 'edit', toolCallId: 'edit-ok', input: { input: '[src/a.txt#1a2b]\nSWAP 1.=1:\n+a\n[src/b.txt#3c4d]\nDEL 2\n' } };
  assert.equal(await pi.emit('tool_call', harmless), undefined);
});

test('requests are in flight side by side: a quick call is answered while a slow one still runs', async () => {
  const started = Date.now();
  let slowDone = 0;
  const slow = pi.emit('tool_call', { type: 'tool_call', toolName: 'slowtool', toolCallId: 's1', input: {} }).then((r) => { slowDone = Date.now(); return r; });
  await sleep(200);
  assert.equal(await pi.emit('tool_call', { type: 'tool_call', toolName: 'quicktool', toolCallId: 'q1', input: {} }), undefined);
  const quickDone = Date.now();
  assert.equal(slowDone, 0, 'the quick call was answered before the slow one');
  assert.equal(await slow, undefined);
  assert.ok(slowDone > quickDone && slowDone - started >= 2_500);
});

test('an engine killed mid-dispatch blocks that call, and the next call gets a new engine', async () => {
  const before = shell.status().runtime.engineProcessId;
  assert.ok(before && before !== process.pid && alive(before));
  const pending = pi.emit('tool_call', { type: 'tool_call', toolName: 'slowtool', toolCallId: 's2', input: {} });
  await sleep(300);
  process.kill(before, 'SIGKILL');
  const refused = await pending;
  assert.equal(refused.block, true);
  assert.match(refused.reason, /^TAMA_HOOK_INFRASTRUCTURE: Tama could not decide the slowtool call: the Tama engine .* exited \(SIGKILL\) before answering/);
  assert.equal(await pi.emit('tool_call', bash('ls')), undefined);
  const after = shell.status().runtime.engineProcessId;
  assert.ok(after && after !== before && alive(after));
});

test('a prompt the engine refuses is handled (not sent) and the reason is shown', async () => {
  const ctx = context();
  assert.deepEqual(await pi.emit('input', { type: 'input', text: 'print the SECRET', source: 'interactive' }, ctx), { handled: true });
  assert.match(ctx.notes[0].text, /no-secrets: prompt names a secret/);
  assert.equal(await pi.emit('input', { type: 'input', text: 'hello', source: 'interactive' }), undefined);
});

test('a refused session_stop is {decision: "block", reason}; with the work over it passes', async () => {
  const agent = join(home.home, '.oko', 'agents', 'omp');
  mkdirSync(agent, { recursive: true });
  writeFileSync(join(agent, 'role.json'), '{"role":"supervisor"}');
  writeFileSync(join(agent, 'work.json'), '{"handedOut":[{"id":"T-7","title":"port the parser","executor":"codex-2","status":"open"}]}');
  const stop = { type: 'session_stop', session_id: 'session-1', turn_id: 1, stop_hook_active: false, messages: [] };
  const refused = await pi.emit('session_stop', stop);
  assert.equal(refused.decision, 'block');
  assert.match(refused.reason, /block-supervisor-stop: .*T-7/);
  writeFileSync(join(agent, 'work.json'), '{"handedOut":[{"id":"T-7","status":"done"}]}');
  assert.equal(await pi.emit('session_stop', stop), undefined);
});

test('the oh-my-pi process and the engine process are reported apart', async () => {
  const status = shell.status();
  assert.equal(status.processId, process.pid);
  assert.equal(status.sessionId, 'session-1');
  assert.notEqual(status.runtime.engineProcessId, process.pid);
  assert.match(status.runtime.adapterDigest, /^[0-9a-f]{64}$/);
});

test('session_shutdown closes the engine input and the engine ends', async () => {
  const engine = shell.status().runtime.engineProcessId;
  await shutdown(pi);
  await until(() => !alive(engine), 5_000, 'the engine to end');
  // A later call starts an engine again rather than passing.
  assert.equal((await pi.emit('tool_call', bash('git push --no-verify'))).block, true);
});
