// Real oh-my-pi 18.2.3 (under bun 1.4.5) against the scripted model of
// tests/harness/model.mjs, which oh-my-pi reaches as an OpenAI Chat
// Completions endpoint on 127.0.0.1.

import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { builtTama } from '../built-tama.mjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TAMA = process.env.TAMA_UNDER_TEST || builtTama();
/** Where scripts/install-omp put oh-my-pi and bun (`$OMP_PACKAGES` overrides). */
export const OMP_PACKAGES = process.env.OMP_PACKAGES || join(ROOT, 'target', 'oh-my-pi');
const BIN = join(OMP_PACKAGES, 'node_modules', '.bin');

/** A turn of the scripted model (tests/harness/model.mjs) that calls the tool `name`. */
export const call = (name, input) => ({ call: { name, input } });
/** A turn of the scripted model that answers in prose. */
export const say = (text) => ({ text });

/** A scratch home with the scripted model declared and Tama set up by `tama setup omp` alone. */
export function ompHome(port) {
  const home = mkdtempSync(join(tmpdir(), 'tama-omp-journey-'));
  const agent = join(home, '.omp', 'agent');
  mkdirSync(agent, { recursive: true });
  writeFileSync(join(agent, 'models.yml'), [
    'providers:',
    '  scripted:',
    `    baseUrl: http://127.0.0.1:${port}/v1`,
    '    apiKey: scripted-key',
    '    api: openai-completions',
    '    models:',
    '      - id: scripted',
    '        name: Scripted model',
    '        reasoning: false',
    '        input: [text]',
    '        contextWindow: 128000',
    '        maxTokens: 4096',
    '',
  ].join('\n'));
  const env = environment(home);
  const setup = execFileSync(TAMA, ['setup', 'omp'], { env, encoding: 'utf8' });
  return { home, env, setup, remove: () => rmSync(home, { recursive: true, force: true }) };
}

function environment(home) {
  const env = { ...process.env, HOME: home, TAMA_HOME: join(home, '.tama'), OKO_HOME: join(home, '.oko'), PI_NO_TITLE: '1', OMP_SKIP_SETUP: '1', PATH: `${BIN}:${process.env.PATH}` };
  for (const name of ['TAMA_BIN', 'TAMA_REGISTRY', 'TAMA_AGENT_ID']) delete env[name];
  return env;
}

/** A scratch git repository with one staged file and no commit. */
export function scratchRepo(home) {
  const repo = join(home, 'repo');
  mkdirSync(repo);
  const git = (...args) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' });
  git('init', '-q');
  git('config', 'user.email', 'tama@example.invalid');
  git('config', 'user.name', 'Tama test');
  writeFileSync(join(repo, 'file.txt'), 'hello\n');
  git('add', 'file.txt');
  return { repo, git, commits: () => Number(git('rev-list', '--all', '--count').trim()) };
}

/** Runs `omp -p` once; resolves with its exit, stdout and stderr. */
export function runOmp({ env, cwd, prompt, timeoutMs = 120_000 }) {
  return new Promise((resolve) => {
    const child = spawn(join(BIN, 'omp'), ['-p', '--model', 'scripted/scripted', '--no-title', prompt], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => { stdout += c; });
    child.stderr.on('data', (c) => { stderr += c; });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Everything the model was sent in one request, as text. */
export const seen = (request) => JSON.stringify(request.messages ?? request.input ?? request);
