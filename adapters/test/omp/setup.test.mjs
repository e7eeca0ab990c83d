// `tama setup omp` installs the shell, the adapter and the engine link,
// keeps everything else, writes nothing the second time, and `--remove`
// takes out only what it installed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, TAMA } from './support.mjs';

const setup = (home, ...args) => execFileSync(TAMA, ['setup', 'omp', ...args], { env: { ...process.env, HOME: home }, encoding: 'utf8' });

test('setup omp installs the source files, keeps other files, and is idempotent', (t) => {
  const home = mkdtempSync(join(tmpdir(), 'tama-omp-setup-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  const extensions = join(home, '.omp', 'agent', 'extensions');
  const omp = join(home, '.shared-hooks', 'omp');
  mkdirSync(extensions, { recursive: true });
  writeFileSync(join(extensions, 'mine.ts'), 'export default () => {};\n');
  const engine = join(home, '.shared-hooks', 'hooks-runtime', 'current', 'bin', 'tama');
  mkdirSync(join(engine, '..'), { recursive: true });
  writeFileSync(engine, '#!/bin/sh\nexit 0\n');

  const first = setup(home);
  for (const name of ['adapter.js', 'engine-client.mjs', 'hook-events.mjs', 'installed-contract.mjs', 'provider-request.mjs', 'session-control.mjs']) {
    assert.ok(readFileSync(join(omp, name)).equals(readFileSync(join(ROOT, 'adapters', 'omp', name))), `${name} is the source's`);
    assert.match(first, new RegExp(`^wrote ${join(omp, name).replaceAll('.', '\\.')}$`, 'm'));
  }
  assert.ok(readFileSync(join(extensions, 'omp-shared-hooks.js')).equals(readFileSync(join(ROOT, 'adapters', 'omp', 'omp-shared-hooks.js'))));
  assert.equal(readlinkSync(engine), realpathSync(TAMA), 'the engine slot now runs this tama');
  assert.equal(readFileSync(join(extensions, 'mine.ts'), 'utf8'), 'export default () => {};\n');

  const again = setup(home);
  assert.doesNotMatch(again, /^wrote /m);
  assert.match(again, /nothing changed$/m);

  writeFileSync(join(omp, 'adapter.js'), '// edited by hand\n');
  assert.match(setup(home), new RegExp(`^wrote ${join(omp, 'adapter.js').replaceAll('.', '\\.')}$`, 'm'));

  writeFileSync(join(omp, `adapter.${'c'.repeat(64)}.js`), '// a digest copy the shell made\n');
  writeFileSync(join(omp, 'notes.txt'), 'mine\n');
  const removed = setup(home, '--remove');
  assert.match(removed, /^removed .*omp-shared-hooks\.js$/m);
  assert.match(removed, /^kept .*bin\/tama: /m);
  assert.ok(!existsSync(join(extensions, 'omp-shared-hooks.js')));
  assert.ok(!existsSync(join(omp, 'adapter.js')) && !existsSync(join(omp, `adapter.${'c'.repeat(64)}.js`)));
  assert.ok(existsSync(join(extensions, 'mine.ts')) && existsSync(join(omp, 'notes.txt')) && existsSync(engine));
  assert.match(setup(home, '--remove'), /no Tama oh-my-pi extension was installed; nothing changed/);
});

test('setup omp --remove leaves an extension of the same name that is not Tama', (t) => {
  const home = mkdtempSync(join(tmpdir(), 'tama-omp-setup-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  const shell = join(home, '.omp', 'agent', 'extensions', 'omp-shared-hooks.js');
  mkdirSync(join(shell, '..'), { recursive: true });
  writeFileSync(shell, 'export default () => {};\n');
  assert.match(setup(home, '--remove'), /^kept .*omp-shared-hooks\.js: not Tama's extension$/m);
  assert.ok(existsSync(shell));
});
