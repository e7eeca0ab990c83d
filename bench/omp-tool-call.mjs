// A tool_call through Tama's oh-my-pi extension (shell, adapter, engine)
// against a direct `dispatch` round trip to the same engine over its pipes,
// measured in one run: `node bench/omp-tool-call.mjs [calls]`.
// Both run the default registry's block-git-hook-bypass gate on `ls -la`.

import { spawn } from 'node:child_process';
import { context, loadShell, scratchHome, shutdown } from '../adapters/test/omp/support.mjs';
import { installedEngine } from '../adapters/omp/engine-client.mjs';

const calls = Number(process.argv[2] ?? 2000);
const payload = { session_id: 'bench', tool_name: 'bash', tool_input: { command: 'ls -la' } };

const summary = (label, ms) => {
  ms.sort((a, b) => a - b);
  const at = (q) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))];
  return { label, median: at(0.5), p99: at(0.99) };
};

async function direct() {
  const engine = spawn(installedEngine(), ['run-hook', '--serve', 'omp'], { stdio: ['pipe', 'pipe', 'inherit'] });
  let buffered = '';
  let waiting = null;
  engine.stdout.setEncoding('utf8');
  engine.stdout.on('data', (chunk) => {
    buffered += chunk;
    let end;
    while ((end = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      const frame = JSON.parse(line);
      if ('id' in frame) waiting?.(frame);
    }
  });
  const roundTrip = (id) => new Promise((resolve) => {
    waiting = resolve;
    engine.stdin.write(`${JSON.stringify({ id, op: 'dispatch', event: 'pre_tool_use', payload })}\n`);
  });
  const ms = [];
  for (let i = 0; i < calls + 200; i += 1) {
    const start = process.hrtime.bigint();
    const answer = await roundTrip(`d${i}`);
    if (answer.result?.decision !== 'allow') throw new Error(`the direct dispatch did not pass: ${JSON.stringify(answer)}`);
    if (i >= 200) ms.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  engine.stdin.end();
  return summary('direct dispatch round trip', ms);
}

async function throughAdapter(pi) {
  const ctx = context('bench');
  const event = { type: 'tool_call', toolName: 'bash', toolCallId: 'c', input: payload.tool_input };
  const ms = [];
  for (let i = 0; i < calls + 200; i += 1) {
    const start = process.hrtime.bigint();
    const answer = await pi.emit('tool_call', event, ctx);
    if (answer !== undefined) throw new Error(`the tool call did not pass: ${JSON.stringify(answer)}`);
    if (i >= 200) ms.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return summary('tool_call through the oh-my-pi extension', ms);
}

const home = scratchHome();
const { pi } = await loadShell(home.shellPath);
await pi.emit('session_start', { type: 'session_start' }, context('bench'));
// Interleaved halves, so a change in machine load falls on both.
const first = [await direct(), await throughAdapter(pi)];
const second = [await direct(), await throughAdapter(pi)];
await shutdown(pi);
home.remove();
for (const [a, b] of [first, second]) {
  console.log(`${a.label}: median ${a.median.toFixed(3)} ms, p99 ${a.p99.toFixed(3)} ms`);
  console.log(`${b.label}: median ${b.median.toFixed(3)} ms, p99 ${b.p99.toFixed(3)} ms (median ${(b.median / a.median).toFixed(2)}x the direct round trip)`);
}
