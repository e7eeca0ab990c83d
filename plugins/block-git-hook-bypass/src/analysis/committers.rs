//! Programs that make commits themselves, and how a command has them skip
//! the repository's hooks: aider commits every edit (and the dirty files
//! before it, and on `/commit`) as `git commit --no-verify` unless its
//! `git-commit-verify` setting is on, and it is off by default (aider's
//! documentation, "Git integration"); the release tools commit a version
//! bump with the hooks off when asked (`npm version --no-commit-hooks`,
//! `lerna version --no-commit-hooks`, `standard-version --no-verify`,
//! release-it's `--git.commitArgs`, bump-my-version's `--commit-args`), as
//! do commitizen and Graphite (`gt`) given `--no-verify`. Jujutsu (`jj`)
//! writes commits and pushes without any git hook, and `gh api` or `glab
//! api` write commits and branches on the server past the pre-push hook.

use crate::prelude::*;

use super::run::basename;
use crate::field::Field;
use crate::hook_env::{is_off, is_shell};

/// How `argv` has a program commit past the hooks, and what to run instead.
pub(super) struct Unverified {
    pub how: String,
    pub fix: &'static str,
}

/// How `argv` (a command's words, program first) has a program commit
/// past the hooks, if it does. `variable` reads the environment it runs with.
pub(super) fn unverified(
    argv: &[Field<'_>],
    variable: impl Fn(&str) -> Option<String>,
) -> Option<Unverified> {
    let (program, args) = argv.split_first()?;
    let program = basename(&program.text);
    let words: Vec<&str> = args.iter().map(|arg| &*arg.text).collect();
    if let Some(options) = aider_options(program, &words) {
        return aider(options, &variable);
    }
    let asked = |option: &str, tool: &str, fix| {
        Some(Unverified {
            how: format!("has {tool} with `{option}`"),
            fix,
        })
    };
    const NPM_FIX: &str = "Run `npm version` with its commit hooks on, as they are by default";
    match program {
        "npm" | "pnpm" if subcommand(&words) == Some("version") => {
            let off = words
                .iter()
                .find(|word| matches!(**word, "--no-commit-hooks" | "--commit-hooks=false"));
            if let Some(option) = off {
                return asked(option, "npm commit the version bump", NPM_FIX);
            }
            let set = ["npm_config_commit_hooks", "NPM_CONFIG_COMMIT_HOOKS"]
                .iter()
                .find_map(|name| Some((*name, variable(name)?)))
                .filter(|(_, value)| is_off(value))?;
            asked(
                &format!("{}={}", set.0, set.1),
                "npm commit the version bump",
                NPM_FIX,
            )
        }
        "npm" | "pnpm" if subcommand(&words) == Some("config") => {
            let turns_off = words.windows(2).any(|pair| match pair {
                [key, value] => key.trim_start_matches("--") == "commit-hooks" && is_off(value),
                _ => false,
            }) || words
                .iter()
                .any(|word| matches!(*word, "commit-hooks=false" | "--commit-hooks=false"));
            let script_shell = words.windows(2).find_map(|pair| match pair {
                [key, value] if key.trim_start_matches("--") == "script-shell" => Some(*value),
                _ => None,
            });
            let script_shell = script_shell.or_else(|| {
                words
                    .iter()
                    .find_map(|word| word.trim_start_matches("--").strip_prefix("script-shell="))
            });
            if words.contains(&"set") && script_shell.is_some_and(|value| !is_shell(value)) {
                return Some(Unverified {
                    how: "sets npm's `script-shell` to a program that is no shell, so every npm \
                          script the hooks run (`npm test`) does nothing"
                        .to_owned(),
                    fix: "Leave npm's `script-shell` a shell",
                });
            }
            (words.contains(&"set") && turns_off).then(|| Unverified {
                how: "turns npm's `commit-hooks` off, so every later `npm version` commits its version bump with them off".to_owned(),
                fix: "Leave npm's `commit-hooks` on",
            })
        }
        "lerna" if matches!(subcommand(&words), Some("version" | "publish")) => {
            let option = words
                .iter()
                .find(|word| matches!(**word, "--no-commit-hooks" | "--commit-hooks=false"))?;
            asked(
                option,
                "lerna commit the version bump",
                "Run it without `--no-commit-hooks`",
            )
        }
        "standard-version" | "commit-and-tag-version" => {
            let option = words
                .iter()
                .find(|word| matches!(**word, "--no-verify" | "-n"))?;
            asked(
                option,
                "it commit the release",
                "Run it without `--no-verify`",
            )
        }
        "release-it" => {
            let option = git_args_option(&words, &["--git.commitArgs", "--git.pushArgs"])?;
            asked(
                option,
                "release-it commit or push",
                "Run it without `--no-verify` among git's arguments",
            )
        }
        "bump-my-version" | "bump2version" | "bumpversion" => {
            let option = git_args_option(&words, &["--commit-args"])?;
            asked(
                option,
                "it commit the version bump",
                "Run it without `--no-verify` among git's arguments",
            )
        }
        "gt" => {
            let option = words.iter().find(|word| **word == "--no-verify")?;
            asked(
                option,
                "Graphite commit or push",
                "Run it without `--no-verify`",
            )
        }
        "jj" => {
            let command = jujutsu_writes(&words)?;
            Some(Unverified {
                how: format!(
                    "has Jujutsu, which runs no git hooks, write or publish commits (`jj {command}`)"
                ),
                fix: "Commit and push with git, which runs the hooks",
            })
        }
        "gh" | "glab" => {
            let endpoint = api_write(&words)?;
            Some(Unverified {
                how: format!(
                    "writes to the repository on the server through its API (`{endpoint}`) rather than by a push"
                ),
                fix: "Commit with git and push with `git push`, which run the hooks",
            })
        }
        "cz" | "git-cz" | "czg" => {
            let after_dashes = words.iter().skip_while(|word| **word != "--");
            let option = words
                .iter()
                .find(|word| **word == "--no-verify")
                .or_else(|| after_dashes.into_iter().find(|word| **word == "-n"))?;
            asked(option, "commitizen commit", "Run it without `--no-verify`")
        }
        _ => None,
    }
}

/// aider, given `options`, commits with the hooks skipped unless told to
/// run them or to leave git alone.
fn aider(options: &[&str], variable: &impl Fn(&str) -> Option<String>) -> Option<Unverified> {
    let last = |on: &str, off: &str| {
        options.iter().rev().find_map(|option| match *option {
            text if text == on => Some(true),
            text if text == off => Some(false),
            _ => None,
        })
    };
    // aider reads `AIDER_<SETTING>` as it reads the option.
    let setting = |name: &str| variable(name).map(|value| !is_off(&value));
    let only_asks = options
        .iter()
        .any(|option| matches!(*option, "--help" | "-h" | "--version"));
    let uses_git = last("--git", "--no-git")
        .or_else(|| setting("AIDER_GIT"))
        .unwrap_or(true);
    let verifies = last("--git-commit-verify", "--no-git-commit-verify")
        .or_else(|| setting("AIDER_GIT_COMMIT_VERIFY"))
        .unwrap_or(false);
    (uses_git && !verifies && !only_asks).then(|| Unverified {
        how: "starts aider, which commits each edit with `git commit --no-verify` unless given `--git-commit-verify`".to_owned(),
        fix: "Start it with `--git-commit-verify`, so its commits run the hooks",
    })
}

/// The arguments aider gets, when `program words…` starts it (`aider`,
/// `python -m aider`, `uvx aider-chat`, `pipx run aider-chat`).
fn aider_options<'a>(program: &str, words: &'a [&'a str]) -> Option<&'a [&'a str]> {
    if program == "aider" {
        return Some(words);
    }
    let is_aider = |word: &&str| {
        let package = word.split(['=', '@', '[']).next().unwrap_or_default();
        matches!(package, "aider" | "aider-chat" | "aider.main")
    };
    if program.starts_with("python") {
        // Python runs a module only after `-m`: `python -m aider`.
        let at = words.windows(2).position(|pair| match pair {
            [option, module] => *option == "-m" && is_aider(module),
            _ => false,
        })?;
        return words.get(at + 2..);
    }
    if !matches!(program, "uvx" | "uv" | "pipx") {
        return None;
    }
    let at = words.iter().position(is_aider)?;
    words.get(at + 1..)
}

/// The Jujutsu command among `words` that writes a commit's files or
/// message, moves a branch git sees, or pushes: Jujutsu runs no git hooks
/// (its documentation, "Git compatibility"). Reading commands pass, and so
/// do those that move commits as they are (`rebase`, `duplicate`), as
/// `git rebase` runs no pre-commit hook either.
fn jujutsu_writes(words: &[&str]) -> Option<String> {
    const VALUED: &[&str] = &[
        "-R",
        "--repository",
        "--at-op",
        "--at-operation",
        "--config",
        "--config-file",
        "--color",
    ];
    let mut operands = Vec::new();
    let mut index = 0;
    while let Some(word) = words.get(index) {
        index += if VALUED.contains(word) { 2 } else { 1 };
        if !word.starts_with('-') {
            operands.push(*word);
        }
    }
    let shown = |count: usize| {
        Some(
            operands
                .iter()
                .take(count)
                .copied()
                .collect::<Vec<_>>()
                .join(" "),
        )
    };
    match operands.as_slice() {
        [
            "commit" | "ci" | "describe" | "desc" | "new" | "squash" | "split" | "absorb" | "amend"
            | "unsquash" | "fix" | "diffedit" | "restore" | "resolve",
            ..,
        ] => shown(1),
        ["git", "push" | "export", ..] => shown(2),
        [
            "bookmark" | "b" | "branch",
            "create" | "c" | "set" | "s" | "move" | "m",
            ..,
        ] => shown(2),
        _ => None,
    }
}

/// The endpoint `gh api` or `glab api` writes commits, files or branches
/// through (`repos/o/r/contents/f`, `repos/o/r/git/refs/…`, a GraphQL
/// `createCommitOnBranch`), if it does: a method other than GET, given or
/// implied by fields.
fn api_write(words: &[&str]) -> Option<String> {
    if words.first() != Some(&"api") {
        return None;
    }
    let method = words
        .windows(2)
        .find_map(|pair| match pair {
            [option, method] if matches!(*option, "-X" | "--method") => {
                Some(method.to_ascii_uppercase())
            }
            _ => None,
        })
        .or_else(|| {
            words
                .iter()
                .find_map(|word| word.strip_prefix("--method=").map(str::to_ascii_uppercase))
        });
    let has_fields = words.iter().any(|word| {
        matches!(*word, "-f" | "-F" | "--field" | "--raw-field" | "--input")
            || word.starts_with("--field=")
            || word.starts_with("--raw-field=")
    });
    let writes = method.map_or(has_fields, |method| method != "GET");
    const VALUED: &[&str] = &[
        "-X",
        "--method",
        "-f",
        "-F",
        "--field",
        "--raw-field",
        "-H",
        "--header",
        "--input",
        "-q",
        "--jq",
        "-t",
        "--template",
        "--hostname",
        "--cache",
        "-p",
        "--preview",
    ];
    let mut rest = words.iter().skip(1);
    let endpoint = loop {
        let word = rest.next()?;
        if VALUED.contains(word) {
            rest.next();
        } else if !word.starts_with('-') {
            break word;
        }
    };
    let lowered = words.join(" ").to_ascii_lowercase();
    let changes_code = [
        "/contents/",
        "/git/commits",
        "/git/refs",
        "/git/trees",
        "/git/blobs",
        "/git/tags",
        "/merges",
        "/repository/commits",
        "/repository/files/",
        "/repository/branches",
    ]
    .iter()
    .any(|path| endpoint.contains(path))
        || (endpoint.trim_start_matches('/') == "graphql"
            && lowered.contains("createcommitonbranch"));
    (writes && changes_code).then(|| format!("api {endpoint}"))
}

/// The first word that is not an option: npm's or lerna's subcommand.
fn subcommand<'a>(words: &[&'a str]) -> Option<&'a str> {
    words.iter().copied().find(|word| !word.starts_with('-'))
}

/// An option among `names` whose value (`--git.commitArgs=--no-verify`, or
/// the word after it) holds `--no-verify` or `-n` for git.
fn git_args_option<'a>(words: &[&'a str], names: &[&str]) -> Option<&'a str> {
    let skips = |value: &str| {
        value
            .split(|c: char| {
                c.is_whitespace() || c == ',' || c == '[' || c == ']' || c == '"' || c == '\''
            })
            .any(|word| matches!(word, "--no-verify" | "-n"))
    };
    words.iter().enumerate().find_map(|(at, word)| {
        let name = names.iter().find(|name| word.starts_with(*name))?;
        let value = match word.get(name.len()..)? {
            "" => words.get(at + 1).copied().unwrap_or_default(),
            rest => rest.trim_start_matches('='),
        };
        skips(value).then_some(*word)
    })
}
