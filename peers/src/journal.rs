//! What the peers keep on record: `log.jsonl`, one row per event that
//! matters later (a message sent or delivered, a mode started or ended, a
//! report shown), and `hooks.log`, one line per hook failure.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

use serde_json::{Value, json};

use super::{PeerError, ensure_dir, now_iso};

/// `hooks.log` is moved to `hooks.log.1` when it grows past this.
const HOOKS_LOG_LIMIT: u64 = 1 << 20;

/// Appends a row `{"at", "row", ...fields}` to `log.jsonl`, in one write.
pub fn row(dir: &Path, name: &str, fields: Value) {
    let mut row = json!({"at": now_iso(), "row": name});
    if let (Some(row), Value::Object(fields)) = (row.as_object_mut(), fields) {
        row.extend(fields);
    }
    if let Err(err) = append(dir, "log.jsonl", &format!("{row}\n")) {
        hook_error(
            dir,
            name,
            None,
            &PeerError::Io {
                what: "cannot append to log.jsonl".into(),
                source: err,
            },
        );
    }
}

/// The rows of `log.jsonl` that parse.
pub fn rows(dir: &Path) -> Vec<Value> {
    tama_core::files::read_regular_to_string(&dir.join("log.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect()
}

/// Records a hook failure: `<time>\t<event>\t<key or ->\t<kind>: <message>`.
/// When `hooks.log` cannot be written the line goes to stderr, which the
/// harness does not show the model for a hook that exits 0.
pub fn hook_error(dir: &Path, event: &str, key: Option<&str>, err: &PeerError) {
    let message = err.to_string().replace('\n', "\\n");
    let line = format!(
        "{}\t{event}\t{}\t{}: {message}\n",
        now_iso(),
        key.unwrap_or("-"),
        err.kind()
    );
    let rotated = fs::metadata(dir.join("hooks.log")).is_ok_and(|m| m.len() > HOOKS_LOG_LIMIT);
    if rotated {
        let _ = fs::rename(dir.join("hooks.log"), dir.join("hooks.log.1"));
    }
    if append(dir, "hooks.log", &line).is_err() {
        eprint!("{line}");
    }
}

fn append(dir: &Path, name: &str, text: &str) -> std::io::Result<()> {
    ensure_dir(dir).map_err(|e| std::io::Error::other(e.to_string()))?;
    let mut file = OpenOptions::new()
        .append(true)
        .create(true)
        .mode(0o600)
        .open(dir.join(name))?;
    file.write_all(text.as_bytes())
}
