// The shell imports the adapter under its digest and adopts a newer
// installed adapter in place; a broken one is refused and the loaded one
// keeps running. The same adoption through the session-control request and
// `tama sessions reload`. (tests/omp/ runs the reload under bun in oh-my-pi.)

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { TAMA, alive, context, loadShell, scratchHome, sha256, shutdown, until } from './support.mjs';

let home;
let pi;
let shell;
let adapter;

before(async () => {
  home = scratchHome({ TAMA_OMP_CONTROL_POLL_MS: '50' });
  adapter = join(home.adapterDir, 'adapter.js');
  ({ pi, shell } = await loadShell(home.shellPath));
  await pi.emit('session_start', { type: 'session_start' }, context('session-r'));
});

after(async () => {
  await shutdown(pi);
  home.remove();
});

const reloadTool = () => pi.tools.get('tama_reload_hook_runtime').execute('call-1', {}, undefined, undefined, context('session-r'));
const blocked = async () => (await pi.emit('tool_call', { type: 'tool_call', toolName: 'bash', toolCallId: 'b', input: { command: 'git commit --no-verify -m x' } }))?.block === true;

test('the loaded digest is the one the adapter read from its module URL', async () => {
  assert.equal(shell.status().runtime.adapterDigest, sha256(readFileSync(adapter)));
  const bare = await import(pathToFileURL(adapter).href);
  assert.equal(bare.digest, null, 'a module imported without a digest reports no identity');
  assert.equal(bare.digestOf(`file:///x/adapter.${'a'.repeat(64)}.js`), 'a'.repeat(64));
  assert.equal(bare.digestOf(`file:///x/adapter.js?sha256=${'b'.repeat(64)}`), 'b'.repeat(64));
});

test('an unchanged adapter is not imported again; the engine still reloads', async () => {
  const result = await reloadTool();
  const text = result.content[0].text;
  assert.doesNotMatch(text, /Loaded the installed OMP adapter/);
  assert.match(text, /^Tama reloaded its hook runtime: the engine found the registry unchanged .*oh-my-pi process \d+, session session-r; Tama engine process \d+\)$/);
});

test('a changed adapter is imported in place: new module, old shutdown, new registration and session start', async () => {
  const before = shell.status();
  appendFileSync(adapter, '\n// A newer adapter.\n');
  const digest = sha256(readFileSync(adapter));
  const text = (await reloadTool()).content[0].text;
  const [first, second] = text.split('\n');
  assert.equal(first, `Loaded the installed OMP adapter ${digest} in place of ${before.runtime.adapterDigest}`);
  assert.match(second, /^Tama reloaded its hook runtime: /);
  const now = shell.status();
  assert.equal(now.runtime.adapterDigest, digest);
  assert.equal(now.sessionId, 'session-r', "the new adapter's session_start ran with the reload's context");
  await until(() => !alive(before.runtime.engineProcessId), 5_000, "the old adapter's engine to end");
  assert.ok(await blocked());
  assert.notEqual(shell.status().runtime.engineProcessId, before.runtime.engineProcessId);
});

test('an adapter that fails to import, register or start is refused and the loaded one keeps running', async () => {
  const loaded = shell.status().runtime.adapterDigest;
  const good = readFileSync(adapter);
  for (const [bad, why] of [
    ['export default function activate( {\n', /^Tama could not reload its OMP adapter: .+/],
    ['export default function activate() { throw new Error("no registration today"); }\n', /^Tama could not reload its OMP adapter: no registration today$/],
    ['export default function activate(pi) { pi.on("session_start", () => { throw new Error("cannot start"); }); return {}; }\n', /^Tama could not reload its OMP adapter: its session_start failed: cannot start$/],
  ]) {
    writeFileSync(adapter, bad);
    try {
      await assert.rejects(reloadTool(), { message: why });
      assert.equal(shell.status().runtime.adapterDigest, loaded);
      assert.ok(await blocked(), 'the loaded adapter still decides');
    } finally {
      writeFileSync(adapter, good);
    }
  }
});

test('the answer says when sibling modules changed and oh-my-pi must start again', async () => {
  appendFileSync(join(home.adapterDir, 'hook-events.mjs'), '\n// changed\n');
  appendFileSync(adapter, '\n// And another.\n');
  const text = (await reloadTool()).content[0].text;
  assert.match(text, /^Loaded the installed OMP adapter [0-9a-f]{64} in place of [0-9a-f]{64}\nIts sibling modules hook-events\.mjs changed since oh-my-pi started; .*start oh-my-pi again \(\/restart keeps the session\)/);
});

test('concurrent adoptions share one operation', async () => {
  appendFileSync(adapter, '\n// Once more.\n');
  const [a, b] = await Promise.all([shell.adopt(context('session-r')), shell.adopt(context('session-r'))]);
  assert.equal(a, b);
  assert.equal(a.ok, true);
  assert.match(a.message, /^Loaded the installed OMP adapter/);
});

test('tama sessions reload adopts through the session-control request and prints the receipt', async () => {
  appendFileSync(adapter, '\n// From outside.\n');
  const digest = sha256(readFileSync(adapter));
  const { stdout } = await promisify(execFile)(TAMA, ['sessions', 'reload', '--session', 'session-r', '--json'], { env: process.env });
  const receipt = JSON.parse(stdout);
  assert.equal(receipt.ok, true);
  assert.equal(receipt.operation, 'reload-adapter');
  assert.equal(receipt.processId, process.pid);
  assert.equal(receipt.sessionId, 'session-r');
  assert.equal(receipt.runtime.adapterDigest, digest);
  assert.equal(receipt.adapterReloadSupported, true);
  assert.match(receipt.message, new RegExp(`^Loaded the installed OMP adapter ${digest} in place of`));
  assert.equal(shell.status().runtime.adapterDigest, digest);
});

test('a reload request for a session nobody runs fails with the reason', async () => {
  const run = promisify(execFile)(TAMA, ['sessions', 'reload', '--session', 'nobody', '--json', '--timeout', '1'], { env: process.env });
  const failed = await run.then(() => null, (error) => error);
  assert.equal(failed.code, 1);
  assert.match(JSON.parse(failed.stdout).error, /no oh-my-pi process of session nobody took the reload request within 1 s/);
});
