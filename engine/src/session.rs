//! The session record a one-event run publishes, so other tools can see
//! which agents and sessions Tama decides for and what it decided last.

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing))]

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::dispatch::Decision;
use crate::registry::Loaded;

const SCHEMA: &str = "ai.wisent.tama.session-control.v2";
/// How many recent decisions a record keeps.
const RECENT: usize = 20;

/// The session-control folder: `$TAMA_HOME/session-control`.
pub fn control_dir() -> PathBuf {
    crate::paths::tama_home().join("session-control")
}

/// The key that names a session's files: sha256 of agent and session.
pub fn control_key(agent: &str, session: &str) -> String {
    crate::registry::checksum::sha256_hex(format!("{agent}\0{session}").as_bytes())
}

/// Writes or updates `<controlKey>.session.json` for the decision's agent
/// and session. A run without a session id publishes nothing.
pub fn publish(registry: &Loaded, decision: &Decision, cwd: Option<&str>) -> std::io::Result<()> {
    let (Some(agent), Some(session)) = (decision.agent_id.as_deref(), decision.session_id.as_deref()) else {
        return Ok(());
    };
    let dir = control_dir();
    let key = control_key(agent, session);
    let path = dir.join(format!("{key}.session.json"));
    let previous: Value = std::fs::read_to_string(&path).ok().and_then(|t| serde_json::from_str(&t).ok()).unwrap_or(Value::Null);
    let now = humantime::format_rfc3339_millis(std::time::SystemTime::now()).to_string();
    let mut recent: Vec<Value> = previous.pointer("/semanticRuntime/recentEvents").and_then(Value::as_array).cloned().unwrap_or_default();
    recent.push(json!({
        "event": decision.event,
        "timestamp": now,
        "decision": decision.word(),
        "blockedHookId": decision.hook_id(),
        "reason": decision.reason(),
    }));
    let skip = recent.len().saturating_sub(RECENT);
    let record = json!({
        "schema": SCHEMA,
        "agentId": agent,
        "sessionId": session,
        "controlKey": key,
        "pid": std::os::unix::process::parent_id(),
        "cwd": cwd.unwrap_or_default(),
        "livenessMode": "process",
        "globallyDisabled": previous.get("globallyDisabled").and_then(Value::as_bool).unwrap_or(false),
        "disabledHookIds": previous.get("disabledHookIds").cloned().unwrap_or(json!([])),
        "enabledHookIds": previous.get("enabledHookIds").cloned().unwrap_or(json!([])),
        "runtime": {
            "loadedReleaseId": registry.registry.release_id,
            "catalogChecksum": registry.registry.catalog_checksum,
            "registeredHookCount": registry.registry.hook_ids().len(),
        },
        "semanticRuntime": {"recentEvents": recent.split_off(skip)},
        "updatedAt": now,
    });
    let mut record = record;
    if let (Some(capability), Some(fields)) = (previous.get("capability").filter(|c| !c.is_null()), record.as_object_mut()) {
        // The operator's grant is the harness's to write; a run keeps it as it is.
        fields.insert("capability".into(), capability.clone());
    }
    crate::files::write_whole(&path, record.to_string().as_bytes())
}

/// `base` with the session's overrides, `<controlKey>.override.json`
/// (`globallyDisabled`, `disabledHookIds`, `enabledHookIds`), read for each event.
pub fn selection_for(base: &crate::dispatch::Selection, agent: &str, session: Option<&str>) -> crate::dispatch::Selection {
    let mut selection = base.clone();
    let Some(session) = session else { return selection };
    let path = control_dir().join(format!("{}.override.json", control_key(agent, session)));
    let Ok(text) = std::fs::read_to_string(&path) else { return selection };
    let Ok(overrides) = serde_json::from_str::<Value>(&text) else {
        crate::log::write("session", &format!("ignoring unreadable overrides {}", path.display()));
        return selection;
    };
    let ids = |key: &str| -> Vec<String> {
        overrides.get(key).and_then(Value::as_array).map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect()).unwrap_or_default()
    };
    selection.disabled.extend(ids("disabledHookIds"));
    if overrides.get("globallyDisabled").and_then(Value::as_bool) == Some(true) {
        selection.enabled = Some(ids("enabledHookIds"));
    }
    selection
}
