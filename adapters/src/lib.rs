//! The harnesses Tama answers: Claude Code, Codex and oh-my-pi. Each one's
//! file holds all that differs between them: how a payload decodes into
//! Tama's event, how every outcome is encoded into the harness's answer (the
//! fail-closed forms included), what `tama setup` writes, and the peer hooks.
//! A harness is one file implementing [`Spec`] and one line in [`ALL`].

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

pub mod claude;
pub mod codex;
pub mod codex_env;
pub mod omp;
pub mod peers;
pub mod setup;

use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::peers::Adapter;
use crate::setup::{HookEvent, SetupError};
use tama_core::dispatch::{Decision, Outcome};
use tama_core::event::{Event, PayloadError};

/// Every harness Tama knows, in the order `tama setup` and `tama doctor` go through them.
pub const ALL: &[Harness] = &[
    Harness(&claude::Claude),
    Harness(&codex::Codex),
    Harness(&omp::Omp),
];

/// What one harness does its own way.
pub trait Spec: Sync {
    /// The name on the command line, and the provider and agent id its hooks run under.
    fn name(&self) -> &'static str;

    /// Other names the harness is known by.
    fn aliases(&self) -> &'static [&'static str] {
        &[]
    }

    /// The payload `text` of event `event` (else the payload's own), as
    /// Tama's event. The shared reader knows every harness's keys.
    fn decode(&self, text: &str, event: Option<&str>) -> Result<Event, PayloadError> {
        Event::decode(text, event)
    }

    /// The harness's answer to `decision`.
    fn encode(&self, decision: &Decision) -> Answer;

    /// Whether the harness asks through `tama run-hook --serve` rather than
    /// one `tama run-hook` per event.
    fn served(&self) -> bool {
        false
    }

    /// The user config `tama setup` writes, under `home`.
    fn config_path(&self, home: &Path) -> PathBuf;

    /// Whether the harness has this event (its own spelling, e.g. `PreToolUse`).
    fn supports(&self, event: &str) -> bool;

    /// `tama setup <harness>`: Tama's hooks for `events`, run by `tama`, put
    /// into the harness's config under `home`.
    fn install(
        &self,
        home: &Path,
        tama: &Path,
        events: &[HookEvent],
    ) -> Result<Box<dyn fmt::Display>, SetupError>;

    /// `tama setup <harness> --remove`.
    fn remove(&self, home: &Path, tama: &Path) -> Result<Box<dyn fmt::Display>, SetupError> {
        Ok(Box::new(crate::setup::remove(
            Harness::of(self.name())?,
            home,
            tama,
        )?))
    }

    /// The hook command `tama setup` writes: `tama` (shell-quoted) run with
    /// `args`, and when it ends without an answer (crashed, killed, missing),
    /// which the harness would read as a pass, `fallback`: a POSIX shell
    /// script giving the harness Tama's refusal. This default suits a
    /// harness that runs the command through the user's own shell, which may
    /// be fish or nushell, so the command is one `/bin/sh -c` in any of them
    /// (naming `tama` as `$0`), and that reads none of Tama's answers from a
    /// failing exit.
    fn hook_command(&self, tama: &str, args: &str, fallback: &str) -> String {
        format!("/bin/sh -c '\"$0\" {args} || {{ {fallback}; }}' {tama}")
    }

    /// What the user has to do before the harness runs hooks Tama wrote.
    fn setup_notice(&self) -> Option<&'static str> {
        None
    }

    /// The peer hooks' entries and skill path; `None` where `tama setup peers` has none.
    fn peers(&self) -> Option<Adapter> {
        None
    }
}

/// One harness: a handle on its [`Spec`].
#[derive(Clone, Copy)]
pub struct Harness(pub &'static dyn Spec);

impl Harness {
    /// The harness by name or alias.
    pub fn named(name: &str) -> Option<Harness> {
        ALL.iter()
            .copied()
            .find(|h| h.name() == name || h.aliases().contains(&name))
    }

    /// [`Harness::named`], or why not.
    pub fn of(name: &str) -> Result<Harness, SetupError> {
        Harness::named(name).ok_or_else(|| SetupError::UnknownHarness(name.to_string()))
    }

    /// The names of the harnesses `tama run-hook` answers.
    pub fn run_hook_names() -> Vec<&'static str> {
        ALL.iter()
            .copied()
            .filter(|h| !h.served())
            .map(|h| h.name())
            .collect()
    }
}

impl std::ops::Deref for Harness {
    type Target = dyn Spec;

    fn deref(&self) -> &(dyn Spec + 'static) {
        self.0
    }
}

impl PartialEq for Harness {
    fn eq(&self, other: &Harness) -> bool {
        self.name() == other.name()
    }
}

impl Eq for Harness {}

impl fmt::Debug for Harness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Harness {
    type Err = SetupError;

    fn from_str(name: &str) -> Result<Harness, SetupError> {
        Harness::of(name)
    }
}

/// What `tama run-hook` writes and how it exits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub stdout: String,
    pub stderr: String,
    pub exit: u8,
}

impl Answer {
    pub(crate) fn silent() -> Answer {
        Answer {
            stdout: String::new(),
            stderr: String::new(),
            exit: 0,
        }
    }

    pub(crate) fn json(stdout: &Value, stderr: &str, exit: u8) -> Answer {
        Answer {
            stdout: line(&stdout.to_string()),
            stderr: if stderr.is_empty() {
                String::new()
            } else {
                line(stderr)
            },
            exit,
        }
    }
}

fn line(text: &str) -> String {
    format!("{text}\n")
}

/// The reason a refusal shows; `None` on a pass. Each variant is named, so
/// a new kind of outcome cannot reach a harness unencoded.
pub(crate) fn refusal(outcome: &Outcome) -> Option<String> {
    let reason = match outcome {
        Outcome::Pass => return None,
        Outcome::Refused { reason, .. } => reason.clone(),
        Outcome::Infrastructure(fault) => fault.to_string(),
        Outcome::Cancelled { reason, .. } => reason.clone(),
    };
    // A harness ignores a block with an empty reason, so none is empty.
    Some(if reason.trim().is_empty() {
        "refused without a reason".to_string()
    } else {
        reason
    })
}

/// Claude Code's and Codex's refusal of a permission request.
pub(crate) fn permission_denied(reason: &str) -> Value {
    json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "deny", "message": reason}}})
}
