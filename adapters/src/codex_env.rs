//! What Codex's commands run with, set by `tama setup codex` in
//! `~/.codex/config.toml` (`[shell_environment_policy.set]`): pagers and
//! editors that take no typed commands. Codex types into a command it left
//! running with `write_stdin`, and runs no hook for that tool; a pager
//! (`less`, which `git log` opens) or an editor (vi, which `git commit`
//! opens) there would run a shell command typed as `!cmd`.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::setup::{SetupError, back_up};

/// The variables Tama sets, and their values: git, man and systemd page
/// through `cat`, `less` runs in its secure mode, and every editor a
/// program opens is `true`, which changes nothing and waits for no key.
pub const SETTINGS: &[(&str, &str)] = &[
    ("GIT_PAGER", "cat"),
    ("PAGER", "cat"),
    ("MANPAGER", "cat"),
    ("SYSTEMD_PAGER", "cat"),
    ("LESSSECURE", "1"),
    ("GIT_EDITOR", "true"),
    ("GIT_SEQUENCE_EDITOR", "true"),
    ("EDITOR", "true"),
    ("VISUAL", "true"),
];

/// `~/.codex/config.toml` under `home`.
pub fn config_path(home: &Path) -> PathBuf {
    home.join(".codex").join("config.toml")
}

/// The text of Codex's configuration at `path`: empty when there is none.
pub fn read_config(path: &Path) -> io::Result<String> {
    match fs::read_to_string(path) {
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(String::new()),
        read => read,
    }
}

/// Writes `text` as Codex's configuration at `path`, making its folder.
pub fn write_config(path: &Path, text: &str) -> io::Result<()> {
    if let Some(folder) = path.parent() {
        fs::create_dir_all(folder)?;
    }
    tama_core::files::write_whole_synced(path, text.as_bytes())
}

/// Puts [`SETTINGS`] into the configuration under `home`, keeping
/// everything else; the backup taken first, when the file changed.
pub fn install(home: &Path) -> Result<Option<PathBuf>, SetupError> {
    edit(home, |set| {
        for (name, value) in SETTINGS {
            set.insert(name, toml_edit::value(*value));
        }
    })
}

/// Takes out the settings `install` put there (those still holding its
/// values), and the tables that leaves empty.
pub fn remove(home: &Path) -> Result<Option<PathBuf>, SetupError> {
    edit(home, |set| {
        for (name, value) in SETTINGS {
            if set.get(name).and_then(toml_edit::Item::as_str) == Some(*value) {
                set.remove(name);
            }
        }
    })
}

/// The settings missing from the configuration under `home`, as
/// `NAME=value`: all of them when it cannot be read.
pub fn missing(home: &Path) -> Vec<String> {
    let document = fs::read_to_string(config_path(home))
        .ok()
        .and_then(|text| text.parse::<toml_edit::DocumentMut>().ok());
    let set = document
        .as_ref()
        .and_then(|document| document.get("shell_environment_policy")?.get("set"));
    SETTINGS
        .iter()
        .filter(|(name, value)| set.and_then(|set| set.get(name)?.as_str()) != Some(*value))
        .map(|(name, value)| format!("{name}={value}"))
        .collect()
}

/// Applies `change` to the `[shell_environment_policy.set]` table of the
/// configuration under `home` and writes it back when that changed it.
fn edit(
    home: &Path,
    change: impl FnOnce(&mut dyn toml_edit::TableLike),
) -> Result<Option<PathBuf>, SetupError> {
    let path = config_path(home);
    let text = match read_config(&path) {
        Ok(text) => text,
        Err(source) => return Err(SetupError::Read { path, source }),
    };
    let mut document: toml_edit::DocumentMut =
        text.parse().map_err(|source| SetupError::NotToml {
            path: path.clone(),
            source,
        })?;
    let policy = document
        .entry("shell_environment_policy")
        .or_insert(toml_edit::table())
        .as_table_like_mut()
        .ok_or_else(|| shape(&path, "shell_environment_policy"))?;
    let set = policy
        .entry("set")
        .or_insert(toml_edit::table())
        .as_table_like_mut()
        .ok_or_else(|| shape(&path, "shell_environment_policy.set"))?;
    change(set);
    if set.is_empty() {
        policy.remove("set");
    }
    if policy.is_empty() {
        document.remove("shell_environment_policy");
    }
    let written = document.to_string();
    if written == text {
        return Ok(None);
    }
    let backup = if text.is_empty() {
        None
    } else {
        Some(back_up(&path, &text).map_err(|source| SetupError::Backup {
            path: path.clone(),
            source,
        })?)
    };
    write_config(&path, &written).map_err(|source| SetupError::Write { path, source })?;
    Ok(backup)
}

fn shape(path: &Path, key: &str) -> SetupError {
    SetupError::Shape {
        path: path.to_path_buf(),
        key: key.to_owned(),
        expected: "a table",
    }
}
