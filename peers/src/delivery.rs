//! Handing a session its unread messages, and what a peer hook ends with:
//! shared by the hooks and the waiter.

use std::path::Path;

use serde_json::{Value, json};

use super::sessions::Registration;
use super::{Result, inbox, journal, text};

/// What a hook run ends with.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Outcome {
    pub code: u8,
    pub stdout: String,
    pub stderr: String,
}

impl Outcome {
    pub(crate) fn json(value: Value) -> Outcome {
        Outcome {
            stdout: format!("{value}\n"),
            ..Outcome::default()
        }
    }
}

/// Takes the unread messages of `me`, with their peer text; `None` when
/// there are none. The caller hands the text on, then [`record_delivery`].
pub(crate) fn take_rendered(
    dir: &Path,
    me: &Registration,
) -> Result<Option<(Vec<inbox::Letter>, String)>> {
    let letters = inbox::take(dir, &me.key)?;
    if letters.is_empty() {
        return Ok(None);
    }
    let envelopes: Vec<inbox::Envelope> = letters.iter().map(|l| l.envelope.clone()).collect();
    Ok(Some((letters, text::peer_text(me, &envelopes))))
}

/// Records in `log.jsonl` that `letters` were handed to `me`, `by` which
/// hook or command.
pub fn record_delivery(dir: &Path, me: &Registration, letters: &[inbox::Letter], by: &str) {
    for e in letters.iter().map(|l| &l.envelope) {
        journal::row(
            dir,
            "delivered",
            json!({"to": me.key, "id": e.id, "from": e.from, "by": by, "hop": e.hop}),
        );
    }
}
