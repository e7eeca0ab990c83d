//! Sending: the checks every message passes before it reaches an inbox.

use std::path::Path;

use serde_json::json;

use super::inbox::{self, Envelope};
use super::sessions::{self, Registration};
use super::{PeerError, Result, journal, together};

/// The longest chain of peer messages no user speaks in: Claude Code ends a
/// turn after 8 stop blocks in a row, and a chain past this is refused.
pub const MAX_HOPS: u32 = 8;

/// Sends `text` from `me` to the live peer `to` as an `ask`, `note` or
/// `reply` (which names the ask it answers in `re`). An ask in work-together
/// mode spends one of the sender's budget, and is refused once it is spent.
/// Each message is one hop longer than the longest chain sent to the
/// sender since its user last typed (a reply, than the ask it answers too);
/// one past [`MAX_HOPS`] is refused.
pub fn send(
    dir: &Path,
    me: &Registration,
    to: &str,
    kind: &str,
    text: &str,
    re: Option<&str>,
) -> Result<Envelope> {
    let refuse = |why: String| Err(PeerError::Refused(why));
    if !matches!(kind, "ask" | "note" | "reply") {
        return refuse(format!(
            "unknown message kind `{kind}`: expected ask, note or reply"
        ));
    }
    if text.trim().is_empty() {
        return refuse("empty message".into());
    }
    let peer = sessions::find_peer(dir, to)?;
    if peer.key == me.key {
        return refuse("cannot message yourself".into());
    }
    let (re, after) = match (kind, re) {
        ("reply", None) => return refuse("reply needs --re <ask id>".into()),
        ("reply", Some(id)) => match inbox::find_ask(dir, &me.key, id, &peer.key) {
            Some(ask) => (Some(ask.id), ask.hop),
            None => return refuse(format!("no ask {id} from {}", peer.key)),
        },
        (_, Some(_)) => return refuse("only a reply takes --re".into()),
        (_, None) => (None, 0),
    };
    let hop = me.chain.max(after).saturating_add(1);
    if hop > MAX_HOPS {
        return refuse(format!(
            "hop limit: this {kind} would be message {hop} of a chain of peer messages with no user in between; \
             the limit is {MAX_HOPS}. It was not sent: stop here and tell your user what is open"
        ));
    }
    if kind == "ask" {
        together::spend_ask(dir, &me.key, &peer.key)?;
    }
    let envelope = inbox::Envelope {
        hop,
        ..inbox::envelope(me, &peer.key, kind, re, text)
    };
    inbox::post(dir, &envelope)?;
    // The recipient's next message continues this chain, whenever it reads this one.
    sessions::update(dir, &peer.key, |r| r.chain = r.chain.max(hop))?;
    journal::row(
        dir,
        "sent",
        json!({
            "id": envelope.id, "kind": kind, "from": me.key, "to": peer.key, "re": envelope.re, "hop": hop, "text": text,
        }),
    );
    Ok(envelope)
}
