//! Shell start-up files: what is written there runs in every later shell,
//! and a harness started from such a shell inherits its variables. A
//! `TAMA_REGISTRY` or `TAMA_HOME` set there, a `tama` put first on `PATH`,
//! or a harness's configuration moved away from its hooks, would change
//! Tama's policy in the sessions that follow.

use crate::prelude::*;

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
    shell_reader::startup::is_startup_name(path) || PATHS.iter().any(|known| path.contains(known))
}

/// Whether `text`, once quotes and backslashes are taken out and case is
/// ignored, names Tama (`TAMA_REGISTRY`, `TA""MA_HOME`, a `tama` on `PATH`)
/// or a switch that starts a harness without Tama's hooks
/// (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`, `alias claude='claude --bare'`).
pub fn affects_tama(text: &str) -> bool {
    let letters = letters(text);
    names_tama(&letters) || crate::harnesses::names_off_switch(&letters)
}

/// Whether lower-cased `text` holds `tama` as a word or a word's start
/// before `_` or `-` (`tama`, `TAMA_HOME`, `tama-dev`), not inside another
/// word (`Tamara`, `tamagotchi`, `catamaran`).
fn names_tama(text: &str) -> bool {
    text.match_indices("tama").any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + 4..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphabetic)
    })
}

/// `text` lower-cased, with quotes and backslashes taken out, as a shell
/// joins `TA""MA` or `t\ama` into one word.
pub fn letters(text: &str) -> String {
    text.chars()
        .filter(|c| !matches!(c, '\'' | '"' | '\\'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether `path`, resolved, is bun's configuration (`bunfig.toml` in a
/// project, `.bunfig.toml` in the home folder).
pub fn is_bun_config(path: &str) -> bool {
    matches!(
        path.rsplit('/').next(),
        Some("bunfig.toml" | ".bunfig.toml")
    )
}

/// Whether `text` (a command, or a write tool's input, its newlines
/// perhaps escaped) sets a `preload` outside a `[test]` table of bun's
/// configuration: code bun runs first in every program it starts in that
/// folder, oh-my-pi among them. `[test]`'s preload runs only for
/// `bun test`. A table header is the last `[name]` on its line, which
/// may begin with a quote or `printf '`.
pub fn bun_preloads(text: &str) -> bool {
    let text = text.replace("\\n", "\n");
    let mut table = String::new();
    for line in text.lines() {
        if line.contains("preload") && table != "test" {
            return true;
        }
        let header = line.rsplit('[').find_map(|after| {
            let name = after.split_once(']')?.0.trim();
            let bare = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
            bare.then_some(name)
        });
        if let Some(name) = header {
            table = name.to_owned();
        }
    }
    false
}
