// A stand-in agent process, as Claude Code and Codex are: it runs every
// command it is sent as its own child, the way a harness runs its hooks and
// its agent's shell commands. Its own arguments (e.g. `-p`) are only there
// to be seen on its command line. One JSON request a line on stdin,
// {"argv": [...], "stdin": "..."}; one JSON answer a line on stdout.
import { spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';

for await (const line of createInterface({ input: process.stdin })) {
  const { argv, stdin } = JSON.parse(line);
  const out = spawnSync(argv[0], argv.slice(1), { input: stdin ?? '', maxBuffer: 1 << 26 });
  const answer = { code: out.status ?? -1, stdout: String(out.stdout ?? ''), stderr: String(out.stderr ?? '') };
  process.stdout.write(JSON.stringify(answer) + '\n');
}
