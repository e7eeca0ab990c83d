//! The session's capability reaches hook commands only when its binding
//! (session, control key, release, catalog checksum) matches the loaded
//! policy, through one-event runs and the serving engine.

use crate::support;

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use support::engine::Engine;
use tama_engine::session::control_key;

/// A registry of `release` whose command hook writes the capability it was handed to `seen`.
fn registry(home: &Path, release: &str) -> (PathBuf, String) {
    let seen = home.join("seen");
    let path = home.join("registry.json");
    let hook = json!({"id": "granted", "command": format!("printf '%s' \"${{TAMA_CAPABILITY-none}}\" > {}", seen.display())});
    let registry = json!({"version": 1, "releaseId": release, "events": {"pre_tool_use": {"blocking": true, "hooks": [hook]}}});
    std::fs::write(&path, registry.to_string()).unwrap();
    assert_eq!(support::run_tama(home, &["registry", "seal", path.to_str().unwrap()], "").status.code(), Some(0));
    let sealed: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    (path, sealed["catalogChecksum"].as_str().unwrap().to_string())
}

fn grant(agent: &str, release: &str, checksum: &str) -> Value {
    json!({"schemaVersion": 1, "issuedBy": "tama-desktop", "nonce": "n-1", "sessionId": "sess-1",
        "controlKey": control_key(agent, "sess-1"), "releaseId": release, "catalogChecksum": checksum,
        "lifetime": "session", "grants": [{"tool": "bash", "actions": ["push"]}]})
}

/// Writes the session record of `agent`'s sess-1 holding `capability`.
fn hold(home: &Path, agent: &str, capability: &Value) {
    let dir = home.join(".tama/session-control");
    std::fs::create_dir_all(&dir).unwrap();
    let record = json!({"schema": "ai.wisent.tama.session-control.v2", "agentId": agent, "sessionId": "sess-1",
        "controlKey": control_key(agent, "sess-1"), "pid": 1, "cwd": "/", "globallyDisabled": false,
        "disabledHookIds": [], "enabledHookIds": [], "capability": capability, "updatedAt": "2026-01-01T00:00:00Z"});
    std::fs::write(dir.join(format!("{}.session.json", control_key(agent, "sess-1"))), record.to_string()).unwrap();
}

fn call() -> Value {
    json!({"session_id": "sess-1", "tool_name": "Bash", "tool_input": {"command": "git status"}})
}

/// What the hook was handed in a one-event run.
fn one_event(home: &Path, registry: &Path, env: &[(&str, &str)]) -> String {
    let out = support::run_tama_with(home, &["run-hook", "--registry", registry.to_str().unwrap(), "pre_tool_use", "agent-1"], &call().to_string(), env);
    assert_eq!(out.status.code(), Some(0), "{}", support::text(&out.stderr));
    std::fs::read_to_string(home.join("seen")).unwrap()
}

fn log(home: &Path) -> String {
    std::fs::read_to_string(home.join(".tama/tama.log")).unwrap_or_default()
}

#[test]
fn a_matching_grant_reaches_the_hook_and_stays_in_the_session_record() {
    let home = tempfile::tempdir().unwrap();
    let (path, checksum) = registry(home.path(), "r1");
    let capability = grant("agent-1", "r1", &checksum);
    hold(home.path(), "agent-1", &capability);
    let seen: Value = serde_json::from_str(&one_event(home.path(), &path, &[])).unwrap();
    assert_eq!(seen, capability);
    let record: Value = serde_json::from_str(
        &std::fs::read_to_string(home.path().join(format!(".tama/session-control/{}.session.json", control_key("agent-1", "sess-1")))).unwrap(),
    )
    .unwrap();
    assert_eq!(record["capability"], capability, "the run keeps the operator's grant");
    assert_eq!(one_event(home.path(), &path, &[]), capability.to_string(), "and the next run hands it again");
}

#[test]
fn a_grant_for_another_release_checksum_or_control_key_does_not() {
    let home = tempfile::tempdir().unwrap();
    let (path, checksum) = registry(home.path(), "r1");
    let other_key = {
        let mut g = grant("agent-1", "r1", &checksum);
        g["controlKey"] = json!(control_key("agent-2", "sess-1"));
        g
    };
    let expired = {
        let mut g = grant("agent-1", "r1", &checksum);
        g["expiresAt"] = json!("2020-01-01T00:00:00Z");
        g
    };
    for (capability, why) in [
        (grant("agent-1", "r0", &checksum), "the grant is bound to releaseId \"r0\", the loaded policy's is \"r1\""),
        (grant("agent-1", "r1", &"0".repeat(64)), "the grant is bound to catalogChecksum"),
        (other_key, "the grant is bound to controlKey"),
        (expired, "it expired at \"2020-01-01T00:00:00Z\""),
        (json!("all"), "the grant is not a JSON object"),
    ] {
        hold(home.path(), "agent-1", &capability);
        assert_eq!(one_event(home.path(), &path, &[]), "none", "{capability}");
        assert!(log(home.path()).contains(&format!("capability: session sess-1: no capability handed to its hooks: {why}")), "{}", log(home.path()));
    }
    // Nor does a capability in Tama's own environment, nor a grant for another agent's session.
    std::fs::remove_dir_all(home.path().join(".tama/session-control")).unwrap();
    hold(home.path(), "agent-2", &grant("agent-2", "r1", &checksum));
    assert_eq!(one_event(home.path(), &path, &[("TAMA_CAPABILITY", "{\"grants\":[{\"tool\":\"bash\"}]}")]), "none");
}

#[test]
fn after_a_reload_an_old_grant_does_not_reach_the_new_hooks() {
    let home = tempfile::tempdir().unwrap();
    let (path, first) = registry(home.path(), "r1");
    hold(home.path(), "omp", &grant("omp", "r1", &first));
    let mut engine = Engine::start(home.path(), Some(&path));
    let dispatch = |id: &str| json!({"id": id, "op": "dispatch", "event": "pre_tool_use", "payload": call()});
    engine.send(dispatch("before"));
    assert_eq!(engine.answer("before")["ok"], true);
    assert_eq!(std::fs::read_to_string(home.path().join("seen")).unwrap(), grant("omp", "r1", &first).to_string());
    // Another release is installed; the grant still names the first.
    let (_, second) = registry(home.path(), "r2");
    engine.send(json!({"id": "reload", "op": "reload"}));
    assert_eq!(engine.answer("reload")["result"]["changed"], true);
    engine.send(dispatch("after"));
    assert_eq!(engine.answer("after")["state"]["loadedReleaseId"], "r2");
    assert_eq!(std::fs::read_to_string(home.path().join("seen")).unwrap(), "none");
    assert!(log(home.path()).contains("the grant is bound to releaseId \"r1\", the loaded policy's is \"r2\""), "{}", log(home.path()));
    // Rebound to the loaded release, it reaches the hooks again.
    hold(home.path(), "omp", &grant("omp", "r2", &second));
    engine.send(dispatch("rebound"));
    assert_eq!(engine.answer("rebound")["ok"], true);
    assert_eq!(std::fs::read_to_string(home.path().join("seen")).unwrap(), grant("omp", "r2", &second).to_string());
    engine.close();
}
