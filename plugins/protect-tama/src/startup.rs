//! Shell start-up files: what is written there runs in every later shell,
//! and a harness started from such a shell inherits its variables. A
//! `TAMA_REGISTRY` or `TAMA_HOME` set there, or a `tama` put first on
//! `PATH`, would change Tama's policy in the sessions that follow. Codex
//! runs each hook in a login shell (`$SHELL -lc`), which reads them first.

use crate::prelude::*;

/// Start-up files by name, wherever they are.
const FILES: &[&str] = &[
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".profile",
    ".zshrc",
    ".zshenv",
    ".zprofile",
    ".zlogin",
    ".pam_environment",
    ".envrc",
    "config.fish",
    "bash.bashrc",
];

/// Start-up files by path: every file in these folders, and these files.
const PATHS: &[&str] = &[
    "/etc/profile",
    "/etc/profile.d/",
    "/etc/environment",
    "/etc/zsh/",
    "/.ssh/environment",
    "/.config/environment.d/",
    "/.config/fish/",
];

/// Whether `path`, resolved, is a shell start-up file.
pub fn is_startup_file(path: &str) -> bool {
    // Every one is a dot-file, in a dot-folder or under `/etc`.
    if !path.contains("/.") && !path.starts_with("/etc/") && !path.starts_with('.') {
        return false;
    }
    let name = path.rsplit('/').next().unwrap_or(path);
    FILES.contains(&name) || PATHS.iter().any(|known| path.contains(known))
}

/// Whether `text` names Tama once quotes and backslashes are taken out and
/// case is ignored: `TAMA_REGISTRY`, `TA""MA_HOME`, a `tama` on `PATH`.
pub fn names_tama(text: &str) -> bool {
    let letters: String = text
        .chars()
        .filter(|c| !matches!(c, '\'' | '"' | '\\'))
        .flat_map(char::to_lowercase)
        .collect();
    letters.contains("tama")
}

/// The command in start-up `text` that would end or take over a shell
/// reading it (`exit`, `exec`, `logout`, `kill $$`): a hook Codex runs in
/// a login shell would then end, having said nothing, before Tama decides,
/// and Codex runs the tool.
pub fn ends_shell(text: &str) -> Option<&str> {
    const KEYWORDS: &[&str] = &["then", "do", "else", "elif", "if", "while", "until", "!"];
    text.split(['\n', ';', '&', '|', '(', ')', '{', '}', '`'])
        .find(|command| {
            let mut words = command
                .split_whitespace()
                .skip_while(|word| KEYWORDS.contains(word));
            match words.next() {
                Some("exit" | "logout" | "exec" | "suspend") => true,
                Some("kill") => words.any(|word| word.contains("$$") || word == "0"),
                _ => false,
            }
        })
        .map(str::trim)
}

/// The refusal of `command`, which [`ends_shell`] found, written to `path`.
pub fn ends_shell_refusal(path: &str, command: &str) -> String {
    format!(
        "the tool call writes `{command}` into `{path}`, a shell start-up file: Codex runs each hook in a login shell that reads it, so every hook, Tama's included, would end before deciding and let every tool call through"
    )
}
