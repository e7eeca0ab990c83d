//! The registry's shape, compatible with the existing Tama registry and
//! extended with `"type": "wasm"` hooks.

use std::collections::BTreeMap;

use indexmap::IndexMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A Tama hook registry: which hooks run for which event, sealed by `catalogChecksum`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Registry {
    /// Registry schema version: 1.
    pub version: u32,
    /// The release this registry belongs to; none for a registry without release metadata.
    #[serde(default)]
    pub release_id: Option<String>,
    /// See `tama registry seal`.
    #[serde(default)]
    pub catalog_checksum: Option<String>,
    /// `<phase>[:<tool>]` → the hooks run for it, in order.
    pub events: IndexMap<String, EventHooks>,
    #[serde(default)]
    pub catalog: Option<Catalog>,
    /// Provenance and other fields, kept as they are.
    #[serde(flatten)]
    pub other: BTreeMap<String, Value>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct EventHooks {
    /// Whether a hook's failure refuses; an entry's own `blocking` comes first.
    #[serde(default)]
    pub blocking: bool,
    pub hooks: Vec<HookEntry>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum HookKind {
    /// An external command, run in its own process group.
    Command,
    /// A WebAssembly gate, run in-process.
    Wasm,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct HookEntry {
    pub id: String,
    /// `command` when absent.
    #[serde(rename = "type", default)]
    pub kind: Option<HookKind>,
    /// The command line of a command hook.
    #[serde(default)]
    pub command: Option<String>,
    /// Seconds.
    #[serde(default)]
    pub timeout: Option<f64>,
    #[serde(default)]
    pub blocking: Option<bool>,
    /// A wasm hook's component file, relative to the registry's folder.
    #[serde(default)]
    pub component: Option<String>,
    /// The component file's sha256, lower-case hex.
    #[serde(default)]
    pub sha256: Option<String>,
    /// The gate's configuration, handed to it as JSON.
    #[serde(default)]
    pub config: Option<Value>,
    /// State keys the gate is granted.
    #[serde(default)]
    pub state: Vec<String>,
    #[serde(flatten)]
    pub other: BTreeMap<String, Value>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Catalog {
    #[serde(default)]
    pub agent_hooks: Vec<Value>,
    #[serde(flatten)]
    pub other: BTreeMap<String, Value>,
}

impl HookEntry {
    pub fn kind(&self) -> HookKind {
        self.kind.unwrap_or(HookKind::Command)
    }

    /// The component file and its digest, for a wasm hook.
    pub fn wasm_component(&self) -> Result<(&str, &str), String> {
        match (self.kind(), self.component.as_deref(), self.sha256.as_deref()) {
            (HookKind::Wasm, Some(file), Some(sha)) => Ok((file, sha)),
            (HookKind::Wasm, _, _) => Err(format!("wasm hook {} needs both `component` and `sha256`", self.id)),
            (HookKind::Command, _, _) => Err(format!("hook {} is a command, not a wasm gate", self.id)),
        }
    }
}

impl Registry {
    /// Every hook entry with `id`, in event order.
    pub fn hooks_named<'a>(&'a self, id: &'a str) -> impl Iterator<Item = &'a HookEntry> + 'a {
        self.events.values().flat_map(|e| &e.hooks).filter(move |h| h.id == id)
    }

    /// Each hook id once, in event order.
    pub fn hook_ids(&self) -> Vec<&str> {
        let mut ids: Vec<&str> = Vec::new();
        for hook in self.events.values().flat_map(|e| &e.hooks) {
            if !ids.contains(&hook.id.as_str()) {
                ids.push(&hook.id);
            }
        }
        ids
    }

    /// Checks what serde cannot: each hook has what its kind needs.
    pub fn validate(&self) -> Result<(), String> {
        for (event, hooks) in &self.events {
            if crate::event::registry_event_name(event).is_none() {
                return Err(format!("unknown event `{event}`"));
            }
            for hook in &hooks.hooks {
                match hook.kind() {
                    HookKind::Wasm => hook.wasm_component().map(|_| ())?,
                    HookKind::Command if hook.command.as_deref().is_none_or(str::is_empty) => {
                        return Err(format!("command hook {} of {event} has no command", hook.id));
                    }
                    HookKind::Command => {}
                }
            }
        }
        Ok(())
    }
}

/// The registry's JSON Schema, generated from these types.
pub fn schema() -> String {
    let schema = schemars::schema_for!(Registry);
    serde_json::to_string_pretty(&schema).expect("a schema serializes") + "\n"
}
