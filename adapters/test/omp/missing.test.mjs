// A shell whose adapter cannot be loaded refuses every tool call, naming
// why, until a reload loads one; it never lets a call through undecided.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { context, loadShell, scratchHome, sha256, shutdown } from './support.mjs';

const home = scratchHome();
after(() => home.remove());

test('no adapter: tool calls are refused; the reload tool then loads the installed one', async () => {
  const adapter = join(home.adapterDir, 'adapter.js');
  renameSync(adapter, `${adapter}.away`);
  const { pi, shell } = await loadShell(home.shellPath);
  const refused = await pi.emit('tool_call', { type: 'tool_call', toolName: 'bash', toolCallId: 'a', input: { command: 'ls' } });
  assert.equal(refused.block, true);
  assert.match(refused.reason, /^TAMA_HOOK_INFRASTRUCTURE: Tama's oh-my-pi adapter could not be loaded from .*: .*adapter\.js.*; run tama setup omp, then \/tama_reload_hook_runtime$/);
  assert.equal(shell.status().runtime.adapterDigest, null);

  renameSync(`${adapter}.away`, adapter);
  const text = (await pi.tools.get('tama_reload_hook_runtime').execute('r', {}, undefined, undefined, context())).content[0].text;
  assert.match(text, new RegExp(`^Loaded the installed OMP adapter ${sha256(readFileSync(adapter))} in place of an adapter without a digest\\n`));
  assert.equal(await pi.emit('tool_call', { type: 'tool_call', toolName: 'bash', toolCallId: 'b', input: { command: 'ls' } }), undefined);
  await shutdown(pi);
});
