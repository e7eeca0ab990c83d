//! Envelopes: one message from one session to another, in the recipient's
//! inbox. A sender writes into `tmp/` and renames into `new/`, so a reader
//! never sees half an envelope. Handing a message to the agent renames it
//! from `new/` into `handed/`, and only one rename of a file can succeed, so
//! each envelope is handed over once. It counts as read (`cur/`) only when a
//! later hook of that session shows the agent went on; a session that ends
//! first returns what it was handed to the senders' `returned/`.

use std::fs;
use std::hash::{BuildHasher, Hasher};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::folder::write_whole;
use super::{PeerError, Result, ensure_dir, io, now_iso};

/// One message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Envelope {
    /// 12 lowercase hex digits.
    pub id: String,
    pub at: String,
    /// `ask` (an answer is expected), `note` or `reply`.
    pub kind: String,
    pub from: String,
    pub from_name: String,
    pub from_kind: String,
    pub from_root: String,
    pub to: String,
    /// The ask a reply answers.
    pub re: Option<String>,
    pub text: String,
    /// How many messages long the chain this one ends is, counted since a
    /// user last typed in the sending session (see `send::MAX_HOPS`).
    #[serde(default)]
    pub hop: u32,
}

/// An envelope taken from an inbox, with the file it was delivered as.
#[derive(Debug, Clone)]
pub struct Letter {
    pub envelope: Envelope,
    file: PathBuf,
}

fn inbox(dir: &Path, key: &str) -> PathBuf {
    dir.join("inbox").join(key)
}

/// Creates the inbox of `key`.
pub fn create(dir: &Path, key: &str) -> Result<()> {
    ["tmp", "new", "handed", "cur", "returned"]
        .iter()
        .try_for_each(|part| ensure_dir(&inbox(dir, key).join(part)))
}

/// A fresh envelope id: 12 hex digits from the standard library's randomly
/// keyed hasher (no crate needed for an id that only has to be unlikely to
/// repeat; the file is created new, so a repeat cannot overwrite).
pub fn new_id() -> String {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    hasher.write_u32(std::process::id());
    format!("{:012x}", hasher.finish() & 0xffff_ffff_ffff)
}

/// Puts `envelope` into the recipient's inbox.
pub fn post(dir: &Path, envelope: &Envelope) -> Result<()> {
    create(dir, &envelope.to)?;
    let name = format!(
        "{}-{}.json",
        envelope.at.replace(['-', ':'], ""),
        envelope.id
    );
    let staged = inbox(dir, &envelope.to).join("tmp").join(&name);
    let json = serde_json::to_vec(envelope).map_err(PeerError::NotJson)?;
    write_whole(&staged, &json)?;
    let target = inbox(dir, &envelope.to).join("new").join(&name);
    fs::rename(&staged, &target).map_err(io(|| format!("cannot deliver into {}", target.display())))
}

/// Envelope files in one part of an inbox, oldest first (names start with the time).
fn files(dir: &Path, key: &str, part: &str) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = fs::read_dir(inbox(dir, key).join(part))
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

fn read_envelope(file: &Path) -> Result<Envelope> {
    let text = tama_core::files::read_regular_to_string(file)
        .map_err(io(|| format!("cannot read {}", file.display())))?;
    serde_json::from_str(&text)
        .map_err(|e| PeerError::Input(format!("{} is not an envelope: {e}", file.display())))
}

/// How many envelopes wait unread for `key`.
pub fn unread_count(dir: &Path, key: &str) -> usize {
    files(dir, key, "new").len()
}

/// Takes every unread envelope of `key` to hand to its agent, oldest first.
/// An envelope another reader took first is skipped; one that does not
/// parse stays in `handed/` and is named in `hooks.log`.
pub fn take(dir: &Path, key: &str) -> Result<Vec<Letter>> {
    let mut letters = Vec::new();
    for file in files(dir, key, "new") {
        let delivered = inbox(dir, key)
            .join("handed")
            .join(file.file_name().unwrap_or_default());
        match fs::rename(&file, &delivered) {
            Ok(()) => match read_envelope(&delivered) {
                Ok(envelope) => letters.push(Letter {
                    envelope,
                    file: delivered,
                }),
                Err(err) => super::journal::hook_error(dir, "take", Some(key), &err),
            },
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => continue,
            Err(err) => return Err(io(|| format!("cannot take {}", file.display()))(err)),
        }
    }
    Ok(letters)
}

/// Returns taken envelopes to the unread ones, for a reader that could not
/// hand them on.
pub fn put_back(dir: &Path, key: &str, letters: &[Letter]) -> Result<()> {
    for letter in letters {
        let unread = inbox(dir, key)
            .join("new")
            .join(letter.file.file_name().unwrap_or_default());
        fs::rename(&letter.file, &unread)
            .map_err(io(|| format!("cannot put back {}", letter.file.display())))?;
    }
    Ok(())
}

/// The ask `id` that `from` sent to `key`, delivered or not.
pub fn find_ask(dir: &Path, key: &str, id: &str, from: &str) -> Option<Envelope> {
    ["cur", "handed", "new"]
        .iter()
        .flat_map(|part| files(dir, key, part))
        .filter(|file| file.to_string_lossy().ends_with(&format!("-{id}.json")))
        .filter_map(|file| read_envelope(&file).ok())
        .find(|e| e.kind == "ask" && e.from == from)
}

/// Marks every envelope handed to `key` read: its agent went on after it
/// was handed over. Returns how many were.
pub fn confirm(dir: &Path, key: &str) -> Result<usize> {
    let handed = files(dir, key, "handed");
    for file in &handed {
        let read = inbox(dir, key)
            .join("cur")
            .join(file.file_name().unwrap_or_default());
        match fs::rename(file, &read) {
            Ok(()) => super::journal::row(
                dir,
                "read",
                serde_json::json!({"to": key, "file": file.file_name().map(|n| n.to_string_lossy().into_owned())}),
            ),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
            Err(err) => return Err(io(|| format!("cannot mark {} read", file.display()))(err)),
        }
    }
    Ok(handed.len())
}

/// A message that came back to its sender unread, with why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Returned {
    pub envelope: Envelope,
    pub why: String,
}

/// Sends every envelope handed to `key` but never read back to its
/// sender's `returned/`, saying `why`: the session ended first.
pub fn return_handed(dir: &Path, key: &str, why: &str) -> Result<()> {
    for file in files(dir, key, "handed") {
        let envelope = match read_envelope(&file) {
            Ok(envelope) if super::valid_key(&envelope.from) => envelope,
            Ok(_) | Err(_) => continue,
        };
        create(dir, &envelope.from)?;
        let name = file.file_name().unwrap_or_default();
        let back = Returned {
            envelope,
            why: why.to_string(),
        };
        let json = serde_json::to_vec(&back).map_err(PeerError::NotJson)?;
        let staged = inbox(dir, &back.envelope.from).join("tmp").join(name);
        write_whole(&staged, &json)?;
        let target = inbox(dir, &back.envelope.from).join("returned").join(name);
        fs::rename(&staged, &target)
            .map_err(io(|| format!("cannot return into {}", target.display())))?;
        let _ = fs::remove_file(&file);
        super::journal::row(
            dir,
            "returned",
            serde_json::json!({"id": back.envelope.id, "from": back.envelope.from, "to": key, "why": why}),
        );
    }
    Ok(())
}

/// Takes the messages of `key` that came back unread, each once.
pub fn take_returned(dir: &Path, key: &str) -> Vec<Returned> {
    let mut found = Vec::new();
    for file in files(dir, key, "returned") {
        let taken = inbox(dir, key).join("cur").join(format!(
            "returned-{}",
            file.file_name().unwrap_or_default().to_string_lossy()
        ));
        if fs::rename(&file, &taken).is_err() {
            continue;
        }
        match tama_core::files::read_regular_to_string(&taken)
            .ok()
            .and_then(|t| serde_json::from_str::<Returned>(&t).ok())
        {
            Some(back) => found.push(back),
            None => super::journal::hook_error(
                dir,
                "returned",
                Some(key),
                &PeerError::Input(format!("{} is not a returned message", taken.display())),
            ),
        }
    }
    found
}

/// A new envelope from `from` to `to`, stamped now.
pub fn envelope(
    from: &super::Registration,
    to: &str,
    kind: &str,
    re: Option<String>,
    text: &str,
) -> Envelope {
    Envelope {
        id: new_id(),
        at: now_iso(),
        kind: kind.to_string(),
        from: from.key.clone(),
        from_name: from.name.clone(),
        from_kind: from.kind.clone(),
        from_root: from.root.display().to_string(),
        to: to.to_string(),
        re,
        text: text.to_string(),
        hop: 1,
    }
}
