#!/usr/bin/env bash
# Builds the oracle's template scratch directory in "$1": a repository whose
# every client-side hook that can refuse leaves a marker and refuses, a bare
# remote it pushes to, a branch to merge and one to rebase onto, a patch for
# `git am`, and a `git` first on PATH that records each call and hands it to
# the real git. With every hook refusing, any commit, merge, rebase, am or
# push that happens is one whose hooks did not run.
set -euo pipefail
root=$1
real_git=$2
mkdir -p "$root/bin" "$root/home" "$root/log"
export HOME="$root/home" GIT_CONFIG_NOSYSTEM=1
git=("$real_git" -c init.defaultBranch=main)

cat > "$root/bin/git" <<WRAPPER
#!/bin/bash
# Records the call (arguments, then the GIT_* and hook-manager environment)
# and hands it to the real git.
{
  printf 'git'; printf ' %q' "\$@"; printf '\n'
  env | grep -E '^(GIT_|HUSKY|SKIP|LEFTHOOK|PRE_COMMIT)' | sed 's/^/  env /' || true
} >> "$root/log/calls" 2>/dev/null
exec "$real_git" "\$@"
WRAPPER
chmod +x "$root/bin/git"

"${git[@]}" init -q --bare "$root/remote.git"
"${git[@]}" init -q "$root/repo"
cd "$root/repo"
"$real_git" config user.name Tester
"$real_git" config user.email tester@example.invalid
"$real_git" config commit.gpgsign false
"$real_git" config core.editor true
"$real_git" config advice.detachedHead false
"$real_git" remote add origin "$root/remote.git"
echo one > file.txt
"$real_git" add file.txt
"$real_git" commit -q -m one
"$real_git" push -q -u origin main
# `side` and `topic` diverge from main, so merging or rebasing does work.
"$real_git" checkout -q -b side
echo side > side.txt && "$real_git" add side.txt && "$real_git" commit -q -m side
"$real_git" checkout -q main
"$real_git" checkout -q -b topic
echo topic > topic.txt && "$real_git" add topic.txt && "$real_git" commit -q -m topic
"$real_git" format-patch -q -1 --stdout > "$root/fix.patch"
"$real_git" checkout -q main
echo main > main.txt && "$real_git" add main.txt && "$real_git" commit -q -m main
# An untracked file, so `git add` gives `git commit` work without
# blocking a merge or rebase.
echo new > new.txt

for hook in pre-commit commit-msg pre-merge-commit pre-push pre-rebase applypatch-msg pre-applypatch; do
  printf '#!/bin/sh\necho %s >> "%s/log/hooks"\necho "hook %s refuses" >&2\nexit 1\n' \
    "$hook" "$root" "$hook" > ".git/hooks/$hook"
  chmod +x ".git/hooks/$hook"
done
rm -f .git/hooks/*.sample
: > "$root/log/calls"
: > "$root/log/hooks"
