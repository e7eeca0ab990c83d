//! Environment variables with which hook managers skip hooks, and those
//! that change what a hook runs.

use shell_reader::field::UNKNOWN;
use shell_reader::loaders;

/// The hook manager that `name=value` switches off, if it does.
///
/// Known switches are matched by name; other names are matched by shape
/// (a hook word with a skip word, such as `SKIP_HOOKS` or `GIT_HOOKS_DISABLED`)
/// so that a home-grown hook script's switch is caught too. An unknown value
/// counts as set for switches that skip when set to anything, and as not
/// zero for those that skip when zero.
pub fn switched_off_by(name: &str, value: &str) -> Option<&'static str> {
    let set = !is_off(value);
    let zero = matches!(value, "0" | "false");
    let upper = name.to_ascii_uppercase();
    match upper.as_str() {
        "HUSKY" => return zero.then_some("husky's hooks"),
        "LEFTHOOK" => return zero.then_some("lefthook's hooks"),
        "HUSKY_SKIP_HOOKS" => return set.then_some("husky's hooks"),
        "SKIP" => return set.then_some("the pre-commit or overcommit hooks it names"),
        "PRE_COMMIT_ALLOW_NO_CONFIG" => return set.then_some("pre-commit's check for its config"),
        "LEFTHOOK_EXCLUDE" | "LEFTHOOK_SKIP" => {
            return set.then_some("the lefthook hooks it names");
        }
        "OVERCOMMIT_DISABLE" => return set.then_some("overcommit's hooks"),
        "SKIP_SIMPLE_GIT_HOOKS" => return set.then_some("simple-git-hooks"),
        "NO_VERIFY" | "GIT_NO_VERIFY" | "SKIP_VERIFY" => {
            return set.then_some("the hooks that read it");
        }
        "NPM_CONFIG_SCRIPT_SHELL" => {
            return (!is_shell(value)).then_some("the npm scripts its hooks run (`npm test`)");
        }
        _ => {}
    }
    let about_hooks = [
        "HOOK",
        "HUSKY",
        "PRE_COMMIT",
        "PRECOMMIT",
        "PRE_PUSH",
        "PREPUSH",
    ]
    .iter()
    .any(|word| upper.contains(word));
    let skips = ["SKIP", "DISABLE", "BYPASS", "EXCLUDE", "IGNORE", "NO_"]
        .iter()
        .any(|word| upper.contains(word));
    let unrelated = ["INSTALL", "SSL", "TLS", "CERT"]
        .iter()
        .any(|word| upper.contains(word));
    (about_hooks && skips && !unrelated && set).then_some("the hooks that read it")
}

/// What `name=value` changes about the programs a hook runs, if it does:
/// a hook finds its checks (`npx lint-staged`, `pre-commit`) on `PATH`, so
/// a folder put there may hold a no-op of the same name; bash reads
/// `BASH_ENV` before a hook written in bash, and runs an exported function
/// (`export -f npx`, `BASH_FUNC_npx%%`) in place of the program; the
/// dynamic loader, node's loading options and the interpreters' module
/// paths load code into the checks (a `pre_commit` module on
/// `PYTHONPATH`, `NODE_OPTIONS=--require …` exiting before lint-staged
/// runs); lefthook's hook runs `LEFTHOOK_BIN` in lefthook's place. A path
/// of nothing but values the gate cannot know (`PATH=$PATH`) or empty
/// names no folder of its own, and is let be.
pub fn changes_hook_programs(name: &str, value: &str) -> Option<&'static str> {
    let names_a_folder = || {
        value
            .split(':')
            .any(|folder| !folder.trim_matches(UNKNOWN).is_empty())
    };
    match name {
        "PATH" => names_a_folder().then_some("the programs its hooks find on `PATH`"),
        "BASH_ENV" => Some("what bash runs before a hook written in bash"),
        // `SHELLOPTS=noexec`: bash reads a hook and runs none of it.
        "SHELLOPTS" | "BASHOPTS" => Some("the options bash runs a hook written in bash with"),
        "LEFTHOOK_BIN" => Some("the program lefthook's hooks run in lefthook's place"),
        _ if loaders::LOADERS.contains(&name) => {
            Some("the code loaded into git and every program its hooks run")
        }
        _ if loaders::RUNTIME_OPTIONS.contains(&name) => {
            loaders::loading_option(value.split_whitespace())
                .map(|_| "the code node loads into the checks its hooks run")
        }
        _ if loaders::MODULE_PATHS.contains(&name) => {
            names_a_folder().then_some("the modules the checks its hooks run load")
        }
        _ if name.starts_with("BASH_FUNC_") => {
            Some("the program a hook written in bash runs by that name")
        }
        _ => None,
    }
}

/// Whether shell `text` sourced before a hook may end it early (`exit`,
/// `return`, `exec`) or stand in for what it runs (a function, an alias,
/// `PATH`, `enable`, a `trap`, more files sourced): read by its words, not
/// walked.
pub fn may_change_a_hook(text: &str) -> bool {
    const WORDS: &[&str] = &[
        "exit", "return", "exec", "function", "alias", "PATH", "enable", "trap", "source", ".",
        "eval", "set", "shopt", "cd",
    ];
    text.contains("()")
        || text
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
            .any(|word| WORDS.contains(&word))
}

/// Whether a setting's value reads as off, as hook managers, npm and aider
/// read it: `false`, `0`, `no`, `off` (in any case), or empty.
pub fn is_off(value: &str) -> bool {
    matches!(
        value.to_ascii_lowercase().as_str(),
        "" | "0" | "false" | "no" | "off"
    )
}

/// Whether npm's `script-shell` set to `value` still runs scripts: a shell
/// (`/bin/bash`), not a program that ignores them (`/bin/true`), which
/// would make every check a hook runs through npm pass.
pub fn is_shell(value: &str) -> bool {
    let program = value.trim().rsplit('/').next().unwrap_or_default();
    matches!(
        program,
        "sh" | "bash" | "dash" | "zsh" | "ksh" | "mksh" | "ash" | "fish" | "pwsh" | "cmd.exe"
    )
}
