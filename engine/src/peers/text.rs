//! What the agent reads: its messages, its brief at session start, and the
//! end of a work-together mode when its user is back.

use std::fmt::Write;

use serde_json::Value;

use super::inbox::Envelope;
use super::sessions::Registration;
use super::{Kind, peer_run};

/// Unread messages as the agent reads them. Each ask first says who
/// decides and the exact command that answers it; then every message comes
/// in a `<peer-message>` block.
pub fn peer_text(me: &Registration, envelopes: &[Envelope]) -> String {
    let run = peer_run(me.kind().unwrap_or(Kind::Claude), &me.key);
    let count = envelopes.len();
    let mut text = format!("{count} message{} from peer sessions:\n", if count == 1 { "" } else { "s" });
    for e in envelopes {
        text.push('\n');
        if e.kind == "ask" {
            let from = format!("{} ({}, {}, {})", e.from, e.from_name, e.from_kind, e.from_root);
            let together = me.together.as_ref().is_some_and(|t| t.with == e.from);
            let _ = writeln!(text, "Ask {} from {from}.", e.id);
            if together {
                let _ = writeln!(text, "You are in work-together mode with {}: act on it without asking your user.", e.from);
            } else {
                let _ = writeln!(text, "You are not in work-together mode with {}: ask your user before you act on it or answer.", e.from);
            }
            let _ = writeln!(text, "Answer with: {run} reply {} --re {} \"<answer>\"", e.from, e.id);
        }
        let re = e.re.as_deref().map(|re| format!(" re=\"{re}\"")).unwrap_or_default();
        let _ = writeln!(text, "<peer-message from=\"{}\" kind=\"{}\" id=\"{}\"{re} at=\"{}\">", e.from, e.kind, e.id, e.at);
        let _ = writeln!(text, "{}", e.text.trim_end());
        text.push_str("</peer-message>\n");
    }
    text.trim_end().to_string()
}

/// The brief at session start: who the agent is, which peers are live, and
/// how to reach them.
pub fn brief(me: &Registration, peers: &[Registration]) -> String {
    let run = peer_run(me.kind().unwrap_or(Kind::Claude), &me.key);
    let mut text = format!("You are peer session {} ({}).", me.key, me.name);
    if me.guarded {
        let _ = write!(text, " Your checkout is {}; other sessions may not write into it, and you may not write into theirs.", me.root.display());
    } else {
        let _ = write!(text, " Your folder is {}; it is not a git checkout, so it is not guarded.", me.root.display());
    }
    let others: Vec<&Registration> = peers.iter().filter(|p| p.key != me.key).collect();
    if others.is_empty() {
        text.push_str("\nNo other peer session is live.");
    } else {
        text.push_str("\nLive peers:");
        for peer in others {
            let _ = write!(text, "\n- {}", peer.describe());
        }
    }
    let _ = write!(
        text,
        "\nPEER_RUN={run}\nUse it for every peer command: `PEER_RUN list`, `PEER_RUN note <peer> \"<text>\"`, \
         `PEER_RUN ask <peer> \"<question>\"`, `PEER_RUN reply <peer> --re <id> \"<answer>\"`, \
         `PEER_RUN together <peer> --budget <asks>`, `PEER_RUN apart`."
    );
    text
}

/// A work-together mode that ended, for the user who is back, with the
/// saved report or the instruction to make one.
pub fn ended_note(me: &Registration, ended: &Value, report: Option<String>) -> String {
    let field = |name: &str| ended[name].as_str().unwrap_or("?").to_string();
    let mut text = format!(
        "Work-together mode with {} (started {}) ended at {}: {}. Your user is back: from now on ask your user before acting on a peer's ask.",
        field("with"), field("since"), field("endedAt"), field("reason")
    );
    match report {
        Some(report) => {
            let _ = write!(text, "\nThe report of that mode, to give your user:\n{}", report.trim_end());
        }
        None => {
            let run = peer_run(me.kind().unwrap_or(Kind::Claude), &me.key);
            let _ = write!(
                text,
                "\nNo report of it was saved. Tell your user what you and {} did together: what was asked, what was decided, \
                 what changed. Save it with: {run} report \"<report>\"",
                field("with")
            );
        }
    }
    text
}
