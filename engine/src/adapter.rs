//! Harness adapters: one canonical decision, encoded the way each harness
//! reads it. They translate; they never decide. Every outcome that is not a
//! pass, Tama's own faults included, is given in the form the harness
//! itself reads as a block: a harness that runs the tool on a hook's error
//! exit (Codex on any exit but 0 and 2) never gets one.

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing))]

use serde_json::{Value, json};

use crate::dispatch::{Decision, Outcome};
use crate::event::EventName;

/// A harness `tama run-hook` answers. oh-my-pi is answered over the serve
/// protocol instead (`tama run-hook --serve omp`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Provider {
    Claude,
    Codex,
}

/// What `tama run-hook` writes and how it exits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub stdout: String,
    pub stderr: String,
    pub exit: u8,
}

impl Provider {
    pub fn parse(name: &str) -> Option<Provider> {
        match name.to_ascii_lowercase().as_str() {
            "claude" | "claude-code" => Some(Provider::Claude),
            "codex" => Some(Provider::Codex),
            _ => None,
        }
    }

    /// The harness's answer to `decision`.
    pub fn encode(self, decision: &Decision) -> Answer {
        match self {
            Provider::Claude => claude(decision),
            Provider::Codex => codex(decision),
        }
    }
}

/// The reason a refusal shows; `None` on a pass. Each variant is named, so
/// a new kind of outcome cannot reach a harness unencoded.
fn refusal(outcome: &Outcome) -> Option<String> {
    let reason = match outcome {
        Outcome::Pass => return None,
        Outcome::Refused { reason, .. } => reason.clone(),
        Outcome::Infrastructure(fault) => fault.to_string(),
        Outcome::Cancelled { reason, .. } => reason.clone(),
    };
    // A harness ignores a block with an empty reason, so none is empty.
    Some(if reason.trim().is_empty() { "refused without a reason".to_string() } else { reason })
}

/// Claude Code: nothing on a pass. On a refusal, exit 2 with the reason on
/// stderr (which the model reads) and the canonical decision on stdout;
/// where exit 2 does not block, the event's own block form and exit 0:
/// `PermissionRequest` denies through `hookSpecificOutput`, `SessionStart`
/// stops the session with `continue: false`.
fn claude(decision: &Decision) -> Answer {
    let Some(reason) = refusal(&decision.outcome) else { return Answer::silent() };
    match decision.event {
        Some(EventName::PermissionRequest) => Answer::json(&permission_denied(&reason), &reason, 0),
        Some(EventName::SessionStart) => Answer::json(&json!({"continue": false, "stopReason": reason}), &reason, 0),
        _ => {
            let canonical = serde_json::to_value(decision).unwrap_or_else(|_| json!({"decision": "block", "reason": reason}));
            Answer::json(&canonical, &reason, 2)
        }
    }
}

/// Codex: nothing on a pass; on a refusal exit 0 and the block response of
/// the event, with only the fields Codex's strict schema accepts there.
fn codex(decision: &Decision) -> Answer {
    let Some(reason) = refusal(&decision.outcome) else { return Answer::silent() };
    let block = match decision.event {
        Some(EventName::SessionStart | EventName::PreCompact) => json!({"continue": false, "stopReason": reason}),
        Some(EventName::PermissionRequest) => permission_denied(&reason),
        _ => json!({"decision": "block", "reason": reason}),
    };
    Answer::json(&block, "", 0)
}

/// Both harnesses' refusal of a permission request.
fn permission_denied(reason: &str) -> Value {
    json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "deny", "message": reason}}})
}

impl Answer {
    fn silent() -> Answer {
        Answer { stdout: String::new(), stderr: String::new(), exit: 0 }
    }

    fn json(stdout: &Value, stderr: &str, exit: u8) -> Answer {
        Answer { stdout: line(&stdout.to_string()), stderr: if stderr.is_empty() { String::new() } else { line(stderr) }, exit }
    }
}

fn line(text: &str) -> String {
    format!("{text}\n")
}
