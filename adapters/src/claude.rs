//! Claude Code: hooks in `~/.claude/settings.json`, answered by exit code.

use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::json;

use super::{Answer, Harness, Spec, permission_denied, refusal};
use crate::peers::Adapter;
use crate::setup::{HookEvent, SetupError};
use tama_core::dispatch::Decision;
use tama_core::event::EventName;

pub struct Claude;

impl Spec for Claude {
    fn name(&self) -> &'static str {
        "claude"
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["claude-code"]
    }

    /// Nothing on a pass. On a refusal, exit 2 with the reason on stderr
    /// (which the model reads) and the canonical decision on stdout; where
    /// exit 2 does not block, the event's own block form and exit 0:
    /// `PermissionRequest` denies through `hookSpecificOutput`, `SessionStart`
    /// stops the session with `continue: false`.
    fn encode(&self, decision: &Decision) -> Answer {
        let Some(reason) = refusal(&decision.outcome) else {
            return Answer::silent();
        };
        match decision.event {
            Some(EventName::PermissionRequest) => {
                Answer::json(&permission_denied(&reason), &reason, 0)
            }
            Some(EventName::SessionStart) => Answer::json(
                &json!({"continue": false, "stopReason": reason}),
                &reason,
                0,
            ),
            _ => {
                let canonical = serde_json::to_value(decision)
                    .unwrap_or_else(|_| json!({"decision": "block", "reason": reason}));
                Answer::json(&canonical, &reason, 2)
            }
        }
    }

    fn config_path(&self, home: &Path) -> PathBuf {
        home.join(".claude").join("settings.json")
    }

    fn supports(&self, _event: &str) -> bool {
        true
    }

    /// Claude Code runs the command with `sh -c`; exit 2 is Tama's own
    /// refusal, any other failing exit its end without an answer.
    fn hook_command(&self, tama: &str, args: &str, fallback: &str) -> String {
        format!("{tama} {args} || {{ [ $? = 2 ] && exit 2; {fallback}; }}")
    }

    fn install(
        &self,
        home: &Path,
        tama: &Path,
        events: &[HookEvent],
    ) -> Result<Box<dyn fmt::Display>, SetupError> {
        Ok(Box::new(crate::setup::install(
            Harness(&Claude),
            home,
            tama,
            events,
        )?))
    }

    fn peers(&self) -> Option<Adapter> {
        Some(Adapter {
            kind: Harness(&Claude),
            config: ".claude/settings.json",
            skill: ".claude/skills/peer-work/SKILL.md",
            session_env: None,
            commands_name_session: false,
            wakes: true,
            edit_matcher: "Edit|Write|NotebookEdit",
        })
    }
}
