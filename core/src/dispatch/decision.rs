//! The canonical decision: one per event, whatever harness asked.

use std::sync::Arc;

use serde::Serialize;
use serde::ser::SerializeMap;

use crate::event::EventName;
use crate::registry::Origin;
use crate::wasm::GateFault;

/// How an event is decided. Every harness encoder matches on all four.
#[derive(Debug, Clone)]
pub enum Outcome {
    Pass,
    /// A hook's policy refused the event.
    Refused {
        hook_id: String,
        reason: String,
    },
    /// Tama could not decide: its own fault, never a pass.
    Infrastructure(Infrastructure),
    /// A hook was ended because nobody waits for the answer any more (the
    /// same hook started for a later event of the session). Never a pass: a
    /// harness that cannot say "cancelled" is answered with a refusal.
    Cancelled {
        hook_id: Option<String>,
        reason: String,
    },
}

/// A refusal that is Tama's own fault, with its cause and the cause's
/// sources. It renders as `TAMA_HOOK_INFRASTRUCTURE: <cause>`.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{prefix}: {cause}{further}", prefix = crate::INFRASTRUCTURE, further = self.further.iter().map(|f| format!("\n{f}")).collect::<String>())]
pub struct Infrastructure {
    /// The hook that could not judge, when the fault is one hook's.
    pub hook_id: Option<String>,
    #[source]
    pub cause: Arc<Fault>,
    /// Further refusals of the same event, rendered, for hooks that ran side by side.
    pub further: Vec<String>,
}

impl Infrastructure {
    pub fn new(cause: impl Into<Fault>) -> Self {
        Infrastructure {
            hook_id: None,
            cause: Arc::new(cause.into()),
            further: Vec::new(),
        }
    }

    fn of_hook(hook_id: &str, cause: Fault) -> Self {
        Infrastructure {
            hook_id: Some(hook_id.to_string()),
            cause: Arc::new(cause),
            further: Vec::new(),
        }
    }
}

/// What kept Tama from deciding.
#[derive(Debug, thiserror::Error)]
pub enum Fault {
    #[error(transparent)]
    Registry(#[from] crate::registry::RegistryError),
    #[error("the {event} payload cannot be read: {source}")]
    Payload {
        event: String,
        source: crate::event::PayloadError,
    },
    #[error("the payload on stdin cannot be read: {0}")]
    Stdin(#[source] std::io::Error),
    #[error("tama run-hook needs an agent id: pass it after the event or set TAMA_AGENT_ID")]
    NoAgent,
    #[error(transparent)]
    Env(#[from] EnvError),
    #[error("TAMA_PROVIDER names an unknown harness `{0}`: expected claude or codex")]
    UnknownProvider(String),
    #[error("starting the wasm host: {0}")]
    WasmHost(String),
    #[error("the tool declaration failed to read the {tool} call: {why}")]
    Declaration { tool: String, why: String },
    #[error("gate {id} {source}")]
    Gate { id: String, source: GateFault },
    #[error("gate {id} {source}")]
    Component {
        id: String,
        source: crate::registry::RegistryError,
    },
    #[error(
        "hook {id} of hook registry {origin} cannot start: {source}; the call is refused because a registered hook that cannot start has not judged it"
    )]
    Unresolved {
        id: String,
        origin: Origin,
        source: crate::command::Unresolved,
    },
    #[error(transparent)]
    Spawn(#[from] crate::command::SpawnError),
    /// A command hook ran but did not judge: `why` says how it ended.
    #[error("hook {id} {why}")]
    Hook { id: String, why: String },
    /// What a harness's hook entry answers when `tama run-hook` itself ends
    /// without an answer: the entry, not Tama, says it (`tama setup`).
    #[error(
        "tama run-hook {event} ended before deciding: it crashed, was killed or could not start; Tama refuses until it runs again (tama doctor says why)"
    )]
    Ended { event: String },
}

/// An environment variable Tama reads holds something that is not text.
#[derive(Debug, thiserror::Error)]
#[error("{name} cannot be read: {source}")]
pub struct EnvError {
    pub name: &'static str,
    pub source: std::env::VarError,
}

/// How one hook's run ended, as its record says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum HookOutcome {
    Pass,
    Block,
    /// The hook failed: it could not start, trapped, exited badly or ran past its deadline.
    Error,
    /// The hook was ended because nobody waits for its answer any more.
    Cancelled,
}

/// One hook that ran, in registry order.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HookRecord {
    pub hook_id: String,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub decision: HookOutcome,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub blocking: bool,
    /// When the hook started, in milliseconds from the start of the dispatch.
    pub start_ms: u64,
    /// How long the hook ran.
    pub ms: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub process_group: Option<i32>,
    /// Why the hook could not judge, when its decision is `error`.
    #[serde(skip)]
    pub fault: Option<Infrastructure>,
}

impl HookRecord {
    /// Records that the hook could not judge, because `cause`.
    pub fn failed(&mut self, cause: Fault) {
        let fault = Infrastructure::of_hook(&self.hook_id, cause);
        self.decision = HookOutcome::Error;
        self.reason = Some(fault.to_string());
        self.fault = Some(fault);
    }

    /// The text a refusal shows for this record: the hook id and its reason,
    /// or the rendered fault when it is Tama's own.
    pub fn refusal_text(&self) -> String {
        match (&self.fault, self.reason.as_deref()) {
            (Some(fault), _) => fault.to_string(),
            (None, Some(reason)) => format!("{}: {reason}", self.hook_id),
            (None, None) => format!("{}: refused without a reason", self.hook_id),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Decision {
    pub outcome: Outcome,
    /// The event decided; `None` when it could not be named.
    pub event: Option<EventName>,
    pub session_id: Option<String>,
    pub agent_id: Option<String>,
    pub release_id: Option<String>,
    pub catalog_checksum: Option<String>,
    pub results: Vec<HookRecord>,
}

impl Decision {
    /// A decision reached before any hook ran: Tama could not decide.
    pub fn infrastructure(
        event: Option<EventName>,
        agent_id: Option<String>,
        fault: Infrastructure,
    ) -> Decision {
        Decision {
            outcome: Outcome::Infrastructure(fault),
            event,
            session_id: None,
            agent_id,
            release_id: None,
            catalog_checksum: None,
            results: Vec::new(),
        }
    }

    /// Whether the harness is answered with a refusal: anything but a pass.
    pub fn is_block(&self) -> bool {
        !matches!(self.outcome, Outcome::Pass)
    }

    /// Marks the decision cancelled, `why`, naming the hook ended when there is one.
    pub fn cancel(&mut self, hook_id: Option<String>, why: String) {
        self.outcome = Outcome::Cancelled {
            hook_id,
            reason: why,
        };
    }

    /// The word the canonical JSON gives the outcome.
    pub fn word(&self) -> &'static str {
        match self.outcome {
            Outcome::Pass => "allow",
            Outcome::Refused { .. } | Outcome::Infrastructure(_) => "block",
            Outcome::Cancelled { .. } => "cancelled",
        }
    }

    /// Why the event is refused, naming the hook; `None` on a pass.
    /// Adds the session records Tama refused to read (a hand-written
    /// override or capability) to a refusal's reason; a pass stays a pass.
    pub fn note_refused_records(&mut self, refused: &[String]) {
        match &mut self.outcome {
            Outcome::Pass => {}
            Outcome::Refused { reason, .. } | Outcome::Cancelled { reason, .. } => {
                refused
                    .iter()
                    .for_each(|r| reason.push_str(&format!("\n{r}")));
            }
            Outcome::Infrastructure(fault) => fault.further.extend(refused.iter().cloned()),
        }
    }

    pub fn reason(&self) -> Option<String> {
        match &self.outcome {
            Outcome::Pass => None,
            Outcome::Refused { reason, .. } | Outcome::Cancelled { reason, .. } => {
                Some(reason.clone())
            }
            Outcome::Infrastructure(fault) => Some(fault.to_string()),
        }
    }

    /// The hook that refused, when one did.
    pub fn hook_id(&self) -> Option<&str> {
        match &self.outcome {
            Outcome::Pass => None,
            Outcome::Refused { hook_id, .. } => Some(hook_id),
            Outcome::Infrastructure(fault) => fault.hook_id.as_deref(),
            Outcome::Cancelled { hook_id, .. } => hook_id.as_deref(),
        }
    }
}

/// The canonical JSON: `decision` (`allow`, `block` or `cancelled`),
/// `reason` and `hookId` when refused, then the event's ids and every record.
impl Serialize for Decision {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("decision", self.word())?;
        if let Some(reason) = self.reason() {
            map.serialize_entry("reason", &reason)?;
        }
        if let Some(hook_id) = self.hook_id() {
            map.serialize_entry("hookId", hook_id)?;
        }
        if matches!(self.outcome, Outcome::Infrastructure(_)) {
            map.serialize_entry("infrastructure", &true)?;
        }
        map.serialize_entry("event", &self.event)?;
        map.serialize_entry("sessionId", &self.session_id)?;
        map.serialize_entry("agentId", &self.agent_id)?;
        map.serialize_entry("releaseId", &self.release_id)?;
        map.serialize_entry("catalogChecksum", &self.catalog_checksum)?;
        map.serialize_entry("results", &self.results)?;
        map.end()
    }
}
