//! One event through the hooks its registry names: in registry order for a
//! tool call, the first refusal ending it; for a stop, the in-process gates
//! first, then every command hook side by side.

mod decision;
mod hook;
pub mod select;
mod watch;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

pub use decision::{Decision, HookOutcome, HookRecord, Outcome};
pub use select::Selection;
pub use watch::{Unwatched, Watch};

use crate::INFRASTRUCTURE;
use crate::event::Event;
use crate::registry::{HookKind, Loaded};
use crate::wasm::{ClassifyError, Gate, GateEvent, Host, StateSource};

/// The tool declaration's id in records of a call it could not read.
const DECLARATION_ID: &str = "tool-declaration";

/// The wasm host, started on first use and shared by every generation of a
/// serving engine, so a reload never recreates the engine.
pub type SharedHost = Arc<OnceLock<Result<Host, String>>>;

/// One registry generation with its loaded gates.
pub struct Dispatcher {
    registry: Loaded,
    host: SharedHost,
    gates: Mutex<HashMap<String, Arc<Gate>>>,
    state: Arc<dyn StateSource>,
}

impl Dispatcher {
    pub fn new(registry: Loaded, state: Arc<dyn StateSource>) -> Self {
        Self::with_host(registry, state, SharedHost::default())
    }

    pub fn with_host(registry: Loaded, state: Arc<dyn StateSource>, host: SharedHost) -> Self {
        Dispatcher { registry, host, gates: Mutex::new(HashMap::new()), state }
    }

    pub fn registry(&self) -> &Loaded {
        &self.registry
    }

    /// The wasm host, started on first use so command-only events never pay for it.
    fn host(&self) -> Result<&Host, String> {
        self.host
            .get_or_init(|| {
                Host::new(crate::paths::cache_dir(), &crate::registry::tool_declaration())
                    .map_err(|e| format!("{INFRASTRUCTURE}: starting the wasm host: {e:#}"))
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Decides `event` with the hooks `selection` allows.
    pub fn dispatch(&self, event: Event, selection: &Selection) -> Decision {
        self.dispatch_watched(event, selection, &Unwatched)
    }

    /// [`Dispatcher::dispatch`], telling `watch` what runs. A refusal also
    /// names the session records the selection refused.
    pub fn dispatch_watched(&self, event: Event, selection: &Selection, watch: &dyn Watch) -> Decision {
        let mut decision = self.decide(event, selection, watch);
        if let (true, Some(reason)) = (decision.is_block(), decision.reason.as_mut()) {
            for refused in &selection.refused {
                reason.push_str(&format!("\n{refused}"));
            }
        }
        decision
    }

    fn decide(&self, event: Event, selection: &Selection, watch: &dyn Watch) -> Decision {
        let started = Instant::now();
        let mut decision = Decision {
            decision: Outcome::Allow,
            reason: None,
            hook_id: None,
            event: event.name.clone(),
            session_id: event.session_id.clone(),
            agent_id: event.agent_id.clone(),
            release_id: self.registry.registry.release_id.clone(),
            catalog_checksum: self.registry.registry.catalog_checksum.clone(),
            results: Vec::new(),
        };
        let gate_event = match self.prepare(event) {
            Ok(prepared) => prepared,
            Err(reason) => return refuse(decision, DECLARATION_ID, reason),
        };
        let tool = gate_event.tool_call().and_then(|t| t.ok());
        let hooks: Vec<_> = select::hooks_for(&self.registry.registry, &decision.event, tool.as_ref())
            .into_iter()
            .filter(|(_, hook)| selection.allows(&hook.id))
            .map(|(event_hooks, hook)| (hook, hook.blocking.unwrap_or(event_hooks.blocking)))
            .collect();
        if hooks.iter().any(|(hook, _)| hook.kind() == HookKind::Command) {
            watch.will_run_commands();
        }
        let payload = gate_event.event().payload.to_string();
        let run = |(hook, blocking): &(&crate::registry::HookEntry, bool)| {
            hook::run(self, hook, *blocking, &gate_event, payload.as_bytes(), started, watch)
        };
        if decision.event == "stop" {
            // In-process gates first: a refusal there starts no command hook.
            let (gates, commands): (Vec<&(&crate::registry::HookEntry, bool)>, Vec<_>) = hooks.iter().partition(|(h, _)| h.kind() == HookKind::Wasm);
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
            if commands.first().is_none_or(|first| watch.proceed(&first.0.id)) {
                let side_by_side: Vec<HookRecord> = std::thread::scope(|scope| {
                    let running: Vec<_> = commands.iter().map(|hook| (hook, std::thread::Builder::new().spawn_scoped(scope, move || run(hook)))).collect();
                    // A hook whose thread cannot start runs on this one once the others started.
                    running.into_iter().map(|(hook, r)| r.map_or_else(|_| run(hook), |r| r.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))).collect()
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

    /// Classifies the event's tool call once, for matching and for every gate.
    fn prepare(&self, event: Event) -> Result<Arc<GateEvent>, String> {
        let (Some(name), Some(input)) = (event.tool_name.clone(), event.tool_input.as_ref()) else {
            return Ok(Arc::new(GateEvent::new(event)));
        };
        let host = self.host()?;
        let tool_call = host.classify(&name, &input.to_string());
        if let Err(err) = &tool_call {
            return Err(match err {
                ClassifyError::Protocol(why) => format!("{DECLARATION_ID}: the {name} call cannot be read: {why}"),
                ClassifyError::Failed(why) => format!("{INFRASTRUCTURE}: {why}"),
            });
        }
        Ok(Arc::new(GateEvent::classified(event, tool_call)))
    }

    /// The loaded gate of a wasm hook, loaded once per generation.
    fn gate(&self, hook: &crate::registry::HookEntry) -> Result<Arc<Gate>, String> {
        if let Some(gate) = self.gates.lock().expect("gate cache lock").get(&hook.id) {
            return Ok(gate.clone());
        }
        let host = self.host()?;
        let source = self.registry.component(hook).map_err(|e| format!("{INFRASTRUCTURE}: gate {} {e}", hook.id))?;
        let config = hook.config.clone().unwrap_or(serde_json::Value::Null);
        let gate = Gate::load(host, &hook.id, &source, &config, &hook.state)
            .map_err(|fault| format!("{INFRASTRUCTURE}: gate {} {fault}", hook.id))?;
        let gate = Arc::new(gate);
        self.gates.lock().expect("gate cache lock").insert(hook.id.clone(), gate.clone());
        Ok(gate)
    }
}

/// Whether a record refuses the event: a blocking hook that refused or failed.
fn blocks(record: &HookRecord) -> bool {
    record.blocking && matches!(record.decision, HookOutcome::Block | HookOutcome::Error)
}

/// Blocks when any record blocks: the reasons in registry order, the first
/// hook named. Otherwise a hook that was ended makes the event cancelled,
/// never a pass.
fn conclude(mut decision: Decision) -> Decision {
    let refusing: Vec<&HookRecord> = decision.results.iter().filter(|r| blocks(r)).collect();
    let cancelled: Vec<&HookRecord> = decision.results.iter().filter(|r| r.decision == HookOutcome::Cancelled).collect();
    let (outcome, named) = match (refusing.is_empty(), cancelled.is_empty()) {
        (false, _) => (Outcome::Block, refusing),
        (true, false) => (Outcome::Cancelled, cancelled),
        (true, true) => return decision,
    };
    decision.hook_id = Some(named[0].hook_id.clone());
    decision.reason = Some(named.iter().map(|r| r.refusal_text()).collect::<Vec<_>>().join("\n"));
    decision.decision = outcome;
    decision
}

fn refuse(mut decision: Decision, hook_id: &str, reason: String) -> Decision {
    decision.decision = Outcome::Block;
    decision.hook_id = Some(hook_id.to_string());
    decision.reason = Some(reason);
    decision
}
