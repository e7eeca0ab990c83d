//! Commits `git stash` writes. A stash is a commit made without the
//! pre-commit and commit-msg hooks; put on a branch (`git cherry-pick -m 1
//! stash@{0}`, `git merge stash`, `git reset --hard stash@{0}`), it commits
//! the stashed changes unchecked, as real git did.

use crate::field::Field;

/// What `git stash create` prints stands for in the gate: the stash commit
/// it wrote, named as the stash is.
pub const CREATED: &str = "stash";

/// Whether `text` names a stash's commit, or a commit reached from one:
/// `stash`, `refs/stash`, `stash@{1}`, `stash@{0}^2`, `stash~1`, and a
/// refspec's source (`+stash@{0}:main`), and a range's end (`main..stash^2`).
pub fn names_stash(text: &str) -> bool {
    let source = text.split(':').next().unwrap_or_default();
    let source = source.rsplit("..").next().unwrap_or_default();
    let source = source.strip_prefix('.').unwrap_or(source);
    let source = source.strip_prefix('+').unwrap_or(source);
    let name = source.strip_prefix("refs/").unwrap_or(source);
    name.strip_prefix("stash")
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(['@', '^', '~']))
}

/// Whether `git <subcommand> <args>` puts a stash's commit on a branch or
/// ref, or makes HEAD or a new commit of it. Reading one (`git show stash`),
/// restoring files from one (`git checkout stash@{0} -- f`) and `git stash`
/// itself pass.
pub fn lands(subcommand: &str, args: &[Field<'_>]) -> bool {
    let named = |arg: &Field<'_>| names_stash(&arg.text);
    let revisions = || args.iter().take_while(|arg| arg.text != "--");
    match subcommand {
        "cherry-pick" | "merge" | "rebase" | "revert" | "switch" | "pull" | "push" | "fetch"
        | "format-patch" | "replace" | "symbolic-ref" | "replay" => revisions().any(named),
        // A stash named last, with no paths after it, moves HEAD (or the
        // branch) to it; one followed by paths restores those files.
        "checkout" | "reset" => {
            let last_operand = revisions().filter(|arg| !arg.text.starts_with('-')).last();
            let paths_follow = args.iter().any(|arg| arg.text == "--")
                && args.last().is_some_and(|arg| arg.text != "--");
            !paths_follow && last_operand.is_some_and(named)
        }
        "branch" | "tag" => {
            let lists = args.iter().any(|arg| {
                matches!(
                    &*arg.text,
                    "-d" | "-D"
                        | "--delete"
                        | "-l"
                        | "--list"
                        | "--contains"
                        | "--no-contains"
                        | "--merged"
                        | "--no-merged"
                        | "--points-at"
                )
            });
            !lists && args.iter().any(named)
        }
        // `git update-ref <ref> <new value>`: the stash as the new value.
        "update-ref" => {
            let deletes = args.iter().any(|arg| arg.text == "-d");
            let mut operands = args.iter().filter(|arg| !arg.text.starts_with('-'));
            !deletes && operands.nth(1).is_some_and(named)
        }
        "worktree" => args.first().is_some_and(|arg| arg.text == "add") && args.iter().any(named),
        _ => false,
    }
}
