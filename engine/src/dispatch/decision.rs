//! The canonical decision: one per event, whatever harness asked.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Allow,
    Block,
    /// A hook was ended because nobody waits for the answer any more (the
    /// same hook started for a later event of the session). Never a pass: a
    /// harness that cannot say "cancelled" is answered with a refusal.
    Cancelled,
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
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Decision {
    pub decision: Outcome,
    /// Why the event is refused, naming the hook.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The hook that refused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hook_id: Option<String>,
    pub event: String,
    pub session_id: Option<String>,
    pub agent_id: Option<String>,
    pub release_id: Option<String>,
    pub catalog_checksum: Option<String>,
    pub results: Vec<HookRecord>,
}

impl Decision {
    /// Whether the harness is answered with a refusal: anything but a pass.
    pub fn is_block(&self) -> bool {
        self.decision != Outcome::Allow
    }
}

impl HookRecord {
    /// The text a refusal shows for this record: the reason as it stands
    /// when it is Tama's own fault, else prefixed with the hook id.
    pub fn refusal_text(&self) -> String {
        let reason = self.reason.as_deref().unwrap_or("refused without a reason");
        if reason.starts_with(crate::INFRASTRUCTURE) { reason.to_string() } else { format!("{}: {reason}", self.hook_id) }
    }
}
