//! What a session's next signal proves about the dispatches a serving engine
//! still runs: the harness stopped waiting for them, so their hooks are
//! ended and named (see [`crate::supervise::signals`] for the rules and
//! their sentences).
//!
//! - A `stop` or `user_prompt_submit` ends the previous such event's run of
//!   the same hook (supersession), and every tool hook of the session still
//!   running (the turn ended).
//! - A `post_tool_use` of a call ends the `pre_tool_use` dispatch of that same
//!   call (its result arrived).
//! - A `cancel` ends the dispatch it names.
//!
//! The last abandonment of every session is kept in memory as well as on disk.

use std::collections::HashMap;
use std::sync::Mutex;

use serde_json::Value;

use super::flight::Flight;
use super::lock;

/// The last abandonment of every session.
#[derive(Default)]
pub struct Abandoned {
    by_session: Mutex<HashMap<String, Value>>,
}

impl Abandoned {
    /// Records that `flight` was abandoned because of `reason`, with the hooks it still ran.
    pub fn record(&self, flight: &Flight, reason: &str) {
        let Some(session) = flight.session.clone() else {
            return;
        };
        if let Some(record) = crate::supervise::abandon::abandon(
            &session,
            &flight.running_hooks(),
            reason,
            std::process::id(),
            true,
        ) {
            lock(&self.by_session).insert(session, record);
        }
    }

    pub fn all(&self) -> Vec<Value> {
        lock(&self.by_session).values().cloned().collect()
    }
}
