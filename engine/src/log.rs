//! Tama's log: `tama.log` in [`tama_home`](crate::paths::tama_home). What
//! gates print or log goes here, never to the harness, which reads stdout and
//! stderr as decisions.

use std::io::Write;

/// Appends one line per line of `text`, each prefixed with `source`. A log
/// that cannot be written is not a reason to refuse or to fail: it is dropped.
pub fn write(source: &str, text: &str) {
    if text.trim().is_empty() {
        return;
    }
    let path = crate::paths::tama_home().join("tama.log");
    let _ = std::fs::create_dir_all(crate::paths::tama_home());
    let Ok(mut file) = std::fs::OpenOptions::new().create(true).append(true).open(path) else {
        return;
    };
    let mut block = String::new();
    for line in text.lines() {
        block.push_str(&format!("{source}: {line}\n"));
    }
    let _ = file.write_all(block.as_bytes());
}
