//! What a session's next signal proves about the dispatches still running:
//! the harness stopped waiting for them, so their hooks are ended and named.
//!
//! - A `stop` or `user_prompt_submit` ends the previous such event's run of
//!   the same hook (supersession), and every tool hook of the session still
//!   running (the turn ended).
//! - A `post_tool_use` of a call ends the `pre_tool_use` dispatch of that same
//!   call (its result arrived).
//! - A `cancel` ends the dispatch it names.
//!
//! Each such end writes its sentence on stderr, and the hooks the dispatch
//! still ran as `still running in Tama: <hook> (<event>, <ms> ms)`; the last
//! abandonment of every session is kept in memory and in
//! `abandoned.<session>.json` in the session-control folder.

use std::collections::HashMap;
use std::sync::Mutex;

use serde_json::{Value, json};

use super::flight::Flight;
use super::runtime::now_ms;

pub fn is_turn_event(event: &str) -> bool {
    matches!(event, "stop" | "user_prompt_submit")
}

pub fn is_tool_event(event: &str) -> bool {
    matches!(event, "pre_tool_use" | "post_tool_use")
}

/// The last abandonment of every session.
#[derive(Default)]
pub struct Abandoned {
    by_session: Mutex<HashMap<String, Value>>,
}

impl Abandoned {
    /// Records that `flight` was abandoned because of `reason`, with the hooks it still ran.
    pub fn record(&self, flight: &Flight, reason: &str) {
        let hooks = flight.running_hooks();
        let Some(session) = flight.session.clone() else { return };
        let clauses: Vec<String> = hooks
            .iter()
            .map(|h| format!("{} ({}, {} ms)", h["hook"].as_str().unwrap_or("?"), h["event"].as_str().unwrap_or("?"), h["runningForMs"]))
            .collect();
        if clauses.is_empty() {
            return;
        }
        let text = format!("still running in Tama: {}; {reason}", clauses.join(", still running in Tama: "));
        eprintln!("tama: {text}");
        let record = json!({
            "session": session,
            "reason": reason,
            "abandonedAtMs": now_ms(),
            "corePid": std::process::id(),
            "hooks": hooks.iter().map(|h| json!({
                "hook": h["hook"], "event": h["event"], "processGroup": h["processGroup"], "ranForMs": h["runningForMs"],
            })).collect::<Vec<_>>(),
            "text": text,
        });
        if names_a_file(&session) {
            let path = crate::session::control_dir().join(format!("abandoned.{session}.json"));
            if let Err(err) = super::records::replace(&path, &record) {
                eprintln!("tama: cannot keep the abandonment of session {session} in {}: {err}", path.display());
            }
        } else {
            eprintln!("tama: session id {session:?} cannot name a file, so its abandonment is kept in this engine's memory only");
        }
        self.by_session.lock().expect("abandoned lock").insert(session, record);
    }

    pub fn all(&self) -> Vec<Value> {
        self.by_session.lock().expect("abandoned lock").values().cloned().collect()
    }
}

/// A session id that is a plain file name part.
fn names_a_file(session: &str) -> bool {
    !session.is_empty()
        && session.len() <= 200
        && session != "."
        && session != ".."
        && session.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
}
