//! The registry's shape: the existing Tama registry's keys and Tama's own
//! (`"type": "wasm"` hooks), and no other. A key outside both is refused,
//! so a misspelling (`"blockng"`, `"sha265"`) never silently changes what runs.

use std::borrow::Cow;

use indexmap::IndexMap;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

fn yes() -> bool {
    true
}

/// A Tama hook registry: which hooks run for which event, sealed by `catalogChecksum`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Registry {
    /// The JSON Schema this file follows, for editors.
    #[serde(rename = "$schema", default)]
    pub schema: Option<String>,
    /// Registry schema version: 1.
    pub version: u32,
    /// Provenance, as the existing installer writes it.
    #[serde(default)]
    pub generated_at: Option<String>,
    #[serde(default)]
    pub generated_from: Option<String>,
    #[serde(default)]
    pub managed_by: Option<String>,
    /// The release this registry belongs to; none for a registry without release metadata.
    #[serde(default)]
    pub release_id: Option<String>,
    /// See `tama registry seal`.
    #[serde(default)]
    pub catalog_checksum: Option<String>,
    /// `<phase>[:<tool>]` → the hooks run for it, in order.
    pub events: IndexMap<String, EventHooks>,
    /// Where each harness's hook config lives, as the existing installer records it.
    #[serde(default)]
    pub adapters: Option<Adapters>,
    #[serde(default)]
    pub catalog: Option<Catalog>,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EventHooks {
    /// Whether a hook's refusal or failure refuses the event; an entry's own
    /// `blocking` comes first. True unless the registry says `false`.
    #[serde(default = "yes")]
    pub blocking: bool,
    pub hooks: Vec<HookEntry>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookKind {
    /// An external command, run in its own process group.
    Command,
    /// A WebAssembly gate, run in-process.
    Wasm,
}

/// One hook of an event: what every kind has, and how it runs.
#[derive(Debug, Clone)]
pub struct HookEntry {
    pub id: String,
    /// Seconds.
    pub timeout: Option<f64>,
    pub blocking: Option<bool>,
    pub run: HookRun,
}

#[derive(Debug, Clone)]
pub enum HookRun {
    /// The command line of a command hook.
    Command {
        command: String,
    },
    Wasm(WasmHook),
}

/// A wasm gate's component and what it is given.
#[derive(Debug, Clone)]
pub struct WasmHook {
    /// The component file, relative to the registry's folder.
    pub component: String,
    /// The component file's sha256, lower-case hex.
    pub sha256: String,
    /// The gate's configuration, handed to it as JSON.
    pub config: Option<Value>,
    /// State keys the gate is granted.
    pub state: Vec<String>,
}

#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum CommandTag {
    Command,
}

#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum WasmTag {
    Wasm,
}

/// A command hook, as the existing registry writes it.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct CommandEntry {
    id: String,
    /// `command`, or absent.
    #[serde(rename = "type", default)]
    #[allow(dead_code)]
    kind: Option<CommandTag>,
    /// A shell command line, run with `/bin/sh -c`.
    command: String,
    /// Seconds.
    #[serde(default)]
    timeout: Option<f64>,
    #[serde(default)]
    blocking: Option<bool>,
    /// Mentioned by the existing format; Tama ignores it.
    #[serde(default)]
    #[allow(dead_code)]
    interval: Option<Value>,
}

/// A WebAssembly gate.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct WasmEntry {
    id: String,
    #[serde(rename = "type")]
    #[allow(dead_code)]
    kind: WasmTag,
    /// The component file, relative to the registry's folder and inside it.
    component: String,
    /// The component file's sha256, lower-case hex.
    sha256: String,
    #[serde(default)]
    config: Option<Value>,
    #[serde(default)]
    state: Vec<String>,
    #[serde(default)]
    timeout: Option<f64>,
    #[serde(default)]
    blocking: Option<bool>,
}

/// Parsed straight into the shape its `type` names: `wasm`, or `command`
/// (also when there is no `type`, as in the existing format).
impl<'de> Deserialize<'de> for HookEntry {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let fields = serde_json::Map::<String, Value>::deserialize(deserializer)?;
        let entry = Value::Object(fields);
        match entry.get("type") {
            None | Some(Value::Null) => command_entry(entry).map_err(D::Error::custom),
            Some(Value::String(kind)) if kind == "command" => {
                command_entry(entry).map_err(D::Error::custom)
            }
            Some(Value::String(kind)) if kind == "wasm" => {
                let wasm = WasmEntry::deserialize(entry).map_err(D::Error::custom)?;
                Ok(HookEntry {
                    id: wasm.id,
                    timeout: wasm.timeout,
                    blocking: wasm.blocking,
                    run: HookRun::Wasm(WasmHook {
                        component: wasm.component,
                        sha256: wasm.sha256,
                        config: wasm.config,
                        state: wasm.state,
                    }),
                })
            }
            Some(other) => Err(D::Error::custom(format!(
                "unknown hook type {other}: expected \"command\" or \"wasm\""
            ))),
        }
    }
}

fn command_entry(entry: Value) -> Result<HookEntry, serde_json::Error> {
    let command = CommandEntry::deserialize(entry)?;
    Ok(HookEntry {
        id: command.id,
        timeout: command.timeout,
        blocking: command.blocking,
        run: HookRun::Command {
            command: command.command,
        },
    })
}

impl JsonSchema for HookEntry {
    fn schema_name() -> Cow<'static, str> {
        "HookEntry".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A command hook (`type` absent or `command`) or a wasm gate (`type: wasm`).",
            "oneOf": [generator.subschema_for::<CommandEntry>(), generator.subschema_for::<WasmEntry>()]
        })
    }
}

/// Provider config paths, as the existing installer records them.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Adapters {
    #[serde(default)]
    pub claude: Option<Adapter>,
    #[serde(default)]
    pub codex: Option<Adapter>,
    #[serde(default)]
    pub omp: Option<Adapter>,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Adapter {
    pub path: String,
}

/// The human-auditable record of the existing format.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Catalog {
    #[serde(default)]
    pub version: Option<Value>,
    #[serde(default)]
    pub agent_hooks: Vec<AgentHook>,
    #[serde(default)]
    pub git_hooks: Vec<GitHook>,
    /// Where editor integrations attach; kept as it is.
    #[serde(default)]
    pub editor_adapters: Option<Value>,
    /// Where oh-my-pi integrations attach; kept as it is.
    #[serde(default)]
    pub omp_adapters: Option<Value>,
    #[serde(default)]
    pub maintained_in: Option<String>,
    #[serde(default)]
    pub generated_docs: Option<String>,
    #[serde(default)]
    pub updated_at: Option<String>,
    #[serde(default)]
    pub notes: Option<Value>,
}

/// One approved agent hook.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AgentHook {
    pub id: String,
    #[serde(default)]
    pub command: Option<String>,
    /// The hook's source file, which a relative command resolves against first.
    #[serde(default)]
    pub source: Option<String>,
    #[serde(rename = "type", default)]
    pub kind: Option<String>,
    #[serde(default)]
    pub occurrences: Vec<Occurrence>,
    #[serde(default)]
    pub category: Option<String>,
    #[serde(default)]
    pub status: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub why: Option<String>,
    #[serde(default)]
    pub side_effects: Option<String>,
    #[serde(default)]
    pub aliases: Vec<String>,
    #[serde(default)]
    pub justification_requirements: Vec<JustificationRequirement>,
}

/// One event binding of an agent hook.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Occurrence {
    pub event: String,
    #[serde(default)]
    pub blocking: Option<bool>,
    #[serde(default)]
    pub timeout: Option<f64>,
    #[serde(default)]
    pub status_message: Option<String>,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct JustificationRequirement {
    #[serde(default)]
    pub kind: Option<String>,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub registry_path: Option<String>,
    #[serde(default)]
    pub field: Option<String>,
    #[serde(default)]
    pub minimum_words: Option<u64>,
    #[serde(default)]
    pub direct_user_quote_field: Option<String>,
}

/// One git hook the existing installer records.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GitHook {
    pub id: String,
    #[serde(default)]
    pub event: Option<String>,
    #[serde(default)]
    pub scope: Option<String>,
    #[serde(default)]
    pub hooks_path: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub category: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub why: Option<String>,
    #[serde(default)]
    pub side_effects: Option<String>,
}

impl HookEntry {
    pub fn kind(&self) -> HookKind {
        match self.run {
            HookRun::Command { .. } => HookKind::Command,
            HookRun::Wasm(_) => HookKind::Wasm,
        }
    }

    /// The command line of a command hook.
    pub fn command(&self) -> Option<&str> {
        match &self.run {
            HookRun::Command { command } => Some(command),
            HookRun::Wasm(_) => None,
        }
    }

    /// The gate of a wasm hook.
    pub fn wasm(&self) -> Option<&WasmHook> {
        match &self.run {
            HookRun::Wasm(wasm) => Some(wasm),
            HookRun::Command { .. } => None,
        }
    }
}

impl Registry {
    /// Every hook entry with `id`, in event order.
    pub fn hooks_named<'a>(&'a self, id: &'a str) -> impl Iterator<Item = &'a HookEntry> + 'a {
        self.events
            .values()
            .flat_map(|e| &e.hooks)
            .filter(move |h| h.id == id)
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

    /// Checks what serde cannot: every event is one Tama knows, every
    /// command hook has a command, and every component stays in the registry's folder.
    pub fn validate(&self) -> Result<(), String> {
        for (event, hooks) in &self.events {
            if crate::event::EventName::parse(event).is_none() {
                return Err(format!("events: unknown event `{event}`"));
            }
            for (index, hook) in hooks.hooks.iter().enumerate() {
                match &hook.run {
                    HookRun::Command { command } if command.trim().is_empty() => {
                        return Err(format!(
                            "events.{event}.hooks[{index}]: command hook {} has no command",
                            hook.id
                        ));
                    }
                    HookRun::Command { .. } => {}
                    HookRun::Wasm(wasm) => super::component::relative(&wasm.component)
                        .map(|_| ())
                        .map_err(|why| {
                            format!(
                                "events.{event}.hooks[{index}]: wasm hook {} component {:?} {why}",
                                hook.id, wasm.component
                            )
                        })?,
                }
            }
        }
        Ok(())
    }

    /// The catalog's `source` for a hook id, which a relative command resolves against first.
    pub fn catalog_source(&self, id: &str) -> Option<&str> {
        let hook = self
            .catalog
            .as_ref()?
            .agent_hooks
            .iter()
            .find(|h| h.id == id)?;
        hook.source.as_deref().filter(|s| !s.is_empty())
    }
}

/// The registry's JSON Schema, generated from these types.
pub fn schema() -> String {
    let schema = schemars::schema_for!(Registry);
    serde_json::to_string_pretty(&schema)
        .map(|text| text + "\n")
        .unwrap_or_default()
}
