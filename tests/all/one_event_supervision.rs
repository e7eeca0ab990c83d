//! Supervision across one-event runs: Claude Code and Codex start one
//! `tama run-hook` process per event, so a newer turn event, the turn's end
//! and a call's result reach hooks another process started. Real processes;
//! what is left is read from /proc.

use crate::support;
use crate::support::process;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

fn seal(home: &Path, registry: Value) -> PathBuf {
    let path = home.join("registry.json");
    std::fs::write(&path, registry.to_string()).unwrap();
    assert_eq!(
        support::run_tama(home, &["registry", "seal", path.to_str().unwrap()], "")
            .status
            .code(),
        Some(0)
    );
    path
}

/// A pipe nobody writes, and a hook reading it, which never ends by itself.
fn stuck(home: &Path, id: &str) -> Value {
    let fifo = home.join("nobody-writes");
    if !fifo.exists() {
        assert!(
            Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
    }
    json!({"id": id, "command": format!("cat {}", fifo.display()), "timeout": 600})
}

/// `tama run-hook <event> agent-1` for Claude Code, started and left running.
fn start(home: &Path, registry: &Path, event: &str, payload: &Value) -> Child {
    start_for(home, registry, "claude", event, payload)
}

fn start_for(home: &Path, registry: &Path, provider: &str, event: &str, payload: &Value) -> Child {
    let mut child = support::tama_in(home)
        .args([
            "run-hook",
            "--provider",
            provider,
            "--registry",
            registry.to_str().unwrap(),
            event,
            "agent-1",
        ])
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.to_string().as_bytes())
        .unwrap();
    child
}

/// Waits until run `child`'s record names `hook` running; its process group.
fn held_on(home: &Path, child: &Child, hook: &str) -> i32 {
    let record = home.join(format!(".tama/session-control/running.{}.json", child.id()));
    let until = Instant::now() + Duration::from_secs(20);
    while Instant::now() < until {
        let hooks = std::fs::read_to_string(&record)
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .map(|r| r["hooks"].clone());
        if let Some(h) = hooks
            .as_ref()
            .and_then(|h| h.as_array())
            .and_then(|h| h.iter().find(|h| h["hook"] == hook).cloned())
        {
            return h["processGroup"].as_i64().unwrap() as i32;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("{hook} never ran in {}", child.id());
}

/// Waits for a run with a bound, so a run that never ends fails the test.
fn finish(mut child: Child) -> Output {
    let until = Instant::now() + Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > until {
            let _ = child.kill();
            panic!("run {} never ended", child.id());
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.wait_with_output().unwrap()
}

/// No process of any hook is left, nor any run: every process started for
/// this journey has `HOME` set to its scratch folder, read from /proc.
fn assert_nothing_left(home: &Path) {
    let mark = format!("HOME={}\0", home.display());
    let until = Instant::now() + Duration::from_secs(2);
    loop {
        let left: Vec<String> = std::fs::read_dir("/proc")
            .unwrap()
            .flatten()
            .filter(|e| {
                std::fs::read(e.path().join("environ"))
                    .is_ok_and(|env| String::from_utf8_lossy(&env).contains(&mark))
            })
            .filter_map(|e| std::fs::read_to_string(e.path().join("cmdline")).ok())
            .collect();
        if left.is_empty() {
            return;
        }
        assert!(Instant::now() < until, "left running: {left:?}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn prompt(session: &str) -> Value {
    json!({"hook_event_name": "UserPromptSubmit", "session_id": session, "prompt": "go on"})
}

fn edit(event: &str) -> Value {
    json!({"hook_event_name": event, "session_id": "sess-1", "tool_name": "Edit", "tool_input": {"file_path": "a.rs", "old_string": "a", "new_string": "b"}})
}

#[test]
fn a_newer_turn_event_ends_the_previous_runs_hook() {
    let home = tempfile::tempdir().unwrap();
    let once = home.path().join("once");
    // The first run of the hook never ends; the next one passes.
    let mut hook = stuck(home.path(), "prompt-check");
    hook["command"] = json!(format!(
        "mkdir {} 2>/dev/null && exec {}; exit 0",
        once.display(),
        hook["command"].as_str().unwrap()
    ));
    let registry = seal(
        home.path(),
        json!({"version": 1, "events": {"user_prompt_submit": {"blocking": true, "hooks": [hook]}}}),
    );
    let first = start(
        home.path(),
        &registry,
        "user_prompt_submit",
        &prompt("sess-1"),
    );
    let group = held_on(home.path(), &first, "prompt-check");
    while !once.exists() {
        std::thread::sleep(Duration::from_millis(5));
    }
    let other_session = start(
        home.path(),
        &registry,
        "user_prompt_submit",
        &prompt("sess-2"),
    );
    let second = finish(start(
        home.path(),
        &registry,
        "user_prompt_submit",
        &prompt("sess-1"),
    ));
    assert_eq!(
        second.status.code(),
        Some(0),
        "{}",
        support::text(&second.stderr)
    );
    let stderr = support::text(&second.stderr);
    assert!(
        stderr.contains(&format!("tama: ended hook prompt-check (process group {group}) still running for the previous user_prompt_submit of session sess-1\n")),
        "{stderr}"
    );
    assert!(
        stderr.contains("tama: still running in Tama: prompt-check (user_prompt_submit, "),
        "{stderr}"
    );
    process::assert_group_gone(group, Duration::from_secs(2));
    // The ended run reports a cancellation: never a pass, never a malfunction.
    let first = finish(first);
    assert_eq!(first.status.code(), Some(2));
    let decision: Value = serde_json::from_str(&support::text(&first.stdout)).unwrap();
    assert_eq!(
        decision["results"][0]["decision"], "cancelled",
        "{decision}"
    );
    assert_eq!(
        support::text(&first.stderr),
        "hook prompt-check was cancelled: a newer user_prompt_submit of session sess-1 superseded it\n"
    );
    let abandoned: Value = serde_json::from_str(
        &std::fs::read_to_string(
            home.path()
                .join(".tama/session-control/abandoned.sess-1.json"),
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(abandoned["hooks"][0]["processGroup"], group);
    assert_eq!(
        abandoned["reason"],
        "a newer user_prompt_submit of session sess-1 superseded it"
    );
    // Another session's run of the same hook is not the previous event of this one: it passed.
    assert_eq!(finish(other_session).status.code(), Some(0));
    assert_nothing_left(home.path());
}

#[test]
fn a_turn_end_ends_the_sessions_tool_hooks_in_other_runs() {
    let home = tempfile::tempdir().unwrap();
    let registry = seal(
        home.path(),
        json!({"version": 1, "events": {
            "pre_tool_use": {"blocking": true, "hooks": [stuck(home.path(), "tool-check"), {"id": "never-started", "command": "true"}]},
            "stop": {"blocking": true, "hooks": [{"id": "stop-check", "command": "true"}]}
        }}),
    );
    let tool = start(home.path(), &registry, "pre_tool_use", &edit("PreToolUse"));
    let group = held_on(home.path(), &tool, "tool-check");
    let tool_pid = tool.id();
    let listed: Value = serde_json::from_slice(
        &support::run_tama(home.path(), &["hooks", "running", "--json"], "").stdout,
    )
    .unwrap();
    assert_eq!(
        (
            listed["running"][0]["hook"].as_str(),
            listed["running"][0]["corePid"].as_u64()
        ),
        (Some("tool-check"), Some(tool_pid as u64)),
        "{listed}"
    );
    let stop = finish(start(
        home.path(),
        &registry,
        "stop",
        &json!({"hook_event_name": "Stop", "session_id": "sess-1"}),
    ));
    assert_eq!(stop.status.code(), Some(0));
    let stderr = support::text(&stop.stderr);
    assert!(stderr.contains(&format!(
        "tama: ended hook tool-check (process group {group}) still running for pre_tool_use of session sess-1: the session's stop arrived, so that tool call is over and nobody waits for its answer\n"
    )), "{stderr}");
    assert!(
        stderr.contains("tama: still running in Tama: tool-check (pre_tool_use, "),
        "{stderr}"
    );
    let tool = finish(tool);
    assert_eq!(tool.status.code(), Some(2));
    assert_eq!(
        support::text(&tool.stderr),
        "the turn of session sess-1 ended while pre_tool_use was still being checked, so that tool call is over and hook never-started and the ones after it were not started\n"
    );
    process::assert_group_gone(group, Duration::from_secs(2));
    let abandoned: Value = serde_json::from_str(
        &std::fs::read_to_string(
            home.path()
                .join(".tama/session-control/abandoned.sess-1.json"),
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(
        (abandoned["corePid"].as_u64(), abandoned["reason"].as_str()),
        (Some(tool_pid as u64), Some("the session's stop arrived"))
    );
    let listed = support::text(&support::run_tama(home.path(), &["hooks", "running"], "").stdout);
    assert!(
        listed.contains(
            "abandoned in session sess-1: still running in Tama: tool-check (pre_tool_use, "
        ),
        "{listed}"
    );
    assert_nothing_left(home.path());
}

#[test]
fn a_calls_result_ends_its_pre_tool_run() {
    let home = tempfile::tempdir().unwrap();
    let registry = seal(
        home.path(),
        json!({"version": 1, "events": {
            "pre_tool_use": {"blocking": true, "hooks": [stuck(home.path(), "edit-check")]},
            "post_tool_use": {"blocking": true, "hooks": [{"id": "result-check", "command": "true"}]}
        }}),
    );
    let other_call = start(
        home.path(),
        &registry,
        "pre_tool_use",
        &json!({"session_id": "sess-1", "tool_name": "Edit", "tool_input": {"file_path": "b.rs"}}),
    );
    let other_group = held_on(home.path(), &other_call, "edit-check");
    let pre = start_for(
        home.path(),
        &registry,
        "codex",
        "pre_tool_use",
        &edit("PreToolUse"),
    );
    let group = held_on(home.path(), &pre, "edit-check");
    let pre_pid = pre.id();
    let post = finish(start(
        home.path(),
        &registry,
        "post_tool_use",
        &edit("PostToolUse"),
    ));
    assert_eq!(post.status.code(), Some(0));
    let stderr = support::text(&post.stderr);
    assert!(stderr.contains(&format!(
        "tama: ended pre-tool dispatch {pre_pid} of Edit in session sess-1: the result of the Edit call already arrived, so the harness stopped waiting for this check\n"
    )), "{stderr}");
    // Codex gets its own block form: the ended check never reads as a pass.
    let pre = finish(pre);
    assert_eq!(pre.status.code(), Some(0));
    let answer: Value = serde_json::from_slice(&pre.stdout).unwrap();
    assert_eq!(
        answer,
        json!({"decision": "block", "reason": "the result of the Edit call already arrived, so the harness stopped waiting for this check"})
    );
    process::assert_group_gone(group, Duration::from_secs(2));
    // Another call of the session is not ended by this call's result.
    assert!(
        !process::members(other_group).is_empty(),
        "the other call's check still runs"
    );
    let stop = finish(start(
        home.path(),
        &registry,
        "stop",
        &json!({"session_id": "sess-1"}),
    ));
    assert_eq!(stop.status.code(), Some(0));
    assert_eq!(finish(other_call).status.code(), Some(2));
    process::assert_group_gone(other_group, Duration::from_secs(2));
    assert_nothing_left(home.path());
}

#[test]
fn a_terminated_run_ends_its_hooks_first() {
    let home = tempfile::tempdir().unwrap();
    let registry = seal(
        home.path(),
        json!({"version": 1, "events": {"stop": {"blocking": true, "hooks": [stuck(home.path(), "stop-check")]}}}),
    );
    let run = start(
        home.path(),
        &registry,
        "stop",
        &json!({"session_id": "sess-1"}),
    );
    let group = held_on(home.path(), &run, "stop-check");
    let pid = run.id();
    // What a harness does at its own time limit.
    assert_eq!(unsafe { libc::kill(pid as i32, libc::SIGTERM) }, 0);
    let out = finish(run);
    assert_eq!(out.status.code(), Some(128 + libc::SIGTERM));
    assert_eq!(
        support::text(&out.stderr),
        format!(
            "tama: ended hook stop-check (process group {group}): tama run-hook was terminated by SIGTERM\n"
        )
    );
    process::assert_group_gone(group, Duration::from_secs(2));
    assert!(
        !home
            .path()
            .join(format!(".tama/session-control/running.{pid}.json"))
            .exists()
    );
    assert_nothing_left(home.path());
}

#[test]
fn hooks_left_by_a_run_that_is_gone_are_ended_by_the_next_turn_event() {
    let home = tempfile::tempdir().unwrap();
    let registry = seal(
        home.path(),
        json!({"version": 1, "events": {
            "pre_tool_use": {"blocking": true, "hooks": [stuck(home.path(), "tool-check")]},
            "stop": {"blocking": true, "hooks": [{"id": "stop-check", "command": "true"}]}
        }}),
    );
    let mut tool = start(home.path(), &registry, "pre_tool_use", &edit("PreToolUse"));
    let group = held_on(home.path(), &tool, "tool-check");
    // The harness gave up on the run and killed it; its hook lives on.
    tool.kill().unwrap();
    tool.wait().unwrap();
    assert!(!process::members(group).is_empty());
    let stop = finish(start(
        home.path(),
        &registry,
        "stop",
        &json!({"session_id": "sess-1"}),
    ));
    assert_eq!(stop.status.code(), Some(0));
    assert!(support::text(&stop.stderr).contains(&format!("tama: ended hook tool-check (process group {group}) still running for pre_tool_use of session sess-1")));
    process::assert_group_gone(group, Duration::from_secs(2));
    // The record of the run that is gone is removed once nothing of it runs.
    let again = finish(start(
        home.path(),
        &registry,
        "stop",
        &json!({"session_id": "sess-1"}),
    ));
    assert_eq!(support::text(&again.stderr), "");
    let records: Vec<_> = std::fs::read_dir(home.path().join(".tama/session-control"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("running.") || n.starts_with("ended."))
        .collect();
    assert!(records.is_empty(), "{records:?}");
    assert_nothing_left(home.path());
}
