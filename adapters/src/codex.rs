//! Codex: hooks in `~/.codex/hooks.json`, each trusted by the user; a
//! refusal is exit 0 with the event's block JSON, since Codex runs the tool
//! on any other exit but 2.

use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::json;

use super::{Answer, Harness, Spec, permission_denied, refusal};
use crate::peers::Adapter;
use crate::setup::{HookEvent, SetupError};
use tama_core::dispatch::Decision;
use tama_core::event::EventName;

pub struct Codex;

/// The events Codex's hooks.json knows.
const EVENTS: &[&str] = &[
    "SessionStart",
    "SubagentStart",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PreCompact",
    "PostCompact",
    "UserPromptSubmit",
    "SubagentStop",
    "Stop",
];

pub const TRUST: &str = "Codex skips a hook nobody has trusted, without a word: start codex, \
open /hooks and trust Tama's hooks, or run `tama setup codex --trust`, which asks codex for \
the hashes of Tama's hooks and records them as trusted. Codex records that trust in ~/.codex/config.toml against \
each hook's hash, so a changed command needs trusting again; `codex \
--dangerously-bypass-hook-trust` runs untrusted hooks for one invocation. Codex releases before \
0.124 also need `[features] codex_hooks = true` in ~/.codex/config.toml.";

impl Spec for Codex {
    fn name(&self) -> &'static str {
        "codex"
    }

    /// Nothing on a pass; on a refusal exit 0 and the block response of the
    /// event, with only the fields Codex's strict schema accepts there.
    fn encode(&self, decision: &Decision) -> Answer {
        let Some(reason) = refusal(&decision.outcome) else {
            return Answer::silent();
        };
        let block = match decision.event {
            Some(EventName::SessionStart | EventName::PreCompact) => {
                json!({"continue": false, "stopReason": reason})
            }
            Some(EventName::PermissionRequest) => permission_denied(&reason),
            _ => json!({"decision": "block", "reason": reason}),
        };
        Answer::json(&block, "", 0)
    }

    fn config_path(&self, home: &Path) -> PathBuf {
        home.join(".codex").join("hooks.json")
    }

    fn supports(&self, event: &str) -> bool {
        EVENTS.contains(&event)
    }

    fn install(
        &self,
        home: &Path,
        tama: &Path,
        events: &[HookEvent],
    ) -> Result<Box<dyn fmt::Display>, SetupError> {
        Ok(Box::new(install(home, tama, events)?))
    }

    fn remove(&self, home: &Path, tama: &Path) -> Result<Box<dyn fmt::Display>, SetupError> {
        let report = crate::setup::remove(Harness(&Codex), home, tama)?;
        crate::codex_env::remove(home)?;
        Ok(Box::new(report))
    }

    fn setup_notice(&self) -> Option<&'static str> {
        Some(TRUST)
    }

    /// Codex does not give its session id to commands dependably, so they
    /// name it; and it cannot be woken, so it gets no waiter.
    fn peers(&self) -> Option<Adapter> {
        Some(Adapter {
            kind: Harness(&Codex),
            config: ".codex/hooks.json",
            skill: ".codex/skills/peer-work/SKILL.md",
            session_env: Some("CODEX_THREAD_ID"),
            commands_name_session: true,
            wakes: false,
            edit_matcher: "apply_patch|Bash",
        })
    }
}

/// `tama setup codex`: the hooks, and what Codex's commands run with
/// (`codex_env`).
pub fn install(
    home: &Path,
    tama: &Path,
    events: &[HookEvent],
) -> Result<crate::setup::Report, SetupError> {
    let mut report = crate::setup::install(Harness(&Codex), home, tama, events)?;
    let backup = crate::codex_env::install(home)?;
    let settings: Vec<String> = crate::codex_env::SETTINGS
        .iter()
        .map(|(name, value)| format!("{name}={value}"))
        .collect();
    report.notices.push(format!(
        "Codex's commands run with pagers and editors that take no typed commands: {} set in {}{}",
        settings.join(" "),
        crate::codex_env::config_path(home).display(),
        backup.map_or_else(String::new, |backup| format!(
            " (backed up to {})",
            backup.display()
        )),
    ));
    Ok(report)
}
