//! Running one hook of a dispatch: a wasm gate in-process, or a command in
//! its own process group.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{Dispatcher, HookOutcome, HookRecord, Watch};
use crate::INFRASTRUCTURE;
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
    let mut record = HookRecord {
        hook_id: hook.id.clone(),
        kind: match hook.kind() {
            HookKind::Wasm => "wasm",
            HookKind::Command => "command",
        },
        decision: HookOutcome::Pass,
        reason: None,
        blocking,
        start_ms: start.duration_since(dispatch_start).as_millis() as u64,
        ms: 0,
        process_group: None,
    };
    let (outcome, reason) = match hook.kind() {
        HookKind::Wasm => {
            watch.hook_started(&hook.id, None, None);
            run_gate(dispatcher, hook, event)
        }
        HookKind::Command => run_command(dispatcher, hook, event, payload, &mut record, watch),
    };
    watch.hook_ended(&hook.id);
    record.decision = outcome;
    record.reason = reason;
    record.ms = start.elapsed().as_millis() as u64;
    record
}

fn run_gate(dispatcher: &Dispatcher, hook: &HookEntry, event: &Arc<GateEvent>) -> (HookOutcome, Option<String>) {
    let gate = match dispatcher.gate(hook) {
        Ok(gate) => gate,
        Err(why) => return (HookOutcome::Error, Some(why)),
    };
    match gate.evaluate(event, dispatcher.state.clone()) {
        Ok(Verdict::Pass) => (HookOutcome::Pass, None),
        Ok(Verdict::Refuse(reason)) => (HookOutcome::Block, Some(reason)),
        Err(fault) => (HookOutcome::Error, Some(format!("{INFRASTRUCTURE}: gate {} {fault}", hook.id))),
    }
}

fn run_command(
    dispatcher: &Dispatcher,
    hook: &HookEntry,
    event: &Arc<GateEvent>,
    payload: &[u8],
    record: &mut HookRecord,
    watch: &dyn Watch,
) -> (HookOutcome, Option<String>) {
    let registry = dispatcher.registry();
    let written = hook.command.as_deref().unwrap_or_default();
    let registry_dir = match &registry.origin {
        Origin::File(path) => path.parent().map(Path::to_path_buf).unwrap_or_default(),
        Origin::Embedded => PathBuf::from("."),
    };
    let command = match command::resolve(written, catalog_source(registry, &hook.id).as_deref(), &registry_dir) {
        Ok(command) => command,
        Err(unresolved) => {
            let why = format!(
                "{INFRASTRUCTURE}: hook {} of hook registry {} cannot start: {unresolved}; the call is refused because a registered hook that cannot start has not judged it",
                hook.id, registry.origin
            );
            watch.hook_started(&hook.id, None, None);
            return (HookOutcome::Error, Some(why));
        }
    };
    let inner = event.event();
    let spec = CommandSpec {
        hook_id: hook.id.clone(),
        command,
        timeout: hook.timeout.filter(|t| *t > 0.0).map(Duration::from_secs_f64).unwrap_or(DEFAULT_TIMEOUT),
        cwd: inner.payload.get("cwd").and_then(|c| c.as_str()).map(PathBuf::from).filter(|p| p.is_dir()),
        env: [
            ("TAMA_HOOK_ID", Some(hook.id.clone())),
            ("TAMA_EVENT", Some(inner.name.clone())),
            ("TAMA_AGENT_ID", inner.agent_id.clone()),
            ("TAMA_SESSION_ID", inner.session_id.clone()),
            (crate::capability::VAR, inner.capability.clone()),
        ]
        .into_iter()
        .filter_map(|(k, v)| Some((k.to_string(), v?)))
        .collect(),
    };
    let running = match command::spawn(&spec, payload) {
        Ok(running) => running,
        Err(err) => {
            watch.hook_started(&hook.id, None, None);
            return (HookOutcome::Error, Some(format!("{INFRASTRUCTURE}: {err}")));
        }
    };
    let group = running.process_group();
    record.process_group = Some(group);
    watch.hook_started(&hook.id, Some(group), Some(running.canceller()));
    let finished = running.wait();
    if let Some(why) = watch.ended_elsewhere(&hook.id, group) {
        return (HookOutcome::Cancelled, Some(format!("hook {} was cancelled: {why}", hook.id)));
    }
    match command::verdict(&finished) {
        HookVerdict::Pass => (HookOutcome::Pass, None),
        HookVerdict::Refuse(reason) => (HookOutcome::Block, Some(reason)),
        HookVerdict::Failed(why) => (HookOutcome::Error, Some(format!("{INFRASTRUCTURE}: hook {} {why}", hook.id))),
        HookVerdict::Cancelled => (HookOutcome::Cancelled, Some(format!("hook {} was cancelled", hook.id))),
    }
}

/// The catalog's `source` for a hook id, which a relative command resolves against first.
fn catalog_source(registry: &crate::registry::Loaded, id: &str) -> Option<PathBuf> {
    let catalog = registry.registry.catalog.as_ref()?;
    let entry = catalog.agent_hooks.iter().find(|h| h.get("id").and_then(|v| v.as_str()) == Some(id))?;
    entry.get("source").and_then(|s| s.as_str()).filter(|s| !s.is_empty()).map(PathBuf::from)
}
