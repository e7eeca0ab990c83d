// Real oh-my-pi 18.2.3 with Tama installed by `tama setup omp` alone, against
// a scripted model: what a user of oh-my-pi sees Tama do.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startModel } from '../harness/model.mjs';
import { call, ompHome, runOmp, say, scratchRepo, seen } from './harness.mjs';

const sha256 = (path) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Runs one prompt in a fresh home and repository; `script` answers the model's requests. */
async function journey(prompt, script, prepare = () => {}) {
  const model = await startModel((request, index) => script(request, index, context));
  const home = ompHome(model.port);
  const repo = scratchRepo(home.home);
  const context = { home, repo };
  prepare(context);
  try {
    const run = await runOmp({ env: home.env, cwd: repo.repo, prompt });
    return { ...context, run, requests: model.requests.map((r) => r.body) };
  } finally {
    await model.close();
  }
}

test('a --no-verify commit does not happen and the model reads the gate reason', async (t) => {
  const { run, requests, repo, home } = await journey('commit the staged file', (_, i) => (i === 0 ? call('bash', { command: 'git commit --no-verify -m x' }) : say('I could not commit.')));
  t.after(home.remove);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(repo.commits(), 0);
  assert.equal(requests.length, 2);
  assert.match(seen(requests[1]), /block-git-hook-bypass: `git commit --no-verify` skips the repository's pre-commit and commit-msg hooks/);
  assert.equal(requests[0].tool_choice, 'required', 'before the first answer of block-text-outside-tool-calls');
  assert.equal(requests[1].tool_choice, undefined, 'the gate passed: no Oko work is open');
});

const START = '<!-- jeden contracts: start -->';
const END = '<!-- jeden contracts: end -->';

test('a plain commit lands exactly once, and each request carries the contracts installed last', async (t) => {
  const contracts = (home, n) => writeFileSync(join(home.home, '.omp', 'agent', 'APPEND_SYSTEM.md'), `${START}\nContract version ${n}.\n${END}\n`);
  const { run, requests, repo, home } = await journey('commit the staged file', (_, i, { home }) => {
    if (i === 0) {
      contracts(home, 2);
      return call('bash', { command: 'git commit -m x' });
    }
    return say('Committed.');
  }, ({ home }) => contracts(home, 1));
  t.after(home.remove);
  assert.match(JSON.stringify(requests[0]), /Contract version 1\./);
  assert.match(JSON.stringify(requests[1]), /Contract version 2\./);
  assert.doesNotMatch(JSON.stringify(requests[1]), /Contract version 1\./);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(repo.commits(), 1);
  assert.equal(repo.git('log', '--format=%s').trim(), 'x');
  assert.equal(requests.length, 2);
  assert.doesNotMatch(seen(requests[1]), /block-git-hook-bypass/);
});

test('a refused session_stop makes the agent take another turn with the reason', async (t) => {
  const work = (status) => JSON.stringify({ handedOut: [{ id: 'T-7', title: 'port the parser', executor: 'codex-2', status }] });
  const { run, requests, home } = await journey('report', (_, i, { home }) => {
    if (i === 1) writeFileSync(join(home.home, '.oko', 'agents', 'omp', 'work.json'), work('done'));
    return say(i === 0 ? 'All done.' : 'Now the work is reviewed.');
  }, ({ home }) => {
    const agent = join(home.home, '.oko', 'agents', 'omp');
    mkdirSync(agent, { recursive: true });
    writeFileSync(join(agent, 'role.json'), '{"role":"supervisor"}');
    writeFileSync(join(agent, 'work.json'), work('open'));
  });
  t.after(home.remove);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(requests.length, 2, 'one more turn after the refusal, none after the pass');
  assert.match(seen(requests[1]), /block-supervisor-stop: .*T-7/);
});

test('the slash command reloads the hook runtime and names both processes', async (t) => {
  const { run, requests, home } = await journey('/tama_reload_hook_runtime', () => say('unexpected'));
  t.after(home.remove);
  assert.equal(requests.length, 0, 'a slash command asks no model');
  assert.match(run.stdout + run.stderr, /Tama reloaded its hook runtime: the engine found the registry unchanged \(release tama-[^,]+, generation 1; oh-my-pi process \d+, session [^;]+; Tama engine process \d+\)/);
});

test('under bun inside oh-my-pi, the reload tool adopts a changed adapter in place and refuses a broken one', async (t) => {
  let first;
  let second;
  const { run, requests, home } = await journey('reload and commit', (_, i, { home }) => {
    const adapter = join(home.home, '.shared-hooks', 'omp', 'adapter.js');
    if (i === 0) {
      first = sha256(adapter);
      appendFileSync(adapter, '\n// A newer adapter.\n');
      second = sha256(adapter);
      return call('tama_reload_hook_runtime', {});
    }
    if (i === 1) {
      writeFileSync(adapter, 'export default function activate() { throw new Error("this adapter is broken"); }\n');
      return call('tama_reload_hook_runtime', {});
    }
    if (i === 2) return call('bash', { command: 'git commit --no-verify -m x' });
    return say('done');
  });
  t.after(home.remove);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(requests.length, 4);
  assert.match(seen(requests[1]), new RegExp(`Loaded the installed OMP adapter ${second} in place of ${first}\\\\n.*Tama reloaded its hook runtime`));
  assert.match(seen(requests[2]), /Tama could not reload its OMP adapter: this adapter is broken/);
  assert.match(seen(requests[3]), /block-git-hook-bypass: `git commit --no-verify`/, 'the adopted adapter keeps running');
});
