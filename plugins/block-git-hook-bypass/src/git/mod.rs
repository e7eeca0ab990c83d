//! git's command line: the options before the subcommand, and the options of
//! the subcommands that can turn hooks off.

use crate::prelude::*;

pub mod config;
mod options;
mod parse_options;
pub mod stash;

use crate::field::{Field, Knowledge, UNKNOWN};
use parse_options::{Arg, GitOption, find_short, resolve_long};

/// Subcommands that pass through client-side hooks on their way to a commit,
/// push, merge, rebase or applied patch.
pub fn runs_hooks(subcommand: &str) -> bool {
    matches!(
        subcommand,
        "commit" | "push" | "merge" | "rebase" | "am" | "pull" | "cherry-pick" | "revert"
    )
}

/// git's own commands (`git help -a`, git 2.47), in byte order. Any other
/// subcommand is an alias or an add-on such as commitizen's `git cz`.
const COMMANDS: &[&str] = &[
    "add",
    "am",
    "annotate",
    "apply",
    "archimport",
    "archive",
    "attributes",
    "bisect",
    "blame",
    "branch",
    "bugreport",
    "bundle",
    "cat-file",
    "check-attr",
    "check-ignore",
    "check-mailmap",
    "check-ref-format",
    "checkout",
    "checkout-index",
    "cherry",
    "cherry-pick",
    "citool",
    "clean",
    "cli",
    "clone",
    "column",
    "commit",
    "commit-graph",
    "commit-tree",
    "config",
    "count-objects",
    "credential",
    "credential-cache",
    "credential-store",
    "cvsexportcommit",
    "cvsimport",
    "cvsserver",
    "daemon",
    "describe",
    "diagnose",
    "diff",
    "diff-files",
    "diff-index",
    "diff-tree",
    "difftool",
    "fast-export",
    "fast-import",
    "fetch",
    "fetch-pack",
    "filter-branch",
    "fmt-merge-msg",
    "for-each-ref",
    "for-each-repo",
    "format-bundle",
    "format-chunk",
    "format-commit-graph",
    "format-index",
    "format-pack",
    "format-patch",
    "format-signature",
    "fsck",
    "gc",
    "get-tar-commit-id",
    "gitk",
    "gitweb",
    "grep",
    "gui",
    "hash-object",
    "help",
    "hook",
    "hooks",
    "http-backend",
    "ignore",
    "imap-send",
    "index-pack",
    "init",
    "instaweb",
    "interpret-trailers",
    "log",
    "ls-files",
    "ls-remote",
    "ls-tree",
    "mailinfo",
    "mailmap",
    "mailsplit",
    "maintenance",
    "merge",
    "merge-base",
    "merge-file",
    "merge-index",
    "merge-one-file",
    "merge-tree",
    "mergetool",
    "mktag",
    "mktree",
    "modules",
    "multi-pack-index",
    "mv",
    "name-rev",
    "notes",
    "p4",
    "pack-objects",
    "pack-redundant",
    "pack-refs",
    "patch-id",
    "protocol-capabilities",
    "protocol-common",
    "protocol-http",
    "protocol-pack",
    "protocol-v2",
    "prune",
    "prune-packed",
    "pull",
    "push",
    "quiltimport",
    "range-diff",
    "read-tree",
    "rebase",
    "reflog",
    "refs",
    "remote",
    "repack",
    "replace",
    "replay",
    "repository-layout",
    "request-pull",
    "rerere",
    "reset",
    "restore",
    "rev-list",
    "rev-parse",
    "revert",
    "revisions",
    "rm",
    "scalar",
    "send-email",
    "send-pack",
    "sh-i18n",
    "sh-setup",
    "shortlog",
    "show",
    "show-branch",
    "show-index",
    "show-ref",
    "sparse-checkout",
    "stash",
    "status",
    "stripspace",
    "submodule",
    "svn",
    "switch",
    "symbolic-ref",
    "tag",
    "unpack-file",
    "unpack-objects",
    "update-index",
    "update-ref",
    "update-server-info",
    "var",
    "verify-commit",
    "verify-pack",
    "verify-tag",
    "version",
    "whatchanged",
    "worktree",
    "write-tree",
];

pub fn is_git_command(subcommand: &str) -> bool {
    COMMANDS.binary_search(&subcommand).is_ok()
}

/// The hooks `--no-verify` skips for a subcommand.
pub fn verified_hooks(subcommand: &str) -> &'static str {
    match subcommand {
        "commit" => "pre-commit and commit-msg hooks",
        "push" => "pre-push hook",
        "merge" | "pull" => "pre-merge-commit and commit-msg hooks",
        "rebase" => "pre-rebase hook",
        "am" => "pre-applypatch and applypatch-msg hooks",
        _ => "client-side hooks",
    }
}

/// A configuration given on git's command line.
pub enum ConfigArg<'f> {
    /// `-c key=value`.
    Value(&'f Field<'f>),
    /// `--config-env key=VARIABLE`.
    FromEnvironment(&'f Field<'f>),
}

/// The options before the subcommand.
pub struct GlobalOptions<'f> {
    pub config: Vec<ConfigArg<'f>>,
    /// `--git-dir` naming another folder than `.git`, as written: the
    /// repository's folder, where git also looks for its hooks.
    pub git_dir: Option<String>,
    /// Where the subcommand stands in the arguments, if anywhere.
    pub subcommand: Option<usize>,
}

/// Reads git's own options (`git [options] <subcommand> …`), which git
/// matches exactly, never by prefix.
pub fn global_options<'f>(args: &'f [Field<'f>]) -> GlobalOptions<'f> {
    let mut config = Vec::new();
    let mut git_dir = None;
    let mut index = 0;
    while let Some(field) = args.get(index) {
        let text = &*field.text;
        let next = args.get(index + 1);
        match text {
            "-c" | "--config-env" => {
                if let Some(next) = next {
                    config.push(if text == "-c" {
                        ConfigArg::Value(next)
                    } else {
                        ConfigArg::FromEnvironment(next)
                    });
                }
                index += 2;
            }
            "--git-dir" => {
                let folder = next.map_or("", |next| &*next.text);
                if !is_dot_git(folder) {
                    git_dir = Some(format!("--git-dir {folder}"));
                }
                index += 2;
            }
            "-C" | "--work-tree" | "--namespace" | "--super-prefix" | "--attr-source" => index += 2,
            _ if text.starts_with("--git-dir=") => {
                if !is_dot_git(&text["--git-dir=".len()..]) {
                    git_dir = Some(text.to_owned());
                }
                index += 1;
            }
            _ if text.starts_with("--config-env=") => {
                config.push(ConfigArg::FromEnvironment(field));
                index += 1;
            }
            _ if text.starts_with('-') || field.exact().is_none() => index += 1,
            _ => {
                return GlobalOptions {
                    config,
                    git_dir,
                    subcommand: Some(index),
                };
            }
        }
    }
    GlobalOptions {
        config,
        git_dir,
        subcommand: None,
    }
}

/// Whether a repository folder named on git's command line or in
/// `GIT_DIR` is the one in the working folder, `.git`.
pub fn is_dot_git(folder: &str) -> bool {
    matches!(folder.trim_end_matches('/'), ".git" | "./.git")
}

/// What a subcommand's options do to hooks, last option winning as in git.
#[derive(Debug, Default)]
pub struct HookOptions {
    /// The word that turns `--no-verify` on, as written.
    pub no_verify: Option<String>,
    /// The word that turns `--no-post-rewrite` on, as written.
    pub no_post_rewrite: Option<String>,
    /// Shell commands `git rebase --exec` runs.
    pub exec: Vec<String>,
    /// A word where git reads options that the gate cannot read before the
    /// shell expands it (`$(cat flags)`, `*`, which may match a file the
    /// agent named `--no-verify`). A variable the command never set is the
    /// harness's environment, not the agent's choice, and is let be.
    pub unread: Option<String>,
}

fn table(subcommand: &str) -> Option<&'static [GitOption]> {
    Some(match subcommand {
        "commit" => options::COMMIT,
        "push" => options::PUSH,
        "merge" => options::MERGE,
        "rebase" => options::REBASE,
        "am" => options::AM,
        "pull" => options::PULL,
        _ => return None,
    })
}

/// Reads a subcommand's arguments as git's parse-options would.
pub fn hook_options(subcommand: &str, args: &[Field<'_>]) -> HookOptions {
    let mut found = HookOptions::default();
    let Some(table) = table(subcommand) else {
        // cherry-pick and revert reject --no-verify; the word is still an
        // attempt to skip the hooks their commits run.
        let options = args.iter().take_while(|arg| arg.text != "--");
        if runs_hooks(subcommand) && options.clone().any(|arg| arg.text == "--no-verify") {
            found.no_verify = Some("--no-verify".to_owned());
        }
        return found;
    };
    let mut index = 0;
    while let Some(field) = args.get(index) {
        index += 1;
        let text = &*field.text;
        if text == "--" || text == "--end-of-options" {
            break;
        }
        // Where the shell may put a word git reads as an option.
        let unread = |text: &str| {
            text.starts_with(['*', '?', '['])
                || ["@(", "!(", "+("].iter().any(|glob| text.starts_with(glob))
                || (text.starts_with(UNKNOWN) && field.knowledge() == Knowledge::Computed)
        };
        if unread(text) {
            found.unread.get_or_insert_with(|| field.shown());
            continue;
        }
        if let Some(long) = text.strip_prefix("--") {
            let name = long.split_once('=').map_or(long, |(name, _)| name);
            if name.char_indices().any(|(at, _)| unread(&name[at..])) {
                found.unread.get_or_insert_with(|| field.shown());
                continue;
            }
            let Some(resolved) = resolve_long(table, long) else {
                continue;
            };
            if resolved.has_value && (resolved.option.arg == Arg::No || resolved.negated) {
                continue; // git rejects a value for a flag
            }
            let value = if resolved.has_value {
                long.split_once('=').map(|(_, value)| value.to_owned())
            } else if resolved.option.arg == Arg::Req && !resolved.negated {
                index += 1;
                args.get(index - 1).map(|field| field.text.to_string())
            } else {
                None
            };
            found.apply(resolved.option, resolved.negated, text, value);
        } else if let Some(cluster) = text.strip_prefix('-') {
            for (at, short) in cluster.bytes().enumerate() {
                let Some(option) = find_short(table, short) else {
                    if cluster.get(at..).is_some_and(unread) {
                        found.unread.get_or_insert_with(|| field.shown());
                    }
                    break;
                };
                let attached = cluster.get(at + 1..).unwrap_or("");
                let value = match option.arg {
                    Arg::No => None,
                    Arg::Opt => Some(attached.to_owned()),
                    Arg::Req if !attached.is_empty() => Some(attached.to_owned()),
                    Arg::Req => {
                        index += 1;
                        args.get(index - 1).map(|field| field.text.to_string())
                    }
                };
                let takes_rest = option.arg != Arg::No;
                found.apply(option, false, text, value);
                if takes_rest {
                    break;
                }
            }
        }
    }
    if subcommand != "rebase" {
        found.exec.clear();
    }
    found
}

impl HookOptions {
    fn apply(&mut self, option: &GitOption, negated: bool, written: &str, value: Option<String>) {
        let written = || Some(written.to_owned());
        match (option.long, negated) {
            ("no-verify", false) | ("verify", true) => self.no_verify = written(),
            ("no-verify", true) | ("verify", false) => self.no_verify = None,
            ("no-post-rewrite", false) => self.no_post_rewrite = written(),
            ("no-post-rewrite", true) => self.no_post_rewrite = None,
            ("exec", false) => self.exec.extend(value),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;
