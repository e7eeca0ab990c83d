#!/usr/bin/env python3
"""Benchmark baseline: the --no-verify check as a Python hook.
Refuses a shell tool call whose command holds --no-verify (exit 2)."""
import json
import re
import sys

SHELL = {"bash", "functions.bash", "exec_command", "functions.exec_command",
         "shell", "exec", "run_command", "run_package_script"}

payload = json.load(sys.stdin)
name = str(payload.get("tool_name") or "").lower()
command = (payload.get("tool_input") or {}).get("command") or ""
if not isinstance(command, str):
    command = json.dumps(command)

if name in SHELL and re.search(r"--no-verify", command):
    print("Refused: --no-verify skips the repository's git hooks.", file=sys.stderr)
    sys.exit(2)
