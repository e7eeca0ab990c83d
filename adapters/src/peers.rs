//! The peer hooks of one harness: where they and the peer-work skill go, how
//! a command finds its session, whether a hook can wake the agent, and the
//! hook entries built from that. Each harness gives its own in
//! [`crate::Spec::peers`].

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::Harness;

/// What the peer hooks need to know about one agent kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Adapter {
    pub kind: Harness,
    /// The hook config, relative to the home folder.
    pub config: &'static str,
    /// The file that gets the peer-work skill, relative to the home folder.
    pub skill: &'static str,
    /// The environment variable that gives the agent's commands its session id.
    pub session_env: Option<&'static str>,
    /// Whether the agent's own commands must pass `--session`: Codex does
    /// not give its session id to commands dependably. Claude Code's commands
    /// are found by their process ancestry instead.
    pub commands_name_session: bool,
    /// Whether a background hook can wake an idle session (Claude Code's `asyncRewake`).
    pub wakes: bool,
    /// The tools that write files, as the harness's matcher names them.
    pub edit_matcher: &'static str,
}

/// Seconds the harness gives an ordinary peer hook.
const HOOK_TIMEOUT_SECS: u64 = 10;
/// Seconds Claude Code lets the waiter run before it stops it; the waiter
/// ends itself a little earlier (see `waiter::lifetime`).
pub const WAITER_TIMEOUT_SECS: u64 = 3600;

impl Adapter {
    /// Every harness with peer hooks.
    pub fn all() -> impl Iterator<Item = Adapter> {
        crate::ALL.iter().filter_map(|h| h.peers())
    }

    /// The peer hooks of the harness named `name`.
    pub fn named(name: &str) -> Option<Adapter> {
        Harness::named(name)?.peers()
    }

    /// The harness's name, which begins its sessions' keys.
    pub fn name(&self) -> &'static str {
        self.kind.name()
    }

    pub fn config_path(&self, home: &Path) -> PathBuf {
        home.join(self.config)
    }

    pub fn skill_path(&self, home: &Path) -> PathBuf {
        home.join(self.skill)
    }

    /// The command that runs peer hook `event` with this very `tama`.
    pub fn hook_command(&self, tama: &Path, event: &str) -> String {
        let tama = tama_core::command::shell_quote(&tama.to_string_lossy());
        format!("{tama} peer-hook {} {event}", self.kind.name())
    }

    /// The matcher groups this kind needs, by harness event. Codex cannot be
    /// woken, so it gets no waiter. Codex sends `SessionEnd` from 0.145.0 on
    /// (0.171.0 clamps that hook's timeout to 3 s, ample for it); older
    /// releases skip the key, and there a registration ends with the Codex
    /// process.
    pub fn hook_block(&self, tama: &Path) -> Vec<(String, Vec<Value>)> {
        let handler = |event: &str| json!({"type": "command", "command": self.hook_command(tama, event), "timeout": HOOK_TIMEOUT_SECS});
        let plain = |event: &str| json!({"hooks": [handler(event)]});
        let mut block = vec![
            ("SessionStart".to_string(), vec![plain("session-start")]),
            ("UserPromptSubmit".to_string(), vec![plain("prompt")]),
            (
                "PreToolUse".to_string(),
                vec![json!({"matcher": self.edit_matcher, "hooks": [handler("pre-tool")]})],
            ),
        ];
        let mut stop = vec![plain("stop")];
        if self.wakes {
            let waiter = json!({
                "type": "command",
                "command": self.hook_command(tama, "wait"),
                "async": true,
                "asyncRewake": true,
                "timeout": WAITER_TIMEOUT_SECS,
            });
            stop.push(json!({"hooks": [waiter]}));
        }
        block.push(("Stop".to_string(), stop));
        block.push(("SessionEnd".to_string(), vec![plain("session-end")]));
        block
    }
}
