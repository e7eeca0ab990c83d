//! Tama's log: `tama.log` in [`tama_home`](crate::paths::tama_home), private
//! to the user (0600). What gates print or log goes here, never to the
//! harness, which reads stdout and stderr as decisions. Past [`LOG_BOUND`]
//! bytes the log becomes `tama.log.1` (replacing the one before) and a new
//! one starts, so the log never holds more than twice that.

use std::fs::{OpenOptions, Permissions};
use std::io::Write;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::PathBuf;

/// Bytes `tama.log` may reach before it is rotated.
pub const LOG_BOUND: u64 = 4 << 20;

/// `$TAMA_HOME/tama.log`.
pub fn path() -> PathBuf {
    crate::paths::tama_home().join("tama.log")
}

/// Appends one line per line of `text`, each prefixed with `source`. A log
/// that cannot be written is not a reason to refuse or to fail: it is dropped.
pub fn write(source: &str, text: &str) {
    if text.trim().is_empty() {
        return;
    }
    let path = path();
    let _ = crate::files::create_private_dir(&crate::paths::tama_home());
    if std::fs::metadata(&path).is_ok_and(|m| m.len() >= LOG_BOUND) {
        // Whoever renames first rotates; a writer that still holds the old
        // file finishes its line there.
        let _ = std::fs::rename(&path, path.with_extension("log.1"));
    }
    let Ok(mut file) = OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .open(&path)
    else {
        return;
    };
    // A log an older Tama created open to others is made private.
    if file
        .metadata()
        .is_ok_and(|m| m.permissions().mode() & 0o077 != 0)
    {
        let _ = file.set_permissions(Permissions::from_mode(0o600));
    }
    let mut block = String::new();
    for line in text.lines() {
        block.push_str(&format!("{source}: {line}\n"));
    }
    let _ = file.write_all(block.as_bytes());
}
