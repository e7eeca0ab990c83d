//! What happens while hooks still run: stop hooks side by side, a call's
//! result, a cancel, a newer turn event, and what is left afterwards.

mod common;
mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::engine::Engine;

fn seal(home: &Path, registry: Value) -> PathBuf {
    let path = home.join("registry.json");
    std::fs::write(&path, registry.to_string()).unwrap();
    assert_eq!(support::run_tama(home, &["registry", "seal", path.to_str().unwrap()], "").status.code(), Some(0));
    path
}

fn supervisor_stop(home: &Path) -> Value {
    let bytes = std::fs::read(support::component("block-supervisor-stop")).unwrap();
    std::fs::write(home.join("supervisor.wasm"), &bytes).unwrap();
    json!({"id": "block-supervisor-stop", "type": "wasm", "component": "supervisor.wasm",
        "sha256": tama_engine::registry::checksum::sha256_hex(&bytes), "state": ["oko.role", "oko.work"]})
}

#[test]
fn side_by_side() {
    let home = tempfile::tempdir().unwrap();
    let marks = home.path().join("marks");
    std::fs::create_dir_all(&marks).unwrap();
    let sleeper = |n: u32| json!({"id": format!("review-{n}"), "command": format!("sleep 1; touch {}/{n}; echo 'review {n} open' >&2; exit 2", marks.display()), "timeout": 10});
    let path = seal(home.path(), json!({"version": 1, "events": {"stop": {"blocking": true, "hooks": [
        supervisor_stop(home.path()), sleeper(1), sleeper(2), sleeper(3)
    ]}}}));
    let payload = std::fs::read_to_string(support::repo_file("tests/payloads/claude-Stop.json")).unwrap();
    // The first run compiles the supervisor gate into the cache; time the second.
    support::run_tama_with(home.path(), &["run-hook", "--registry", path.to_str().unwrap(), "stop", "sup-1"], &payload, &[]);
    let started = Instant::now();
    let out = support::run_tama_with(home.path(), &["run-hook", "--registry", path.to_str().unwrap(), "stop", "sup-1"], &payload, &[]);
    let took = started.elapsed();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(support::text(&out.stderr), "review-1: review 1 open\nreview-2: review 2 open\nreview-3: review 3 open\n");
    let decision: Value = serde_json::from_str(&support::text(&out.stdout)).unwrap();
    let ids: Vec<&str> = decision["results"].as_array().unwrap().iter().map(|r| r["hookId"].as_str().unwrap()).collect();
    assert_eq!(ids, ["block-supervisor-stop", "review-1", "review-2", "review-3"]);
    let mut added_up = 0;
    for record in &decision["results"].as_array().unwrap()[1..] {
        assert!(record["ms"].as_u64().unwrap() >= 1000, "each record carries its own ms: {record}");
        added_up += record["ms"].as_u64().unwrap();
    }
    // Run one after another, the dispatch would last as long as its hooks added up.
    assert!(took.as_millis() < added_up as u128 - 1000, "the stop took {took:?}, its hooks {added_up} ms added up");

    // A refusing supervisor stop starts none of them.
    std::fs::remove_dir_all(&marks).unwrap();
    std::fs::create_dir_all(&marks).unwrap();
    let agent = home.path().join(".oko/agents/sup-1");
    std::fs::create_dir_all(&agent).unwrap();
    std::fs::write(agent.join("role.json"), r#"{"role":"supervisor"}"#).unwrap();
    std::fs::write(agent.join("work.json"), r#"{"handedOut":[{"id":"T-1","status":"open"}]}"#).unwrap();
    let out = support::run_tama_with(home.path(), &["run-hook", "--registry", path.to_str().unwrap(), "stop", "sup-1"], &payload, &[]);
    let decision: Value = serde_json::from_str(&support::text(&out.stdout)).unwrap();
    assert_eq!(decision["results"].as_array().unwrap().len(), 1, "only the supervisor gate ran: {decision}");
    assert!(support::text(&out.stderr).starts_with("block-supervisor-stop: supervisor sup-1 may not stop"), "{}", support::text(&out.stderr));
    assert_eq!(std::fs::read_dir(&marks).unwrap().count(), 0, "no other stop hook started");
}

fn mkfifo(path: &Path) {
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

/// A hook that reads a pipe nobody writes: it never ends by itself.
fn stuck_registry(home: &Path, event: &str) -> PathBuf {
    let fifo = home.join("nobody-writes");
    mkfifo(&fifo);
    seal(home, json!({"version": 1, "events": {event: {"blocking": true, "hooks": [
        {"id": "stuck", "command": format!("cat {}", fifo.display()), "timeout": 600},
        {"id": "after", "command": "true", "timeout": 5}
    ]}}}))
}

fn edit(id: &str, event: &str) -> Value {
    json!({"id": id, "op": "dispatch", "event": event, "payload": {"session_id": "sess-1", "tool_name": "edit", "tool_input": {"path": "a.rs", "old_string": "a", "new_string": "b"}}})
}

#[test]
fn abandoned_calls_answered() {
    let home = tempfile::tempdir().unwrap();
    let path = stuck_registry(home.path(), "pre_tool_use");
    let mut engine = Engine::start(home.path(), Some(&path));
    engine.send(edit("pre", "pre_tool_use"));
    let group = engine.held_on("stuck");
    engine.send(edit("post", "post_tool_use"));
    let pre = engine.answer("pre");
    assert_eq!(pre["ok"], false);
    assert!(pre["error"].as_str().unwrap().contains("the result of the edit call already arrived"), "{pre}");
    assert_eq!(engine.answer("post")["ok"], true);
    common::assert_group_gone(group, Duration::from_secs(2));
    let stderr = support::text(&engine.close().stderr);
    assert!(stderr.contains("tama: ended pre-tool dispatch pre of edit in session sess-1: the result of the edit call already arrived, so the harness stopped waiting for this check"), "{stderr}");
    assert!(stderr.contains("still running in Tama: stuck (pre_tool_use, "), "{stderr}");
}

#[test]
fn hooks_running_abandoned() {
    for signal in ["cancel", "result"] {
        let home = tempfile::tempdir().unwrap();
        let path = stuck_registry(home.path(), "pre_tool_use");
        let mut engine = Engine::start(home.path(), Some(&path));
        engine.send(edit("pre", "pre_tool_use"));
        let group = engine.held_on("stuck");
        std::thread::sleep(Duration::from_millis(100));
        if signal == "cancel" {
            engine.send(json!({"id": "c", "op": "cancel", "dispatchId": "pre"}));
            assert_eq!(engine.answer("c")["result"]["cancelled"], true);
        } else {
            engine.send(edit("post", "post_tool_use"));
        }
        assert_eq!(engine.answer("pre")["ok"], false);
        engine.send(json!({"id": "s", "op": "status"}));
        let abandoned = engine.answer("s")["state"]["runningHooks"]["abandoned"][0].clone();
        assert_eq!(abandoned["session"], "sess-1", "{signal}: {abandoned}");
        assert_eq!(abandoned["hooks"][0]["hook"], "stuck");
        assert_eq!(abandoned["hooks"][0]["event"], "pre_tool_use");
        assert_eq!(abandoned["hooks"][0]["processGroup"], group);
        assert!(abandoned["hooks"][0]["ranForMs"].as_u64().unwrap() >= 100);
        let reason = if signal == "cancel" { "the caller cancelled dispatch pre" } else { "the result of the edit call already arrived" };
        assert_eq!(abandoned["reason"], reason);
        let on_disk: Value = serde_json::from_str(&std::fs::read_to_string(home.path().join(".tama/session-control/abandoned.sess-1.json")).unwrap()).unwrap();
        assert_eq!(on_disk["text"], abandoned["text"]);
        common::assert_group_gone(group, Duration::from_secs(2));
        engine.close();
        let listed = support::run_tama(home.path(), &["hooks", "running"], "");
        let listed = support::text(&listed.stdout);
        assert!(listed.contains("abandoned in session sess-1: still running in Tama: stuck (pre_tool_use, "), "{listed}");
        assert!(listed.contains(reason), "{listed}");
        std::fs::write(home.path().join(".tama/session-control/abandoned.sess-2.json"), "{").unwrap();
        let refused = support::run_tama(home.path(), &["hooks", "running"], "");
        assert_eq!(refused.status.code(), Some(1));
        assert!(support::text(&refused.stderr).contains("abandoned.sess-2.json"));
    }
}

#[test]
fn a_turn_end_ends_the_sessions_tool_hooks_and_supersedes_the_previous_turn_event() {
    let home = tempfile::tempdir().unwrap();
    let fifo = home.path().join("nobody-writes");
    mkfifo(&fifo);
    let stuck = |id: &str| json!({"id": id, "command": format!("cat {}", fifo.display()), "timeout": 600});
    let path = seal(home.path(), json!({"version": 1, "events": {
        "pre_tool_use": {"blocking": true, "hooks": [stuck("tool-check"), {"id": "never-started", "command": "true"}]},
        "user_prompt_submit": {"blocking": true, "hooks": [stuck("prompt-check")]}
    }}));
    let mut engine = Engine::start(home.path(), Some(&path));
    engine.send(edit("tool", "pre_tool_use"));
    let tool_group = engine.held_on("tool-check");
    let prompt = |id: &str| json!({"id": id, "op": "dispatch", "event": "user_prompt_submit", "payload": {"session_id": "sess-1", "prompt": "go on"}});
    engine.send(prompt("prompt-1"));
    let tool = engine.answer("tool");
    assert_eq!(tool["ok"], false);
    assert_eq!(
        tool["error"],
        "the turn of session sess-1 ended while pre_tool_use was still being checked, so that tool call is over and hook never-started and the ones after it were not started"
    );
    common::assert_group_gone(tool_group, Duration::from_secs(2));
    let first_prompt_group = engine.held_on("prompt-check");
    engine.send(prompt("prompt-2"));
    let superseded = engine.answer("prompt-1");
    assert_eq!(superseded["ok"], true, "a superseded run is a cancellation, not a refusal: {superseded}");
    assert_eq!(superseded["result"]["decision"], "cancelled", "never a pass: {superseded}");
    assert_eq!(superseded["result"]["results"][0]["decision"], "cancelled");
    common::assert_group_gone(first_prompt_group, Duration::from_secs(2));
    let stderr = support::text(&engine.close().stderr);
    assert!(stderr.contains(&format!("tama: ended hook tool-check (process group {tool_group}) still running for pre_tool_use of session sess-1: the session's user_prompt_submit arrived, so that tool call is over and nobody waits for its answer")), "{stderr}");
    assert!(stderr.contains(&format!("tama: ended hook prompt-check (process group {first_prompt_group}) still running for the previous user_prompt_submit of session sess-1")), "{stderr}");
    // Nothing of any hook's group is left once the engine is gone.
    let left: Vec<_> = std::fs::read_dir("/proc").unwrap().flatten().filter_map(|e| std::fs::read_to_string(e.path().join("cmdline")).ok()).filter(|c| c.contains(fifo.to_str().unwrap())).collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_terminated_engine_ends_its_hooks_first() {
    let home = tempfile::tempdir().unwrap();
    let path = stuck_registry(home.path(), "pre_tool_use");
    let mut engine = Engine::start(home.path(), Some(&path));
    let pid = engine.ready["state"]["processId"].as_i64().unwrap() as i32;
    engine.send(edit("pre", "pre_tool_use"));
    let group = engine.held_on("stuck");
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), nix::sys::signal::Signal::SIGTERM).unwrap();
    // The engine ends by the signal, not by its input closing: wait until it has exited.
    let until = Instant::now() + Duration::from_secs(5);
    let exited = || std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |s| s[s.rfind(')').unwrap() + 2..].starts_with('Z'));
    while !exited() {
        assert!(Instant::now() < until, "the engine did not exit");
        std::thread::sleep(Duration::from_millis(5));
    }
    let out = engine.close();
    assert_eq!(out.status.code(), Some(128 + 15));
    let stderr = support::text(&out.stderr);
    assert!(stderr.contains("tama: ending dispatch pre of pre_tool_use: the engine was terminated by SIGTERM, so nobody waits for its answer"), "{stderr}");
    common::assert_group_gone(group, Duration::from_secs(2));
    assert!(!home.path().join(format!(".tama/session-control/running.{pid}.json")).exists());
}
