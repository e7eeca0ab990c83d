//! Harness adapters: one canonical decision, encoded the way each harness
//! reads it. They translate; they never decide.

use serde_json::json;

use crate::dispatch::Decision;

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

    /// Claude Code: the canonical decision on stdout, and on a block exit 2
    /// with the reason on stderr, which the model reads. Codex: on a block
    /// its minimal response (only fields its strict schema accepts for the
    /// event) and exit 0; nothing at all on a pass.
    pub fn encode(self, decision: &Decision) -> Answer {
        if !decision.is_block() {
            return Answer { stdout: String::new(), stderr: String::new(), exit: 0 };
        }
        let reason = decision.reason.clone().unwrap_or_default();
        match self {
            Provider::Claude => Answer {
                stdout: line(&serde_json::to_string(decision).expect("a decision serializes")),
                stderr: line(&reason),
                exit: 2,
            },
            Provider::Codex => Answer { stdout: line(&codex_block(&decision.event, &reason).to_string()), stderr: String::new(), exit: 0 },
        }
    }

    /// Tama could not decide at all (no agent id, an unreadable registry):
    /// exit 1 with the cause on stderr, and on stdout the harness's own
    /// block form, so no harness reads the failure as permission.
    pub fn infrastructure(self, event: &str, why: &str) -> Answer {
        let why = if why.starts_with(crate::INFRASTRUCTURE) { why.to_string() } else { format!("{}: {why}", crate::INFRASTRUCTURE) };
        let stdout = match self {
            Provider::Claude => json!({"decision": "block", "reason": why}),
            Provider::Codex => codex_block(event, &why),
        };
        Answer { stdout: line(&stdout.to_string()), stderr: line(&why), exit: 1 }
    }
}

/// Codex's block response for an event: `continue: false` where the event
/// has no decision field, else the legacy `decision: block`.
fn codex_block(event: &str, reason: &str) -> serde_json::Value {
    match event {
        "session_start" | "pre_compact" => json!({"continue": false, "stopReason": reason}),
        _ => json!({"decision": "block", "reason": reason}),
    }
}

fn line(text: &str) -> String {
    format!("{text}\n")
}
