// Peer sessions on oh-my-pi. oh-my-pi has no hook config, so `tama setup
// peers` writes the peer hooks, in Claude Code's form, into
// `~/.shared-hooks/omp/peer-hooks.json`; this module runs the ones for each
// event, as Claude Code would run them, and hands their answers back. With
// no such file (peers not set up) it runs nothing. A peer hook never breaks
// the session: one that fails, times out or answers nonsense is ignored,
// as `tama peer-hook` itself ignores its own failures.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** oh-my-pi's events, by the hook config's event names. */
export const EVENTS = { SessionStart: 'session_start', UserPromptSubmit: 'input', PreToolUse: 'tool_call', Stop: 'session_stop', SessionEnd: 'session_shutdown' };

/** `~/.shared-hooks/omp/peer-hooks.json`, under `$HOME`. */
export function peerHooksPath(env = process.env) {
  return join(env.HOME || homedir(), '.shared-hooks', 'omp', 'peer-hooks.json');
}

/** The command handlers for `event` (a hook config event name) and `tool`, read afresh so `tama setup peers` takes effect at once. */
export function handlers(event, tool, path = peerHooksPath()) {
  let config;
  try {
    config = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return [];
  }
  const groups = Array.isArray(config?.hooks?.[event]) ? config.hooks[event] : [];
  return groups
    .filter((group) => matches(group?.matcher, tool))
    .flatMap((group) => (Array.isArray(group?.hooks) ? group.hooks : []))
    .filter((hook) => hook?.type === 'command' && typeof hook.command === 'string' && hook.async !== true);
}

/** Claude Code's matcher: none or `*` matches every tool, else a regular expression over the whole name. */
function matches(matcher, tool) {
  if (matcher === undefined || matcher === '' || matcher === '*') return true;
  if (typeof matcher !== 'string' || tool === undefined) return false;
  try {
    return new RegExp(`^(?:${matcher})$`).test(tool);
  } catch {
    return false;
  }
}

/** Runs one handler with `payload` on stdin; resolves with its parsed stdout, or `null`. */
function run(hook, payload) {
  const seconds = Number(hook.timeout) > 0 ? Number(hook.timeout) : 10;
  return new Promise((resolve) => {
    let stdout = '';
    const child = spawn('/bin/sh', ['-c', hook.command], { stdio: ['pipe', 'pipe', 'ignore'], timeout: seconds * 1000 });
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.on('error', () => resolve(null));
    child.on('close', (code) => {
      if (code !== 0) return resolve(null);
      try {
        resolve(stdout.trim() ? JSON.parse(stdout) : null);
      } catch {
        resolve(null);
      }
    });
    child.stdin.on('error', () => {});
    child.stdin.end(JSON.stringify(payload));
  });
}

/**
 * Runs the peer hooks of `event` on `payload` (the Claude-shaped payload the
 * adapter builds); resolves with what they ask for: `context` to give the
 * model, a `deny` reason for a tool call, a `block` reason for a turn end.
 */
export async function runPeerHooks(event, payload, path = peerHooksPath()) {
  const answer = { context: [], deny: null, block: null };
  for (const hook of handlers(event, payload?.tool_name, path)) {
    const out = await run(hook, payload);
    const specific = out?.hookSpecificOutput;
    if (typeof specific?.additionalContext === 'string' && specific.additionalContext) answer.context.push(specific.additionalContext);
    if (specific?.permissionDecision === 'deny' && typeof specific.permissionDecisionReason === 'string') answer.deny ??= specific.permissionDecisionReason;
    if (out?.decision === 'block' && typeof out.reason === 'string' && out.reason) answer.block ??= out.reason;
  }
  return answer;
}
