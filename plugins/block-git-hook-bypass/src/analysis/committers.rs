//! Programs that commit to the repository themselves with git's hooks
//! skipped unless told otherwise. aider commits every edit it makes (and
//! the dirty files before it, and on `/commit`) as `git commit
//! --no-verify` unless its `git-commit-verify` setting is on, and it is off
//! by default (aider's documentation, "Git integration").

use crate::prelude::*;

use super::run::basename;
use crate::field::Field;

/// What to start aider with instead, when `argv` starts aider (`aider`,
/// `python -m aider`, `uvx aider-chat`, `pipx run aider-chat`) so that it
/// commits past the hooks. `variable` reads the environment it runs with.
pub(super) fn unverified_aider(
    argv: &[Field<'_>],
    variable: impl Fn(&str) -> Option<String>,
) -> Option<&'static str> {
    let options = aider_options(argv)?;
    let last = |on: &str, off: &str| {
        options.iter().rev().find_map(|option| match &*option.text {
            text if text == on => Some(true),
            text if text == off => Some(false),
            _ => None,
        })
    };
    // aider reads `AIDER_<SETTING>` as it reads the option.
    let setting = |name: &str| {
        variable(name).map(|value| {
            matches!(
                value.to_ascii_lowercase().as_str(),
                "1" | "true" | "yes" | "on"
            )
        })
    };
    let only_asks = options
        .iter()
        .any(|option| matches!(&*option.text, "--help" | "-h" | "--version"));
    let uses_git = last("--git", "--no-git")
        .or_else(|| setting("AIDER_GIT"))
        .unwrap_or(true);
    let verifies = last("--git-commit-verify", "--no-git-commit-verify")
        .or_else(|| setting("AIDER_GIT_COMMIT_VERIFY"))
        .unwrap_or(false);
    (uses_git && !verifies && !only_asks)
        .then_some("Start it with `--git-commit-verify`, so its commits run the hooks")
}

/// The arguments aider gets, when `argv` starts it.
fn aider_options<'a>(argv: &'a [Field<'a>]) -> Option<&'a [Field<'a>]> {
    let (program, args) = argv.split_first()?;
    let program = basename(&program.text);
    if program == "aider" {
        return Some(args);
    }
    let is_aider = |field: &Field<'_>| {
        let package = field.text.split(['=', '@', '[']).next().unwrap_or_default();
        matches!(package, "aider" | "aider-chat" | "aider.main")
    };
    if program.starts_with("python") {
        // Python runs a module only after `-m`: `python -m aider`.
        let at = args.windows(2).position(|pair| match pair {
            [option, module] => option.text == "-m" && is_aider(module),
            _ => false,
        })?;
        return args.get(at + 2..);
    }
    if !matches!(program, "uvx" | "uv" | "pipx") {
        return None;
    }
    let at = args.iter().position(is_aider)?;
    args.get(at + 1..)
}
