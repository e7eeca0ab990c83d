//! What a session's next signal proves about the dispatches a serving engine
//! still runs: the harness stopped waiting for them, so their hooks are
//! ended and named (see [`tama_core::supervise::signals`] for the rules and
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

use super::lock;

/// The last abandonment of every session.
#[derive(Default)]
pub struct Abandoned {
    by_session: Mutex<HashMap<String, Value>>,
}

impl Abandoned {
    /// Records that a dispatch of `session` was abandoned because of
    /// `reason`, with the hooks it still ran (see `Flight::running_hooks`).
    pub fn record(&self, session: Option<&str>, running_hooks: &[Value], reason: &str) {
        let Some(session) = session else { return };
        if let Some(record) = tama_core::supervise::abandon::abandon(
            session,
            running_hooks,
            reason,
            std::process::id(),
            true,
        ) {
            lock(&self.by_session).insert(session.to_string(), record);
        }
    }

    pub fn all(&self) -> Vec<Value> {
        lock(&self.by_session).values().cloned().collect()
    }
}
