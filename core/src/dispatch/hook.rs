//! Running one hook of a dispatch: a wasm gate in-process, or a command in
//! its own process group.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{Dispatcher, Fault, HookOutcome, HookRecord, Watch};
use crate::command::{self, CommandSpec, HookVerdict};
use crate::registry::{HookEntry, HookKind, Origin};
use crate::wasm::{GateEvent, Verdict};

/// A command hook's deadline when its entry names none, as the existing registry has it.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

pub fn run(
    dispatcher: &Dispatcher,
    hook: &HookEntry,
    blocking: bool,
    event: &Arc<GateEvent>,
    payload: &[u8],
    dispatch_start: Instant,
    watch: &dyn Watch,
) -> HookRecord {
    let start = Instant::now();
    let mut record = record(
        hook,
        blocking,
        start.duration_since(dispatch_start).as_millis() as u64,
    );
    let ended = match hook.kind() {
        HookKind::Wasm => {
            watch.hook_started(&hook.id, None, None);
            run_gate(dispatcher, hook, event)
        }
        HookKind::Command => run_command(dispatcher, hook, event, payload, &mut record, watch),
    };
    watch.hook_ended(&hook.id);
    match ended {
        Ended::Pass => record.decision = HookOutcome::Pass,
        Ended::Refused(reason) => {
            record.decision = HookOutcome::Block;
            record.reason = Some(reason);
        }
        Ended::Cancelled(why) => {
            record.decision = HookOutcome::Cancelled;
            record.reason = Some(why);
        }
        Ended::Failed(fault) => record.failed(fault),
    }
    record.ms = start.elapsed().as_millis() as u64;
    record
}

/// A hook's record before it runs.
pub(super) fn record(hook: &HookEntry, blocking: bool, start_ms: u64) -> HookRecord {
    HookRecord {
        hook_id: hook.id.clone(),
        kind: match hook.kind() {
            HookKind::Wasm => "wasm",
            HookKind::Command => "command",
        },
        decision: HookOutcome::Pass,
        reason: None,
        blocking,
        start_ms,
        ms: 0,
        process_group: None,
        fault: None,
    }
}

/// How long Tama lets `hook` run before it ends it and refuses: a command
/// its entry's `timeout` (30 s when none), a gate its execution bound.
pub fn hook_timeout(hook: &HookEntry) -> Duration {
    match hook.kind() {
        HookKind::Command => hook
            .timeout
            .filter(|t| *t > 0.0)
            .and_then(|t| Duration::try_from_secs_f64(t).ok())
            .unwrap_or(DEFAULT_TIMEOUT),
        HookKind::Wasm => crate::wasm::TIME_BOUND,
    }
}

/// How one hook's run ended.
enum Ended {
    Pass,
    Refused(String),
    Failed(Fault),
    Cancelled(String),
}

fn run_gate(dispatcher: &Dispatcher, hook: &HookEntry, event: &Arc<GateEvent>) -> Ended {
    let gate = match dispatcher.gate(hook) {
        Ok(gate) => gate,
        Err(fault) => return Ended::Failed(fault),
    };
    match gate.evaluate(event, dispatcher.state.clone()) {
        Ok(Verdict::Pass) => Ended::Pass,
        Ok(Verdict::Refuse(reason)) => Ended::Refused(reason),
        Err(source) => Ended::Failed(Fault::Gate {
            id: hook.id.clone(),
            source,
        }),
    }
}

fn run_command(
    dispatcher: &Dispatcher,
    hook: &HookEntry,
    event: &Arc<GateEvent>,
    payload: &[u8],
    record: &mut HookRecord,
    watch: &dyn Watch,
) -> Ended {
    let registry = dispatcher.registry();
    let written = hook.command().unwrap_or_default();
    let registry_dir = match &registry.origin {
        Origin::File(path) => path.parent().map(Path::to_path_buf).unwrap_or_default(),
        Origin::Embedded => PathBuf::from("."),
    };
    let command = match command::resolve(
        written,
        registry.registry.catalog_source(&hook.id).map(Path::new),
        &registry_dir,
    ) {
        Ok(command) => command,
        Err(source) => {
            watch.hook_started(&hook.id, None, None);
            return Ended::Failed(Fault::Unresolved {
                id: hook.id.clone(),
                origin: registry.origin.clone(),
                source,
            });
        }
    };
    let inner = event.event();
    let spec = CommandSpec {
        hook_id: hook.id.clone(),
        command,
        timeout: hook_timeout(hook),
        cwd: inner
            .payload
            .get("cwd")
            .and_then(|c| c.as_str())
            .map(PathBuf::from)
            .filter(|p| p.is_dir()),
        env: [
            ("TAMA_HOOK_ID", Some(hook.id.clone())),
            ("TAMA_EVENT", Some(inner.name.to_string())),
            ("TAMA_AGENT_ID", inner.agent_id.clone()),
            ("TAMA_SESSION_ID", inner.session_id.clone()),
            (crate::command::CAPABILITY_VAR, inner.capability.clone()),
        ]
        .into_iter()
        .filter_map(|(k, v)| Some((k.to_string(), v?)))
        .collect(),
    };
    let running = match command::spawn(&spec, payload) {
        Ok(running) => running,
        Err(err) => {
            watch.hook_started(&hook.id, None, None);
            return Ended::Failed(Fault::Spawn(err));
        }
    };
    let group = running.process_group();
    record.process_group = Some(group);
    watch.hook_started(&hook.id, Some(group), Some(running.canceller()));
    let finished = running.wait();
    if let Some(why) = watch.ended_elsewhere(&hook.id, group) {
        return Ended::Cancelled(format!("hook {} was cancelled: {why}", hook.id));
    }
    match command::verdict(&finished) {
        HookVerdict::Pass => Ended::Pass,
        HookVerdict::Refuse(reason) => Ended::Refused(reason),
        HookVerdict::Failed(why) => Ended::Failed(Fault::Hook {
            id: hook.id.clone(),
            why,
        }),
        HookVerdict::Cancelled => Ended::Cancelled(format!("hook {} was cancelled", hook.id)),
    }
}
