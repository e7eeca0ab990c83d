//! Which hooks an event runs: registry keys `<phase>[:<tool>]` matched through
//! the tool declaration, then the operator's and the session's selection.

use super::EnvError;
use crate::event::EventName;
use crate::registry::{EventHooks, HookEntry, Registry};
use crate::tool::{ToolCall, ToolKind};

/// Hooks to run, in registry order, each once.
pub fn hooks_for<'r>(
    registry: &'r Registry,
    event: EventName,
    tool: Option<&ToolCall>,
) -> Vec<(&'r EventHooks, &'r HookEntry)> {
    let mut chosen: Vec<(&EventHooks, &HookEntry)> = Vec::new();
    for (key, hooks) in &registry.events {
        let (phase, suffix) = match key.split_once(':') {
            Some((phase, suffix)) => (phase, Some(suffix)),
            None => (key.as_str(), None),
        };
        if EventName::parse(phase) != Some(event) {
            continue;
        }
        if let Some(suffix) = suffix
            && !tool.is_some_and(|t| tool_matches(suffix, t))
        {
            continue;
        }
        for hook in &hooks.hooks {
            if !chosen.iter().any(|(_, h)| h.id == hook.id) {
                chosen.push((hooks, hook));
            }
        }
    }
    chosen
}

/// Whether any hook `selection` allows would refuse `event` by failing,
/// whatever tool its call names: then a call Tama cannot read refuses.
pub fn any_blocking(registry: &Registry, event: EventName, selection: &Selection) -> bool {
    registry
        .events
        .iter()
        .filter(|(key, _)| EventName::parse(key) == Some(event))
        .flat_map(|(_, hooks)| hooks.hooks.iter().map(move |hook| (hooks, hook)))
        .any(|(hooks, hook)| selection.allows(&hook.id) && hook.blocking.unwrap_or(hooks.blocking))
}

/// `bash`/`shell`, `write` and `lookup` name a kind the tool declaration
/// decides; any other suffix is a tool name.
fn tool_matches(suffix: &str, tool: &ToolCall) -> bool {
    let suffix = suffix.to_lowercase();
    match suffix.as_str() {
        "bash" | "shell" => tool.kind == ToolKind::Shell,
        "write" => tool.kind == ToolKind::Write,
        "lookup" => tool.kind == ToolKind::Lookup || tool.name == suffix,
        _ => tool.name == suffix,
    }
}

/// The operator's choice of hooks: `TAMA_ONLY_HOOK_ID`, `TAMA_DISABLED_HOOKS`
/// and `TAMA_ENABLED_HOOKS` (comma-separated ids).
#[derive(Debug, Clone, Default)]
pub struct Selection {
    pub only: Option<String>,
    pub disabled: Vec<String>,
    /// When given, only these run.
    pub enabled: Option<Vec<String>>,
    /// Why session records that would have changed this event (an override,
    /// a capability) were refused: a refusal of the event names them.
    pub refused: Vec<String>,
}

impl Selection {
    /// Reads the variables; one holding something that is not text is an
    /// error naming it, never read as unset.
    pub fn from_env() -> Result<Selection, EnvError> {
        let list = |v: Option<String>| {
            v.map(|s| {
                s.split(',')
                    .map(|i| i.trim().to_string())
                    .filter(|i| !i.is_empty())
                    .collect()
            })
        };
        Ok(Selection {
            only: text_var("TAMA_ONLY_HOOK_ID")?.filter(|s| !s.is_empty()),
            disabled: list(text_var("TAMA_DISABLED_HOOKS")?).unwrap_or_default(),
            enabled: list(text_var("TAMA_ENABLED_HOOKS")?),
            refused: Vec::new(),
        })
    }

    pub fn allows(&self, id: &str) -> bool {
        self.only.as_deref().is_none_or(|only| only == id)
            && !self.disabled.iter().any(|d| d == id)
            && self
                .enabled
                .as_ref()
                .is_none_or(|e| e.iter().any(|i| i == id))
    }
}

/// An environment variable as text: `Ok(None)` when unset, an error naming
/// it when it holds something that is not text.
pub fn text_var(name: &'static str) -> Result<Option<String>, EnvError> {
    match std::env::var(name) {
        Ok(value) => Ok(Some(value)),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(source) => Err(EnvError { name, source }),
    }
}
