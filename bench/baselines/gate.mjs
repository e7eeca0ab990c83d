#!/usr/bin/env node
// Benchmark baseline: the --no-verify check as a Node hook.
// Refuses a shell tool call whose command holds --no-verify (exit 2).
import { readFileSync } from "node:fs";

const SHELL = new Set(["bash", "functions.bash", "exec_command", "functions.exec_command",
  "shell", "exec", "run_command", "run_package_script"]);

const payload = JSON.parse(readFileSync(0, "utf8"));
const name = String(payload.tool_name ?? "").toLowerCase();
let command = payload.tool_input?.command ?? "";
if (typeof command !== "string") command = JSON.stringify(command);

if (SHELL.has(name) && /--no-verify/.test(command)) {
  process.stderr.write("Refused: --no-verify skips the repository's git hooks.\n");
  process.exit(2);
}
