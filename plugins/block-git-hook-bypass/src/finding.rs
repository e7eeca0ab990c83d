//! What the gate found, and the refusal reason that names it.

use crate::prelude::*;

use core::fmt;

const GATE: &str = "block-git-hook-bypass";

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finding {
    /// A git option that turns hooks off, such as `git commit -n`.
    SkipOption {
        /// `git commit`, `git push`, …
        command: String,
        /// The word as the command wrote it: `--no-verify`, `--no-veri`, `-anm`.
        written: String,
        /// The option git reads it as: `--no-verify`, `--no-post-rewrite`.
        canonical: &'static str,
        hooks: &'static str,
    },
    /// A word where git reads its options that the gate cannot read before
    /// the shell expands it (`git commit $FLAGS`, `git commit *`).
    UnreadOption {
        command: String,
        word: String,
        hooks: &'static str,
    },
    /// core.hooksPath set for one command or for good.
    HooksPath { setting: String },
    /// core.hooksPath removed, which sends git back to `.git/hooks`.
    HooksPathRemoved { setting: String },
    /// Configuration read from a file the gate cannot see, which may set
    /// core.hooksPath.
    ConfigInclude { setting: String },
    /// A hook manager's switch in the environment of a git command.
    HookVariable {
        assignment: String,
        manager: &'static str,
        command: String,
    },
    /// A change to the programs hooks run (`PATH`, `BASH_ENV`, an exported
    /// function) in the environment of a git command.
    HookPrograms {
        assignment: String,
        changed: &'static str,
        command: String,
    },
    /// A command that deletes, moves, empties or disarms hook files.
    HookFiles {
        command: String,
        effect: &'static str,
    },
    /// A command that deletes, moves away, replaces, empties or rewrites
    /// one of git's configuration files, where core.hooksPath may be set.
    ConfigFiles {
        command: String,
        effect: &'static str,
    },
    /// A hook-running git command given another configuration than the one
    /// in use (`HOME=/tmp`, `GIT_CONFIG_GLOBAL=/dev/null`, `env -i`).
    ConfigSwapped { change: String, command: String },
    /// A hook-running git command pointed at another repository folder
    /// (`GIT_COMMON_DIR`, `GIT_DIR`, `--git-dir`), where git looks for hooks.
    RepositorySwapped { change: String, command: String },
    /// A hook manager told to take its hooks out.
    Uninstall { command: String },
    /// A program that commits on its own with the hooks skipped: aider
    /// unless told otherwise, a release tool asked to.
    CommitsUnverified {
        command: String,
        /// What the command does, as a verb phrase: `has npm commit the
        /// version bump with --no-commit-hooks`.
        how: String,
        fix: &'static str,
    },
    /// Code for another interpreter that runs git with a hook-skipping option.
    Embedded {
        program: String,
        option: &'static str,
    },
    /// Git's plumbing that writes commits (`commit-tree`, `fast-import`)
    /// or pushes (`send-pack`, `http-push`) without running hooks.
    Plumbing { subcommand: &'static str },
    /// History rewritten with its files or messages changed by a filter or
    /// callback (`git filter-branch --tree-filter`, `git filter-repo
    /// --blob-callback`), into commits no hook checked.
    Rewrite { command: String },
    /// A git command that puts a commit `git stash` wrote, without hooks,
    /// on a branch or ref (`git cherry-pick -m 1 stash@{0}`).
    StashCommit { command: String },
    /// A git or shell alias whose definition holds a bypass.
    InAlias { alias: String, inner: Box<Finding> },
    /// Code for another interpreter (`python -c`) that runs a bypass.
    InCode { code: String, inner: Box<Finding> },
    /// A bypass once the values the gate cannot know are read as empty.
    WithUnknownEmpty(Box<Finding>),
    /// A script on disk the command runs, which the gate could not read.
    ScriptUnread { path: String, why: String },
    /// Commands a shell reads from a file the gate could not read: a named
    /// pipe, whose text a writer sends later (`bash < pipe`, `cat pipe | sh`).
    InputUnread { path: String, why: String },
    /// The command is not readable shell (`syntax`), or goes past the
    /// gate's limits. Text that may not be shell at all (a string in
    /// python code, a pager setting) is let be only for the first.
    Unreadable { problem: String, syntax: bool },
}

impl Finding {
    /// A branch or tag set by writing git's files (`echo <commit> >
    /// ../remote.git/refs/heads/main`).
    pub fn branch_written(command: String) -> Self {
        Self::CommitsUnverified {
            command,
            how: "sets a branch or tag by writing git's own files, as a push into that \
                  repository would, past the hooks"
                .to_owned(),
            fix: "Move branches with git (`git push`, `git merge`), which runs the hooks",
        }
    }

    /// This finding as what `code` runs (`InCode`).
    pub fn in_code(self, code: String) -> Finding {
        Finding::InCode {
            code,
            inner: Box::new(self),
        }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::SkipOption {
                command,
                written,
                canonical,
                hooks,
            } => {
                write!(f, "`{command} {written}`")?;
                if written != canonical {
                    if written.starts_with("--") {
                        write!(f, " (git reads it as {canonical})")?;
                    } else {
                        write!(f, " (its -n is {canonical})")?;
                    }
                }
                let option = if written.starts_with("--") {
                    written.as_str()
                } else {
                    "-n"
                };
                write!(
                    f,
                    " skips the repository's {hooks} ({GATE}). Run `{command}` without \
                     {option} and fix what the hooks report."
                )
            }
            Self::HooksPath { setting } => write!(
                f,
                "`{setting}` sets core.hooksPath, so git looks for hooks elsewhere and skips \
                 the repository's client-side hooks ({GATE}). Leave core.hooksPath as the \
                 repository configured it and fix what the hooks report."
            ),
            Self::HooksPathRemoved { setting } => write!(
                f,
                "`{setting}` removes core.hooksPath, so git looks for hooks in .git/hooks \
                 instead of where the repository installed them (husky's .husky/_, a \
                 .githooks folder) and skips those ({GATE}). Leave core.hooksPath as the \
                 repository configured it and fix what the hooks report."
            ),
            Self::ConfigInclude { setting } => write!(
                f,
                "`{setting}` makes git read configuration from a file {GATE} cannot see, which \
                 can set core.hooksPath and skip the repository's client-side hooks ({GATE}). \
                 Give the settings you need on the command line with `git -c` instead."
            ),
            Self::HookVariable {
                assignment,
                manager,
                command,
            } => write!(
                f,
                "`{assignment}` turns off {manager} for `{command}`, which skips the \
                 repository's client-side git hooks ({GATE}). Run `{command}` without \
                 {assignment} and fix what the hooks report."
            ),
            Self::HookPrograms {
                assignment,
                changed,
                command,
            } => write!(
                f,
                "`{assignment}` before `{command}` changes {changed}, so its hooks may run \
                 something else than the repository's checks ({GATE}). Run `{command}` in a \
                 call of its own, without {assignment}."
            ),
            Self::HookFiles { command, effect } => write!(
                f,
                "`{command}` {effect} the repository's client-side git hooks, so commits and \
                 pushes skip them ({GATE}). Leave the hooks in place and fix what they report."
            ),
            Self::ConfigFiles { command, effect } => write!(
                f,
                "`{command}` {effect} git's configuration file, which may set core.hooksPath to \
                 where the repository's hooks are installed (husky's .husky/_, a .githooks \
                 folder); without it, commits and pushes skip them ({GATE}). Change one \
                 setting at a time with `git config <key> <value>` and leave core.hooksPath \
                 as it is."
            ),
            Self::ConfigSwapped { change, command } => write!(
                f,
                "`{change}` has `{command}` read another git configuration than the one in \
                 use, which may set core.hooksPath to where the hooks are installed; without \
                 it, the command skips them ({GATE}). Run `{command}` without `{change}` and \
                 fix what the hooks report."
            ),
            Self::RepositorySwapped { change, command } => write!(
                f,
                "`{change}` has `{command}` look for the repository's hooks and configuration \
                 in another folder; one that shares the repository's objects and refs but holds \
                 no hooks commits to the repository past them ({GATE}). Run `{command}` in the \
                 repository (`git -C <folder>`) without `{change}` and fix what the hooks report."
            ),
            Self::Uninstall { command } => write!(
                f,
                "`{command}` removes the repository's client-side git hooks, so commits and \
                 pushes skip them ({GATE}). Keep the hooks installed and fix what they report."
            ),
            Self::CommitsUnverified { command, how, fix } => write!(
                f,
                "`{command}` {how}, which skips the repository's client-side git hooks \
                 ({GATE}). {fix}."
            ),
            Self::Embedded { program, option } => write!(
                f,
                "`{program}` runs git with {option}, which skips the repository's client-side \
                 git hooks ({GATE}). Run git without {option} and fix what the hooks report."
            ),
            Self::Plumbing { subcommand } => {
                let (does, hooks, instead) = match *subcommand {
                    "send-pack" | "http-push" => ("pushes", "pre-push hook", "git push"),
                    "fast-import" | "quiltimport" => (
                        "writes commits",
                        "pre-commit and commit-msg hooks",
                        "git commit",
                    ),
                    _ => (
                        "writes a commit",
                        "pre-commit and commit-msg hooks",
                        "git commit",
                    ),
                };
                write!(
                    f,
                    "`git {subcommand}` {does} without running the repository's {hooks} \
                     ({GATE}). Use `{instead}` and fix what the hooks report."
                )
            }
            Self::Rewrite { command } => write!(
                f,
                "`{command}` rewrites commits with changed files or messages without running \
                 the repository's pre-commit and commit-msg hooks ({GATE}). Make the change \
                 with `git commit` (or `git commit --amend` in `git rebase -i`) and fix what the \
                 hooks report."
            ),
            Self::UnreadOption {
                command,
                word,
                hooks,
            } => write!(
                f,
                "`{command}` is handed `{word}` where git reads its options, and {GATE} cannot \
                 tell what the shell expands it to (a variable, a command's output or a file \
                 name pattern): it may be --no-verify, which skips the repository's {hooks} \
                 ({GATE}). Write git's options out, and put paths after `--`."
            ),
            Self::StashCommit { command } => write!(
                f,
                "`{command}` puts a commit that `git stash` wrote, without running the \
                 repository's pre-commit and commit-msg hooks, on a branch ({GATE}). Apply the \
                 stash with `git stash pop` and commit with `git commit`, fixing what the hooks \
                 report."
            ),
            Self::InAlias { alias, inner } => write!(f, "The alias `{alias}` hides this: {inner}"),
            Self::InCode { code, inner } => write!(f, "{code} runs this command: {inner}"),
            Self::WithUnknownEmpty(inner) => write!(
                f,
                "Read with its unset variables empty, as the shell expands them, and the \
                 output the gate cannot predict empty too, the command hides a bypass: {inner}"
            ),
            Self::ScriptUnread { path, why } => write!(
                f,
                "The command runs the script `{path}`, which {GATE} could not read ({why}), \
                 so it cannot tell whether the script skips the repository's git hooks. Run \
                 the script's commands one by one instead."
            ),
            Self::InputUnread { path, why } => write!(
                f,
                "The command runs commands it reads from `{path}`, which {GATE} could not \
                 read ({why}), so it cannot tell whether they skip the repository's git hooks. \
                 Run those commands as a tool call of their own."
            ),
            Self::Unreadable { problem, syntax } => write!(
                f,
                "The command could not be read as shell ({problem}), so {GATE} cannot tell \
                 whether it skips the repository's git hooks. {}",
                if *syntax {
                    "Fix the command's syntax and run it again."
                } else {
                    "Split it into smaller commands and run them one at a time."
                }
            ),
        }
    }
}
