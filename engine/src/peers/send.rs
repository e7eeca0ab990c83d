//! Sending: the checks every message passes before it reaches an inbox.

use std::path::Path;

use serde_json::json;

use super::inbox::{self, Envelope};
use super::sessions::{self, Registration};
use super::{PeerError, Result, journal, together};

/// Sends `text` from `me` to the live peer `to` as an `ask`, `note` or
/// `reply` (which names the ask it answers in `re`). An ask in work-together
/// mode spends one of the sender's budget, and is refused once it is spent.
pub fn send(dir: &Path, me: &Registration, to: &str, kind: &str, text: &str, re: Option<&str>) -> Result<Envelope> {
    let refuse = |why: String| Err(PeerError::Refused(why));
    if !matches!(kind, "ask" | "note" | "reply") {
        return refuse(format!("unknown message kind `{kind}`: expected ask, note or reply"));
    }
    if text.trim().is_empty() {
        return refuse("empty message".into());
    }
    let peer = sessions::find_peer(dir, to)?;
    if peer.key == me.key {
        return refuse("cannot message yourself".into());
    }
    let re = match (kind, re) {
        ("reply", None) => return refuse("reply needs --re <ask id>".into()),
        ("reply", Some(id)) => match inbox::find_ask(dir, &me.key, id, &peer.key) {
            Some(ask) => Some(ask.id),
            None => return refuse(format!("no ask {id} from {}", peer.key)),
        },
        (_, Some(_)) => return refuse("only a reply takes --re".into()),
        (_, None) => None,
    };
    if kind == "ask" {
        together::spend_ask(dir, &me.key, &peer.key)?;
    }
    let envelope = inbox::envelope(me, &peer.key, kind, re, text);
    inbox::post(dir, &envelope)?;
    journal::row(dir, "sent", json!({
        "id": envelope.id, "kind": kind, "from": me.key, "to": peer.key, "re": envelope.re, "text": text,
    }));
    Ok(envelope)
}
