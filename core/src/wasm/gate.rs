//! One gate: loaded once with its configuration, evaluated in a fresh
//! instance per event (a built-in gate may answer in an idle one, `idle.rs`).

use std::sync::{Arc, OnceLock};

use wasmtime::Store;

use super::bindings::gate::tama::gate::{
    declaration as wit_decl, files, host_paths, log, state as wit_state, types,
};
use super::bindings::gate::{GatePre, tama::gate::types::Verdict as WitVerdict};
use super::declaration::{ClassifyError, Declaration};
use super::host_paths::{Handed, HostPaths};
use super::idle::{Idle, KEPT_MEMORY};
use super::sandbox::{DEADLINE_TICKS, MEMORY_BOUND, STACK_BOUND, Sandboxed, TIME_BOUND};
use super::slots::Slots;
use super::state::StateSource;
use super::ticker::Ticker;
use super::{ComponentBytes, Host, fault};
use crate::event::{Event, json_text};
use crate::tool::{ToolCall, ToolKind};

/// What a gate decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Pass,
    Refuse(String),
}

/// Why a gate could not decide. Never a pass: Tama refuses on its behalf.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GateFault {
    #[error("could not be loaded: {0}")]
    Load(String),
    #[error("rejected its configuration: {0}")]
    Config(String),
    #[error("could not read the event: {0}")]
    InvalidInput(String),
    #[error("failed: {0}")]
    Failed(String),
    #[error("trapped: {0}")]
    Trap(String),
    #[error("ran past its execution bound of {} ms", TIME_BOUND.as_millis())]
    TimeBound,
    #[error("hit its memory bound of {} MiB", MEMORY_BOUND >> 20)]
    MemoryBound,
    #[error("overflowed its stack bound of {} KiB", STACK_BOUND >> 10)]
    StackBound,
}

/// A loaded gate, ready to evaluate events.
pub struct Gate {
    id: String,
    pre: GatePre<Sandboxed<GateContext>>,
    config: String,
    grants: Arc<[String]>,
    declaration: Arc<Declaration>,
    slots: Arc<Slots>,
    paths: Arc<Handed>,
    ticker: Arc<Ticker>,
    /// The configuration is still to be checked, in the instance of the
    /// gate's one evaluation (see [`Gate::load_for_one_event`]).
    check_config_first: bool,
    /// Tama's own code, built into `tama`: it may read the files a command
    /// runs, and keep idle instances.
    builtin: bool,
    /// Instances that answered an earlier event, for a built-in gate only.
    idle: Option<Idle<GateInstance>>,
}

type GateInstance = (Store<Sandboxed<GateContext>>, super::bindings::gate::Gate);

/// An event prepared once for every gate that evaluates it.
pub struct GateEvent {
    event: Event,
    wit: types::Event,
    tool_call: OnceLock<Result<ToolCall, ClassifyError>>,
}

impl GateEvent {
    pub fn new(event: Event) -> Self {
        let wit = types::Event {
            name: event.name.to_string(),
            session_id: event.session_id.clone(),
            agent_id: event.agent_id.clone(),
            tool_name: event.tool_name.clone(),
            tool_input: event.tool_input().map(json_text),
            payload: json_text(&event.payload),
        };
        GateEvent {
            event,
            wit,
            tool_call: OnceLock::new(),
        }
    }

    /// The event a gate's configuration is checked with: named
    /// `validate_config`, carrying nothing.
    fn probe() -> Self {
        let mut probe = GateEvent::new(Event {
            name: crate::event::EventName::SessionStart,
            session_id: None,
            agent_id: None,
            tool_name: None,
            payload: serde_json::Value::Null,
            capability: None,
        });
        probe.wit.name = "validate_config".into();
        probe
    }

    /// The event an idle instance holds between events: nothing.
    fn blank() -> Arc<Self> {
        static BLANK: OnceLock<Arc<GateEvent>> = OnceLock::new();
        BLANK.get_or_init(|| Arc::new(GateEvent::probe())).clone()
    }

    /// An event whose tool call the engine already classified.
    pub fn classified(event: Event, tool_call: Result<ToolCall, ClassifyError>) -> Self {
        GateEvent::new(event).with_tool_call(tool_call)
    }

    /// This event with its tool call as the engine classified it.
    pub fn with_tool_call(self, tool_call: Result<ToolCall, ClassifyError>) -> Self {
        let _ = self.tool_call.set(tool_call);
        self
    }

    pub fn event(&self) -> &Event {
        &self.event
    }

    /// The event's payload as JSON text, as gates and command hooks are handed it.
    pub fn payload_json(&self) -> &str {
        &self.wit.payload
    }

    /// The event's tool input as JSON text, as gates are handed it.
    pub fn tool_input_json(&self) -> Option<&str> {
        self.wit.tool_input.as_deref()
    }

    /// The tool declaration's reading of this event's tool call, when it was asked.
    pub fn tool_call(&self) -> Option<Result<ToolCall, ClassifyError>> {
        self.tool_call.get().cloned()
    }

    /// The tool declaration's reading of this event's own tool call, asked once.
    fn classify(
        &self,
        declaration: &Declaration,
        name: &str,
        input: &str,
    ) -> Result<ToolCall, ClassifyError> {
        if self.wit.tool_name.as_deref() != Some(name)
            || self.wit.tool_input.as_deref() != Some(input)
        {
            return declaration.classify(name, input);
        }
        self.tool_call
            .get_or_init(|| declaration.classify(name, input))
            .clone()
    }
}

/// Store data of one gate call.
pub struct GateContext {
    declaration: Arc<Declaration>,
    event: Arc<GateEvent>,
    grants: Arc<[String]>,
    state: Arc<dyn StateSource>,
    gate_id: String,
    paths: Arc<Handed>,
    /// The gate is built into `tama`, so may read the files a command runs.
    reads_files: bool,
}

impl Gate {
    /// Loads the gate `id` from `source` and has it check `config`, in an
    /// instance of its own.
    pub fn load(
        host: &Host,
        id: &str,
        source: &ComponentBytes,
        config: &serde_json::Value,
        grants: &[String],
    ) -> Result<Gate, GateFault> {
        let gate = Gate::prepare(host, id, source, config, grants)?;
        let probe = Arc::new(GateEvent::probe());
        let ticker = gate.ticker.clone();
        let _ticking = ticker.calling();
        let (mut store, instance) = gate.instantiate(probe, Arc::new(super::NoState))?;
        let checked = gate.check_config(&mut store, &instance);
        gate.forward_output(&store);
        checked.map(|()| gate)
    }

    /// [`Gate::load`] for a process that evaluates the gate once: `config`
    /// is checked in the instance of that evaluation, just before it, and a
    /// configuration the gate rejects fails the evaluation. One instance
    /// fewer for the one event such a process decides.
    pub fn load_for_one_event(
        host: &Host,
        id: &str,
        source: &ComponentBytes,
        config: &serde_json::Value,
        grants: &[String],
    ) -> Result<Gate, GateFault> {
        let mut gate = Gate::prepare(host, id, source, config, grants)?;
        gate.check_config_first = true;
        Ok(gate)
    }

    /// The gate `id` from `source`, its configuration not yet checked.
    fn prepare(
        host: &Host,
        id: &str,
        source: &ComponentBytes,
        config: &serde_json::Value,
        grants: &[String],
    ) -> Result<Gate, GateFault> {
        let load = |e: wasmtime::Error| GateFault::Load(format!("{e:#}"));
        let component = host.component(source).map_err(load)?;
        let instance_pre = host
            .gate_linker(&component)
            .and_then(|linker| linker.instantiate_pre(&component))
            .map_err(load)?;
        let pre = GatePre::new(instance_pre).map_err(|e| {
            GateFault::Load(format!(
                "it does not implement the tama:gate/gate world: {e:#}"
            ))
        })?;
        let builtin = crate::registry::builtin_with_digest(&source.sha256).is_some();
        let gate = Gate {
            id: id.to_string(),
            pre,
            config: config.to_string(),
            grants: grants.into(),
            declaration: host.declaration().clone(),
            slots: host.gate_slots.clone(),
            paths: Arc::new(Handed::new(HostPaths::clone(&host.paths))),
            ticker: host.ticker.clone(),
            check_config_first: false,
            builtin,
            idle: builtin.then(Idle::new),
        };
        Ok(gate)
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    /// This gate, told that `registry` is the registry in use.
    pub fn in_registry(self, registry: &crate::registry::Loaded) -> Self {
        let paths = self.paths.paths().in_use(registry);
        self.with_paths(paths)
    }

    /// This gate, handed `paths` as the paths Tama runs on. Instances kept
    /// under the earlier paths go: an instance is handed the same paths on
    /// every call (`wit/gate.wit`), and a gate may have kept them.
    pub fn with_paths(mut self, paths: HostPaths) -> Self {
        self.paths = Arc::new(Handed::new(paths));
        if self.idle.is_some() {
            self.idle = Some(Idle::new());
        }
        self
    }

    /// Decides `event` in a fresh instance, or a built-in gate's idle one
    /// (checking the configuration in it first, for a gate loaded by
    /// [`Gate::load_for_one_event`]).
    pub fn evaluate(
        &self,
        event: &Arc<GateEvent>,
        state: Arc<dyn StateSource>,
    ) -> Result<Verdict, GateFault> {
        let _slot = self.slots.take();
        let _ticking = self.ticker.calling();
        let idle = self.idle.as_ref().and_then(Idle::take);
        let (mut store, instance) = match idle {
            Some((mut store, instance)) => {
                store.data_mut().host = self.context(event.clone(), state);
                store.set_epoch_deadline(DEADLINE_TICKS);
                (store, instance)
            }
            None => self.instantiate(event.clone(), state)?,
        };
        let verdict = self.decide(&mut store, &instance, event);
        self.forward_output(&store);
        self.put_away((store, instance), verdict.is_ok());
        verdict
    }

    /// Bytes of linear memory each idle instance of a built-in gate holds:
    /// a kept instance must not grow from one event to the next.
    pub fn idle_memory(&self) -> Vec<usize> {
        self.idle.as_ref().map_or_else(Vec::new, |idle| {
            idle.each(|(store, _)| store.data().bounds.memory_total())
        })
    }

    /// Keeps an instance whose call `answered` for the next event, when it
    /// may be (see `idle.rs`), holding nothing of this event; else drops it
    /// once the caller answered.
    fn put_away(&self, (mut store, instance): GateInstance, answered: bool) {
        let data = store.data();
        let keepable =
            answered && !data.made_wasi_calls() && data.bounds.memory_total() <= KEPT_MEMORY;
        let spent = match &self.idle {
            Some(idle) if keepable => {
                // The event is freed with the dispatch, on its own thread,
                // not by whichever thread takes this instance next.
                store.data_mut().host.event = GateEvent::blank();
                idle.keep((store, instance))
            }
            _ => Some((store, instance)),
        };
        if let Some((store, _)) = spent {
            super::spent::keep(store);
        }
    }

    /// The configuration check of [`Gate::load_for_one_event`], then the
    /// evaluation, in `instance`.
    fn decide(
        &self,
        store: &mut Store<Sandboxed<GateContext>>,
        instance: &super::bindings::gate::Gate,
        event: &GateEvent,
    ) -> Result<Verdict, GateFault> {
        if self.check_config_first {
            self.check_config(store, instance)?;
        }
        let answer = instance.call_evaluate(&mut *store, &event.wit, &self.config);
        match answer {
            Ok(Ok(WitVerdict::Pass)) => Ok(Verdict::Pass),
            Ok(Ok(WitVerdict::Refuse(reason))) => Ok(Verdict::Refuse(reason)),
            Ok(Err(types::GateError::InvalidInput(why))) => Err(GateFault::InvalidInput(why)),
            Ok(Err(types::GateError::InvalidConfig(why))) => Err(GateFault::Config(why)),
            Ok(Err(types::GateError::Failed(why))) => Err(GateFault::Failed(why)),
            Err(err) => Err(fault(err, store.data())),
        }
    }

    /// Has `instance` check the gate's configuration.
    fn check_config(
        &self,
        store: &mut Store<Sandboxed<GateContext>>,
        instance: &super::bindings::gate::Gate,
    ) -> Result<(), GateFault> {
        match instance.call_validate_config(&mut *store, &self.config) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(reason)) => Err(GateFault::Config(reason)),
            Err(err) => Err(fault(err, store.data())),
        }
    }

    fn instantiate(
        &self,
        event: Arc<GateEvent>,
        state: Arc<dyn StateSource>,
    ) -> Result<GateInstance, GateFault> {
        let context = self.context(event, state);
        let mut store = Store::new(self.pre.engine(), Sandboxed::new(context));
        store.limiter(|s| &mut s.bounds);
        store.set_epoch_deadline(DEADLINE_TICKS);
        match self.pre.instantiate(&mut store) {
            Ok(instance) => Ok((store, instance)),
            Err(err) => Err(GateFault::Load(format!("{:#}", err))),
        }
    }

    /// What one call of the gate is handed.
    fn context(&self, event: Arc<GateEvent>, state: Arc<dyn StateSource>) -> GateContext {
        GateContext {
            declaration: self.declaration.clone(),
            event,
            grants: self.grants.clone(),
            state,
            gate_id: self.id.clone(),
            paths: self.paths.clone(),
            reads_files: self.builtin,
        }
    }

    /// What the gate printed goes to Tama's log, never to the harness.
    fn forward_output(&self, store: &Store<Sandboxed<GateContext>>) {
        let Some((stdout, stderr)) = store.data().output() else {
            return;
        };
        crate::log::write(&format!("gate {} stdout", self.id), &stdout);
        crate::log::write(&format!("gate {} stderr", self.id), &stderr);
    }
}

impl wit_decl::Host for Sandboxed<GateContext> {
    fn classify(
        &mut self,
        tool_name: String,
        tool_input: String,
    ) -> wasmtime::Result<Result<wit_decl::ToolCall, String>> {
        let ctx = &self.host;
        match ctx
            .event
            .classify(&ctx.declaration, &tool_name, &tool_input)
        {
            Ok(call) => Ok(Ok(to_wit(call))),
            Err(ClassifyError::Protocol(why)) => Ok(Err(why)),
            Err(failed) => Err(wasmtime::format_err!("{failed}")),
        }
    }
}

impl wit_state::Host for Sandboxed<GateContext> {
    fn get(
        &mut self,
        key: String,
    ) -> wasmtime::Result<Result<Option<String>, wit_state::LookupError>> {
        let ctx = &self.host;
        if !ctx.grants.contains(&key) {
            return Ok(Ok(None));
        }
        Ok(ctx
            .state
            .read(&key, ctx.event.event())
            .map_err(wit_state::LookupError::Unreadable))
    }
}

impl log::Host for Sandboxed<GateContext> {
    fn log(&mut self, level: log::Level, message: String) -> wasmtime::Result<()> {
        crate::log::write(&format!("gate {} {level:?}", self.host.gate_id), &message);
        Ok(())
    }
}

impl host_paths::Host for Sandboxed<GateContext> {
    fn get(&mut self) -> wasmtime::Result<host_paths::Paths> {
        Ok(self.host.paths.to_wit())
    }
}

impl files::Host for Sandboxed<GateContext> {
    fn read(&mut self, path: String) -> wasmtime::Result<Result<Option<String>, String>> {
        if !self.host.reads_files {
            return Ok(Ok(None));
        }
        Ok(super::files::read(&path, &self.host.paths.paths().home))
    }

    fn follow(&mut self, path: String) -> wasmtime::Result<Option<String>> {
        if !self.host.reads_files {
            return Ok(None);
        }
        Ok(super::files::follow(&path, &self.host.paths.paths().home))
    }
}

impl types::Host for Sandboxed<GateContext> {}

fn to_wit(call: ToolCall) -> wit_decl::ToolCall {
    wit_decl::ToolCall {
        name: call.name,
        kind: match call.kind {
            ToolKind::Shell => wit_decl::ToolKind::Shell,
            ToolKind::Write => wit_decl::ToolKind::Write,
            ToolKind::Lookup => wit_decl::ToolKind::Lookup,
            ToolKind::Other => wit_decl::ToolKind::Other,
        },
        command: call.command,
        targets: call
            .targets
            .into_iter()
            .map(|t| wit_decl::WriteTarget {
                path: t.path,
                device_action: t.device_action,
                text: t.text,
            })
            .collect(),
    }
}
