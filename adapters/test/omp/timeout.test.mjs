// A dispatch the engine does not answer in time blocks the call (never
// passes) and is cancelled in the engine; the next call is decided as usual.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { commandHook, installRegistry, loadShell, scratchHome, shutdown, until, wasmHook } from './support.mjs';

let home;
let pi;
let shell;

before(async () => {
  home = scratchHome({ TAMA_OMP_DISPATCH_TIMEOUT_MS: '400' });
  installRegistry(home.home, {
    releaseId: 'timeouts',
    events: {
      'pre_tool_use:bash': { blocking: true, hooks: [wasmHook('block-git-hook-bypass', 'block_git_hook_bypass.wasm')] },
      'pre_tool_use:slowtool': { blocking: true, hooks: [commandHook('slow-check', 'sleep 5')] },
    },
  }, ['block_git_hook_bypass.wasm']);
  ({ pi, shell } = await loadShell(home.shellPath));
  await pi.emit('session_start', { type: 'session_start' });
});

after(async () => {
  await shutdown(pi);
  home.remove();
  delete process.env.TAMA_OMP_DISPATCH_TIMEOUT_MS;
});

test('a dispatch past the adapter deadline blocks, and the engine stops running it', async () => {
  const refused = await pi.emit('tool_call', { type: 'tool_call', toolName: 'slowtool', toolCallId: 't1', input: {} });
  assert.equal(refused.block, true);
  assert.match(refused.reason, /^TAMA_HOOK_INFRASTRUCTURE: Tama could not decide the slowtool call: the Tama engine \(process \d+\) did not answer the pre_tool_use dispatch within 400 ms$/);
  await until(async () => {
    const status = await shell.loaded.api.engine.request({ op: 'status' });
    return status.result.dispatchStages.running.length === 0;
  }, 5_000, 'the cancelled dispatch to end');
  assert.equal((await pi.emit('tool_call', { type: 'tool_call', toolName: 'bash', toolCallId: 't2', input: { command: 'git commit --no-verify -m x' } })).block, true);
  assert.equal(await pi.emit('tool_call', { type: 'tool_call', toolName: 'bash', toolCallId: 't3', input: { command: 'ls' } }), undefined);
});
