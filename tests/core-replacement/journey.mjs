// A reload that loads another release's registry leaves the engine running
// the older release's code; the adapter replaces that engine with the
// installed release's as soon as it owes no answer, and requests still owed
// finish on the older engine first. Real `tama setup omp`, real engines.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  alive, commandHook, context, installRegistry, loadShell, scratchHome, shutdown, sleep, wasmHook,
} from '../../adapters/test/omp/support.mjs';

let home;
let pi;
let shell;

const registry = (releaseId) => ({
  releaseId,
  events: {
    'pre_tool_use:bash': { blocking: true, hooks: [wasmHook('block-git-hook-bypass', 'block_git_hook_bypass.wasm')] },
    'pre_tool_use:slowtool': { blocking: true, hooks: [commandHook('slow-check', 'sleep 2')] },
  },
});

before(async () => {
  home = scratchHome();
  installRegistry(home.home, registry('release-a'), ['block_git_hook_bypass.wasm']);
  ({ pi, shell } = await loadShell(home.shellPath));
  await pi.emit('session_start', { type: 'session_start' });
});

after(async () => {
  await shutdown(pi);
  home.remove();
});

const status = async () => (await shell.loaded.api.engine.request({ op: 'status' })).state;

test('the next status after a reload onto another release comes from a new engine on that release, then from the same one', async () => {
  const first = await status();
  assert.equal(first.coreReleaseId, 'release-a');
  assert.equal(first.coreReplacedByRelease, false);

  installRegistry(home.home, registry('release-b'));
  const text = await pi.commands.get('tama_reload_hook_runtime').handler('', context());
  assert.match(text, /the engine adopted a changed registry \(release release-b/);

  const next = await status();
  assert.notEqual(next.processId, first.processId);
  assert.equal(next.coreReleaseId, 'release-b');
  assert.equal(next.loadedReleaseId, 'release-b');
  assert.equal(next.coreReplacedByRelease, false);
  assert.equal(alive(first.processId), false, 'the replaced engine ended');

  const again = await status();
  assert.equal(again.processId, next.processId);
});

test('requests still owed an answer finish on the older engine first', async () => {
  const older = await status();
  const slow = pi.emit('tool_call', { type: 'tool_call', toolName: 'slowtool', toolCallId: 'slow-1', input: {} });
  await sleep(200);
  installRegistry(home.home, registry('release-c'));
  await pi.commands.get('tama_reload_hook_runtime').handler('', context());
  const meanwhile = await status();
  assert.equal(meanwhile.processId, older.processId, 'an engine that owes an answer is not replaced');
  assert.equal(meanwhile.coreReplacedByRelease, true);
  assert.equal(await slow, undefined, 'the owed dispatch finished on the older engine');
  const replaced = await status();
  assert.notEqual(replaced.processId, older.processId);
  assert.equal(replaced.coreReleaseId, 'release-c');
  assert.equal((await pi.emit('tool_call', { type: 'tool_call', toolName: 'bash', toolCallId: 'b', input: { command: 'git commit -n -m x' } })).block, true);
});
