#!/usr/bin/env bash
# Benchmark baseline: the --no-verify check as a bash + jq + grep hook.
# Refuses a shell tool call whose command holds --no-verify (exit 2).
set -euo pipefail

payload=$(cat)
fields=$(jq -r '@sh "name=\(.tool_name // "") command=\(.tool_input.command // "" | tostring)"' <<<"$payload")
eval "$fields"

case "${name,,}" in
    bash | functions.bash | exec_command | functions.exec_command | shell | exec | run_command | run_package_script) ;;
    *) exit 0 ;;
esac

if grep -q -e '--no-verify' <<<"$command"; then
    echo "Refused: --no-verify skips the repository's git hooks." >&2
    exit 2
fi
