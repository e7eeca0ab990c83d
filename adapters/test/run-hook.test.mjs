// run-hook.mjs is a transport: what goes in and out of it is what goes in and
// out of the engine, and an engine that cannot start is never a pass.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TRANSPORT = fileURLToPath(new URL('../run-hook.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'tama-run-hook-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Writes a fake engine: a shell script with `body`. */
function engine(name, body, mode = 0o755) {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, mode);
  return path;
}

/** Runs the transport; resolves with its exit and everything it wrote. */
function run(bin, args = [], { input = Buffer.alloc(0), script = TRANSPORT, onStdout, env: extra = {} } = {}) {
  const env = { ...process.env, ...extra };
  if (bin === undefined) delete env.TAMA_BIN; else env.TAMA_BIN = bin;
  const child = spawn(process.execPath, [script, ...args], { env });
  const stdout = [];
  const stderr = [];
  child.stdout.on('data', (chunk) => { stdout.push(chunk); onStdout?.(child, chunk); });
  child.stderr.on('data', (chunk) => stderr.push(chunk));
  child.stdin.on('error', () => {});
  child.stdin.end(input);
  return new Promise((resolve) => child.on('close', (code, signal) =>
    resolve({ code, signal, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr) })));
}

test('stdin reaches the engine byte for byte, and its stdout and stderr come back the same', async () => {
  const input = Buffer.concat([randomBytes(1 << 20), Buffer.from([0, 0xff, 0x0a])]);
  const seen = join(dir, 'stdin.bin');
  const bin = engine('echo-engine', `cat > '${seen}'; cat '${seen}'; cat '${seen}' >&2`);
  const result = await run(bin, ['pre_tool_use', 'claude'], { input });
  assert.equal(result.code, 0);
  assert.ok(readFileSync(seen).equals(input));
  assert.ok(result.stdout.equals(input));
  assert.ok(result.stderr.equals(input));
});

test('the arguments pass through after run-hook', async () => {
  const bin = engine('argv-engine', `printf '%s\\n' "$@"`);
  const result = await run(bin, ['pre_tool_use', 'agent one', '--x']);
  assert.equal(result.stdout.toString(), 'run-hook\npre_tool_use\nagent one\n--x\n');
});

for (const status of [0, 2, 1]) {
  test(`exit status ${status} passes through`, async () => {
    const bin = engine(`exit-${status}`, `echo refused >&2; exit ${status}`);
    const result = await run(bin, ['stop', 'claude']);
    assert.equal(result.code, status);
    assert.equal(result.stderr.toString(), 'refused\n');
  });
}

test('the engine is found beside the script when TAMA_BIN is not set', async () => {
  const root = mkdtempSync(join(dir, 'root-'));
  mkdirSync(join(root, 'hooks-runtime', 'current', 'bin'), { recursive: true });
  const script = join(root, 'run-hook.mjs');
  copyFileSync(TRANSPORT, script);
  writeFileSync(join(root, 'hooks-runtime', 'current', 'bin', 'tama'), '#!/bin/sh\necho "installed $*"\n', { mode: 0o755 });
  const result = await run(undefined, ['stop', 'codex'], { script });
  assert.equal(result.code, 0);
  assert.equal(result.stdout.toString(), 'installed run-hook stop codex\n');
});

const reasonOf = (path) => new RegExp(`^TAMA_HOOK_INFRASTRUCTURE: cannot start the Tama engine ${path}: .*E(NOENT|ACCES)`);

for (const [what, bin] of [
  ['a missing engine', () => join(dir, 'no-such-engine')],
  ['an engine that is not executable', () => engine('not-executable', 'exit 0', 0o644)],
]) {
  test(`${what} is Claude Code's block, never a pass`, async () => {
    const path = bin();
    const result = await run(path, ['pre_tool_use', 'claude'], { input: Buffer.from('{}') });
    assert.equal(result.code, 2);
    const lines = result.stderr.toString().split('\n');
    assert.equal(lines.length, 2, result.stderr.toString());
    assert.match(lines[0], reasonOf(path));
    assert.deepEqual(JSON.parse(result.stdout.toString()), { decision: 'block', reason: lines[0] });
  });

  test(`${what} is Codex's block, exit 0 and its block JSON, never exit 1`, async () => {
    const path = bin();
    for (const [args, env, form] of [
      [['--provider', 'codex', 'PreToolUse', 'codex'], {}, 'decision'],
      [['--provider=codex', 'stop', 'codex'], {}, 'decision'],
      [['SessionStart', 'codex'], { TAMA_PROVIDER: 'codex' }, 'continue'],
      [['--provider', 'codex', 'PermissionRequest', 'codex'], {}, 'permission'],
    ]) {
      const result = await run(path, args, { input: Buffer.from('{}'), env });
      assert.equal(result.code, 0, args.join(' '));
      assert.equal(result.stderr.length, 0);
      const text = result.stdout.toString();
      assert.ok(text.endsWith('}\n'), text);
      const answer = JSON.parse(text);
      const reason = form === 'decision' ? answer.reason : form === 'continue' ? answer.stopReason : answer.hookSpecificOutput.decision.message;
      assert.match(reason, reasonOf(path));
      if (form === 'decision') assert.equal(answer.decision, 'block');
      if (form === 'continue') assert.equal(answer.continue, false);
      if (form === 'permission') assert.equal(answer.hookSpecificOutput.decision.behavior, 'deny');
    }
  });
}

test('an engine killed by SIGTERM ends the transport by SIGTERM', async () => {
  const bin = engine('self-kill', 'kill -TERM $$');
  const result = await run(bin, ['stop', 'claude']);
  assert.ok(result.signal === 'SIGTERM' || result.code === 143, JSON.stringify(result));
});

test('SIGTERM sent to the transport reaches the engine', async () => {
  const marker = join(dir, 'got-term');
  const bin = engine('trap-term', `trap 'echo term > "${marker}"; exit 143' TERM\necho ready\nwhile :; do sleep 0.05; done`);
  const result = await run(bin, ['stop', 'claude'], {
    onStdout: (child, chunk) => chunk.toString().includes('ready') && child.kill('SIGTERM'),
  });
  assert.equal(readFileSync(marker, 'utf8'), 'term\n');
  assert.equal(result.code, 143);
  assert.equal(result.stdout.toString(), 'ready\n');
});
