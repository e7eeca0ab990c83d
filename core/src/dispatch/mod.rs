//! One event through the hooks its registry names: in registry order for a
//! tool call, the first refusal ending it; for a stop, the in-process gates
//! first, then every command hook side by side.

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

mod decision;
mod hook;
pub mod select;
mod watch;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

pub use decision::{Decision, EnvError, Fault, HookOutcome, HookRecord, Infrastructure, Outcome};
pub use hook::hook_timeout;
pub use select::Selection;
pub use watch::{Unwatched, Watch};

use crate::event::{Event, EventName};
use crate::registry::{HookEntry, HookKind, Loaded};
use crate::wasm::{ClassifyError, Gate, GateEvent, Host, Instances, StateSource};

/// The tool declaration's id in records of a call it could not read.
const DECLARATION_ID: &str = "tool-declaration";

/// The wasm host, started on first use and shared by every generation of a
/// serving engine, so a reload never recreates the engine.
pub type SharedHost = Arc<OnceLock<Result<Host, String>>>;

/// One registry generation with its loaded gates.
pub struct Dispatcher {
    registry: Loaded,
    host: SharedHost,
    instances: Instances,
    gates: Mutex<HashMap<String, Arc<Gate>>>,
    state: Arc<dyn StateSource>,
}

impl Dispatcher {
    /// A dispatcher for a process that decides one event.
    pub fn new(registry: Loaded, state: Arc<dyn StateSource>) -> Self {
        Dispatcher {
            instances: Instances::OneEvent,
            ..Self::with_host(registry, state, SharedHost::default())
        }
    }

    /// A dispatcher of a serving engine, sharing its `host` with every generation.
    pub fn with_host(registry: Loaded, state: Arc<dyn StateSource>, host: SharedHost) -> Self {
        Dispatcher {
            registry,
            host,
            instances: Instances::Serving,
            gates: Mutex::new(HashMap::new()),
            state,
        }
    }

    pub fn registry(&self) -> &Loaded {
        &self.registry
    }

    /// The wasm host, started on first use so command-only events never pay for it.
    fn host(&self) -> Result<&Host, Fault> {
        self.host
            .get_or_init(|| {
                Host::for_instances(
                    crate::paths::cache_dir(),
                    &crate::registry::tool_declaration(),
                    self.instances,
                )
                .map_err(|e| format!("{e:#}"))
            })
            .as_ref()
            .map_err(|why| Fault::WasmHost(why.clone()))
    }

    /// Decides `event` with the hooks `selection` allows.
    pub fn dispatch(&self, event: Event, selection: &Selection) -> Decision {
        self.dispatch_watched(event, selection, &Unwatched)
    }

    /// [`Dispatcher::dispatch`], telling `watch` what runs. A refusal also
    /// names the session records the selection refused.
    pub fn dispatch_watched(
        &self,
        event: Event,
        selection: &Selection,
        watch: &dyn Watch,
    ) -> Decision {
        let mut decision = self.decide(event, selection, watch);
        if !selection.refused.is_empty() {
            decision.note_refused_records(&selection.refused);
        }
        decision
    }

    fn decide(&self, event: Event, selection: &Selection, watch: &dyn Watch) -> Decision {
        let started = Instant::now();
        let mut decision = Decision {
            outcome: Outcome::Pass,
            event: Some(event.name),
            session_id: event.session_id.clone(),
            agent_id: event.agent_id.clone(),
            release_id: self.registry.registry.release_id.clone(),
            catalog_checksum: self.registry.registry.catalog_checksum.clone(),
            results: Vec::new(),
        };
        let name = event.name;
        let gate_event = match self.prepare(event) {
            Ok(prepared) => prepared,
            Err(unread) if select::any_blocking(&self.registry.registry, name, selection) => {
                decision.outcome = unread;
                return decision;
            }
            Err(_) => return decision,
        };
        let tool = gate_event.tool_call().and_then(|t| t.ok());
        let hooks: Vec<_> = select::hooks_for(&self.registry.registry, name, tool.as_ref())
            .into_iter()
            .filter(|(_, hook)| selection.allows(&hook.id))
            .map(|(event_hooks, hook)| (hook, hook.blocking.unwrap_or(event_hooks.blocking)))
            .collect();
        if hooks
            .iter()
            .any(|(hook, _)| hook.kind() == HookKind::Command)
        {
            watch.will_run_commands();
        }
        let payload = gate_event.payload_json();
        let run = |(hook, blocking): &(&HookEntry, bool)| {
            hook::run(
                self,
                hook,
                *blocking,
                &gate_event,
                payload.as_bytes(),
                started,
                watch,
            )
        };
        if name == EventName::Stop {
            // In-process gates first: a refusal there starts no command hook.
            let (gates, commands): (Vec<&(&HookEntry, bool)>, Vec<_>) =
                hooks.iter().partition(|(h, _)| h.kind() == HookKind::Wasm);
            for gate in &gates {
                if !watch.proceed(&gate.0.id) {
                    break;
                }
                decision.results.push(run(gate));
                if decision.results.last().is_some_and(blocks) {
                    watch.hooks_ended();
                    return conclude(decision);
                }
            }
            if commands
                .first()
                .is_none_or(|first| watch.proceed(&first.0.id))
            {
                let side_by_side: Vec<HookRecord> = std::thread::scope(|scope| {
                    let running: Vec<_> = commands
                        .iter()
                        .map(|hook| {
                            (
                                hook,
                                std::thread::Builder::new().spawn_scoped(scope, move || run(hook)),
                            )
                        })
                        .collect();
                    // A hook whose thread cannot start runs on this one once the others started.
                    running
                        .into_iter()
                        .map(|(hook, thread)| match thread {
                            Ok(thread) => {
                                thread.join().unwrap_or_else(|_| panicked(hook.0, hook.1))
                            }
                            Err(_) => run(hook),
                        })
                        .collect()
                });
                decision.results.extend(side_by_side);
            }
            watch.hooks_ended();
            return conclude(decision);
        }
        for hook in &hooks {
            if !watch.proceed(&hook.0.id) {
                break;
            }
            decision.results.push(run(hook));
            if decision.results.last().is_some_and(blocks) {
                break;
            }
        }
        watch.hooks_ended();
        conclude(decision)
    }

    /// Classifies the event's tool call once, for matching and for every
    /// gate. A tool event whose call cannot be read is the outcome it
    /// gets on a blocking event.
    fn prepare(&self, event: Event) -> Result<Arc<GateEvent>, Outcome> {
        if !event.name.is_tool_call() {
            return Ok(Arc::new(GateEvent::new(event)));
        }
        let unreadable = |why: String| Outcome::Refused {
            hook_id: DECLARATION_ID.to_string(),
            reason: format!("{DECLARATION_ID}: {why}"),
        };
        let name = match (
            event.tool_name.clone().filter(|n| !n.trim().is_empty()),
            event.tool_input(),
        ) {
            (Some(name), Some(input)) if input.is_object() => name,
            (None, _) => {
                return Err(unreadable(format!(
                    "the {} event names no tool, so its call cannot be read",
                    event.name
                )));
            }
            (Some(name), Some(input)) => {
                return Err(unreadable(format!(
                    "the {name} call cannot be read: its tool input is {}, not a JSON object",
                    kind_of(input)
                )));
            }
            (Some(name), None) => {
                let elsewhere = event
                    .payload
                    .as_object()
                    .into_iter()
                    .flat_map(|o| o.keys())
                    .find(|k| k.eq_ignore_ascii_case("toolinput"));
                let why = match elsewhere {
                    Some(key) => format!(
                        "its input is under `{key}`, which is not where {DECLARATION_ID} reads a tool input (`tool_input`, `input` or `arguments`)"
                    ),
                    None => {
                        "it has no tool input (`tool_input`, `input` or `arguments`)".to_string()
                    }
                };
                return Err(unreadable(format!("the {name} call cannot be read: {why}")));
            }
        };
        let host = self
            .host()
            .map_err(|fault| Outcome::Infrastructure(Infrastructure::new(fault)))?;
        // The input is serialized once, for the declaration and every gate.
        let prepared = GateEvent::new(event);
        let input = prepared.tool_input_json().unwrap_or("null");
        match host.classify(&name, input) {
            Ok(call) => Ok(Arc::new(prepared.with_tool_call(Ok(call)))),
            Err(ClassifyError::Protocol(why)) => {
                Err(unreadable(format!("the {name} call cannot be read: {why}")))
            }
            Err(ClassifyError::Failed(why)) => {
                let mut fault = Infrastructure::new(Fault::Declaration { tool: name, why });
                fault.hook_id = Some(DECLARATION_ID.to_string());
                Err(Outcome::Infrastructure(fault))
            }
        }
    }

    /// The loaded gate of a wasm hook, loaded once per generation.
    fn gate(&self, hook: &HookEntry) -> Result<Arc<Gate>, Fault> {
        let cached = |gates: &HashMap<String, Arc<Gate>>| gates.get(&hook.id).cloned();
        if let Some(gate) = cached(&lock(&self.gates)) {
            return Ok(gate);
        }
        let host = self.host()?;
        let source = self
            .registry
            .gate_component(hook)
            .map_err(|source| Fault::Component {
                id: hook.id.clone(),
                source,
            })?;
        let (config, state) = match hook.wasm() {
            Some(wasm) => (
                wasm.config.clone().unwrap_or(serde_json::Value::Null),
                wasm.state.as_slice(),
            ),
            None => (serde_json::Value::Null, &[][..]),
        };
        let load = match self.instances {
            Instances::OneEvent => Gate::load_for_one_event,
            Instances::Serving => Gate::load,
        };
        let gate = load(host, &hook.id, &source, &config, state)
            .map_err(|source| Fault::Gate {
                id: hook.id.clone(),
                source,
            })?
            .in_registry(&self.registry);
        let gate = Arc::new(gate);
        lock(&self.gates).insert(hook.id.clone(), gate.clone());
        Ok(gate)
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn kind_of(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

/// The record of a hook whose supervising thread panicked: it did not judge.
fn panicked(hook: &HookEntry, blocking: bool) -> HookRecord {
    let mut record = hook::record(hook, blocking, 0);
    record.failed(Fault::Hook {
        id: hook.id.clone(),
        why: "lost its supervising thread to a panic".into(),
    });
    record
}

/// Whether a record refuses the event: a blocking hook that refused or failed.
fn blocks(record: &HookRecord) -> bool {
    record.blocking && matches!(record.decision, HookOutcome::Block | HookOutcome::Error)
}

/// Blocks when any record blocks: the first refusing hook, in registry
/// order, names the outcome (a policy refusal or Tama's own fault), and the
/// reasons of every refusing hook are kept. Otherwise a hook that was ended
/// makes the event cancelled, never a pass.
fn conclude(mut decision: Decision) -> Decision {
    let refusing: Vec<&HookRecord> = decision.results.iter().filter(|r| blocks(r)).collect();
    if let Some((first, rest)) = refusing.split_first() {
        decision.outcome = match &first.fault {
            Some(fault) => {
                let mut fault = fault.clone();
                fault.further = rest.iter().map(|r| r.refusal_text()).collect();
                Outcome::Infrastructure(fault)
            }
            None => Outcome::Refused {
                hook_id: first.hook_id.clone(),
                reason: refusing
                    .iter()
                    .map(|r| r.refusal_text())
                    .collect::<Vec<_>>()
                    .join("\n"),
            },
        };
        return decision;
    }
    let cancelled: Vec<&HookRecord> = decision
        .results
        .iter()
        .filter(|r| r.decision == HookOutcome::Cancelled)
        .collect();
    if let Some(first) = cancelled.first() {
        let reason = cancelled
            .iter()
            .map(|r| r.refusal_text())
            .collect::<Vec<_>>()
            .join("\n");
        decision.outcome = Outcome::Cancelled {
            hook_id: Some(first.hook_id.clone()),
            reason,
        };
    }
    decision
}
