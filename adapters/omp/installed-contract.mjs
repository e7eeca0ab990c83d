// Every model request carries the contracts installed most recently.
// oh-my-pi appends ~/.omp/agent/APPEND_SYSTEM.md to a session's system prompt
// once, when the session starts; the marked block in that file is read again
// for each request and put in place of the marked block the request carries.

import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const START = '<!-- jeden contracts: start -->';
const END = '<!-- jeden contracts: end -->';
const BLOCK = /<!-- jeden contracts: start -->[\s\S]*?<!-- jeden contracts: end -->/g;

/** `~/.omp/agent/APPEND_SYSTEM.md`. */
export function appendSystemPath(env = process.env) {
  return join(env.HOME || homedir(), '.omp', 'agent', 'APPEND_SYSTEM.md');
}

/** The marked block of the installed file: a string, `null` when there is none, or `{ unreadable }`. */
export function installedBlock(path) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null;
    return { unreadable: error.message };
  }
  const start = text.indexOf(START);
  const end = start < 0 ? -1 : text.indexOf(END, start);
  return end < 0 ? null : text.slice(start, end + END.length);
}

/**
 * `payload` with every marked block replaced by the installed one; the
 * payload itself when the file or the payload has no block. An unreadable
 * file leaves the session's own copy and says so on stderr.
 */
export function withInstalledContracts(payload, { path = appendSystemPath(), warn = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const block = installedBlock(path);
  if (block === null) return payload;
  if (typeof block === 'object') {
    warn(`Tama cannot read the installed contracts ${path}: ${block.unreadable}; this model request keeps the contracts its session started with`);
    return payload;
  }
  return replaceIn(payload, block);
}

/** Copies only the parts of `value` that change. */
function replaceIn(value, block) {
  if (typeof value === 'string') {
    return value.includes(START) ? value.replace(BLOCK, () => block) : value;
  }
  if (Array.isArray(value)) {
    let copy = null;
    value.forEach((item, i) => {
      const next = replaceIn(item, block);
      if (next !== item) (copy ??= value.slice())[i] = next;
    });
    return copy ?? value;
  }
  if (value && typeof value === 'object') {
    let copy = null;
    for (const [key, item] of Object.entries(value)) {
      const next = replaceIn(item, block);
      if (next !== item) (copy ??= { ...value })[key] = next;
    }
    return copy ?? value;
  }
  return value;
}
