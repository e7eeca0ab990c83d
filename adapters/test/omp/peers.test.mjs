// Peer sessions on oh-my-pi: `tama setup peers` sets them up, and the
// extension runs the peer hooks on oh-my-pi's events, through the real tama.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TAMA, context, loadShell, scratchHome, shutdown } from './support.mjs';

let home;
let pi;
let mine;
let theirs;
let setup;

const tama = (args, input) => execFileSync(TAMA, args, { env: process.env, encoding: 'utf8', input });
const checkout = (name) => {
  const dir = join(home.home, name);
  mkdirSync(dir, { recursive: true });
  execFileSync('git', ['init', '-q', dir]);
  return dir;
};
const ctx = () => context('omp-1', mine);
/** Runs the extension's `before_agent_start`, as oh-my-pi does when a turn begins. */
const turnBegins = () => pi.emit('before_agent_start', { type: 'before_agent_start' }, ctx());
const writeInto = (dir) => pi.emit('tool_call', { type: 'tool_call', toolName: 'write', toolCallId: `w-${Math.random()}`, input: { path: join(dir, 'notes.txt'), content: 'x' } }, ctx());

before(async () => {
  home = scratchHome();
  mine = checkout('mine');
  theirs = checkout('theirs');
  setup = tama(['setup', 'peers']);
  ({ pi } = await loadShell(home.shellPath));
  // A Claude Code peer working in the other checkout.
  tama(['peer-hook', 'claude', 'session-start'], JSON.stringify({ session_id: 'peer-b', cwd: theirs }));
  await pi.emit('session_start', { type: 'session_start' }, ctx());
});

after(async () => {
  await shutdown(pi);
  home.remove();
});

test('setup peers writes the peer hooks the extension reads and the oh-my-pi skill, with no waiter', () => {
  const hooks = JSON.parse(readFileSync(join(home.adapterDir, 'peer-hooks.json'), 'utf8')).hooks;
  assert.deepEqual(Object.keys(hooks), ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'Stop', 'SessionEnd']);
  assert.equal(hooks.Stop.length, 1, 'no background waiter: nothing wakes an idle oh-my-pi');
  assert.match(hooks.PreToolUse[0].hooks[0].command, /peer-hook omp pre-tool$/);
  assert.match(setup, /^omp: .*peer-hooks\.json/m);
  assert.ok(existsSync(join(home.home, '.omp', 'agent', 'skills', 'peer-work', 'SKILL.md')));
});

test('the session-start brief reaches the model when its first turn begins, once', async () => {
  const first = await turnBegins();
  assert.match(first.message.content, /You are peer session omp-omp-1 /);
  assert.match(first.message.content, /claude-peer-b/);
  assert.equal(await turnBegins(), undefined);
});

test('a write into the peer\'s checkout is refused naming the peer; one into its own passes', async () => {
  const refused = await writeInto(theirs);
  assert.equal(refused?.block, true);
  assert.match(refused.reason, /peer session claude-peer-b/);
  assert.match(refused.reason, /ask claude-peer-b/);
  assert.equal(await writeInto(mine), undefined);
});

test('a note keeps the turn going once at its end, and one sent later comes with the next prompt', async () => {
  tama(['peers', '--session', 'claude-peer-b', 'note', 'omp-omp-1', 'the build is green']);
  const stop = { type: 'session_stop' };
  const held = await pi.emit('session_stop', stop, ctx());
  assert.equal(held?.decision, 'block');
  assert.match(held.reason, /the build is green/);
  assert.equal(await pi.emit('session_stop', stop, ctx()), undefined, 'no news, no loop');

  tama(['peers', '--session', 'claude-peer-b', 'note', 'omp-omp-1', 'rebased on main']);
  assert.equal(await pi.emit('input', { type: 'input', text: 'carry on', source: 'interactive' }, ctx()), undefined);
  assert.match((await turnBegins()).message.content, /rebased on main/);
});

test('setup peers --remove takes the hooks out and the guard with them', async () => {
  tama(['setup', 'peers', '--remove']);
  assert.deepEqual(JSON.parse(readFileSync(join(home.adapterDir, 'peer-hooks.json'), 'utf8')), {});
  assert.equal(await writeInto(theirs), undefined);
  tama(['setup', 'peers']);
});

test('the session ends with oh-my-pi\'s: its registration goes', async () => {
  await pi.emit('session_shutdown', { type: 'session_shutdown' }, ctx());
  const live = JSON.parse(tama(['peers', '--session', 'claude-peer-b', 'list', '--json']));
  assert.ok(!JSON.stringify(live).includes('omp-omp-1'), JSON.stringify(live));
});
