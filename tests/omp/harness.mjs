// Real oh-my-pi 18.2.3 (under bun 1.4.5) against a scripted model on
// 127.0.0.1: an OpenAI Chat Completions endpoint that streams the answers a
// test scripts and keeps every request it was sent.

import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TAMA = process.env.TAMA_UNDER_TEST || join(ROOT, 'target', 'release', 'tama');
/** Where scripts/install-omp put oh-my-pi and bun (`$OMP_PACKAGES` overrides). */
export const OMP_PACKAGES = process.env.OMP_PACKAGES || join(ROOT, 'target', 'oh-my-pi');
const BIN = join(OMP_PACKAGES, 'node_modules', '.bin');

/** A tool call the model makes. */
export const call = (name, args) => ({ toolCalls: [{ name, arguments: args }] });
/** A plain answer. */
export const say = (text) => ({ text });

/**
 * The scripted model. `script(request, index)` returns the answer to the
 * index-th request (`call(...)` or `say(...)`), and may act first.
 */
export async function scriptedModel(script) {
  const requests = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => { body += chunk; });
    req.on('end', async () => {
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [{ id: 'scripted-model', object: 'model' }] }));
        return;
      }
      let request;
      try {
        request = JSON.parse(body);
      } catch {
        res.writeHead(400).end();
        return;
      }
      requests.push(request);
      const answer = (await script(request, requests.length - 1)) ?? say('done');
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const chunk of chunks(answer, requests.length)) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: server.address().port, requests, close: () => new Promise((resolve) => server.close(resolve)) };
}

function chunks(answer, n) {
  const base = { id: `chatcmpl-${n}`, object: 'chat.completion.chunk', created: 0, model: 'scripted-model' };
  const choice = (delta, finish = null) => ({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  if (answer.toolCalls) {
    return [
      choice({ role: 'assistant', content: null, tool_calls: answer.toolCalls.map((c, i) => ({ index: i, id: `call_${n}_${i}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } })) }),
      choice({}, 'tool_calls'),
      { ...base, choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } },
    ];
  }
  return [choice({ role: 'assistant', content: answer.text }), choice({}, 'stop'), { ...base, choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } }];
}

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
    '      - id: scripted-model',
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
    const child = spawn(join(BIN, 'omp'), ['-p', '--model', 'scripted/scripted-model', '--no-title', prompt], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
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
