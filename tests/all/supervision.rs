//! What happens while hooks still run: stop hooks side by side, a call's
//! result, a cancel, a newer turn event, and what is left afterwards.

use crate::support;
use crate::support::process;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::engine::Engine;

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

fn supervisor_stop(home: &Path) -> Value {
    let bytes = std::fs::read(support::component("block-supervisor-stop")).unwrap();
    std::fs::write(home.join("supervisor.wasm"), &bytes).unwrap();
    json!({"id": "block-supervisor-stop", "type": "wasm", "component": "supervisor.wasm",
        "sha256": tama_core::registry::checksum::sha256_hex(&bytes), "state": ["oko.role", "oko.work"]})
}

#[test]
fn side_by_side() {
    let home = tempfile::tempdir().unwrap();
    let marks = home.path().join("marks");
    std::fs::create_dir_all(&marks).unwrap();
    let sleeper = |n: u32| json!({"id": format!("review-{n}"), "command": format!("sleep 1; touch {}/{n}; echo 'review {n} open' >&2; exit 2", marks.display()), "timeout": 10});
    let path = seal(
        home.path(),
        json!({"version": 1, "events": {"stop": {"blocking": true, "hooks": [
            supervisor_stop(home.path()), sleeper(1), sleeper(2), sleeper(3)
        ]}}}),
    );
    let payload =
        std::fs::read_to_string(support::repo_file("tests/payloads/claude-Stop.json")).unwrap();
    // The first run compiles the supervisor gate into the cache; time the second.
    support::run_tama_with(
        home.path(),
        &[
            "run-hook",
            "--registry",
            path.to_str().unwrap(),
            "stop",
            "sup-1",
        ],
        &payload,
        &[],
    );
    let started = Instant::now();
    let out = support::run_tama_with(
        home.path(),
        &[
            "run-hook",
            "--registry",
            path.to_str().unwrap(),
            "stop",
            "sup-1",
        ],
        &payload,
        &[],
    );
    let took = started.elapsed();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        support::text(&out.stderr),
        "review-1: review 1 open\nreview-2: review 2 open\nreview-3: review 3 open\n"
    );
    let decision: Value = serde_json::from_str(&support::text(&out.stdout)).unwrap();
    let ids: Vec<&str> = decision["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["hookId"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        ["block-supervisor-stop", "review-1", "review-2", "review-3"]
    );
    let mut added_up = 0;
    for record in &decision["results"].as_array().unwrap()[1..] {
        assert!(
            record["ms"].as_u64().unwrap() >= 1000,
            "each record carries its own ms: {record}"
        );
        added_up += record["ms"].as_u64().unwrap();
    }
    // Run one after another, the dispatch would last as long as its hooks added up.
    assert!(
        took.as_millis() < added_up as u128 - 1000,
        "the stop took {took:?}, its hooks {added_up} ms added up"
    );

    // A refusing supervisor stop starts none of them.
    std::fs::remove_dir_all(&marks).unwrap();
    std::fs::create_dir_all(&marks).unwrap();
    let agent = home.path().join(".oko/agents/sup-1");
    std::fs::create_dir_all(&agent).unwrap();
    std::fs::write(agent.join("role.json"), r#"{"role":"supervisor"}"#).unwrap();
    std::fs::write(
        agent.join("work.json"),
        r#"{"handedOut":[{"id":"T-1","status":"open"}]}"#,
    )
    .unwrap();
    let out = support::run_tama_with(
        home.path(),
        &[
            "run-hook",
            "--registry",
            path.to_str().unwrap(),
            "stop",
            "sup-1",
        ],
        &payload,
        &[],
    );
    let decision: Value = serde_json::from_str(&support::text(&out.stdout)).unwrap();
    assert_eq!(
        decision["results"].as_array().unwrap().len(),
        1,
        "only the supervisor gate ran: {decision}"
    );
    assert!(
        support::text(&out.stderr)
            .starts_with("block-supervisor-stop: supervisor sup-1 may not stop"),
        "{}",
        support::text(&out.stderr)
    );
    assert_eq!(
        std::fs::read_dir(&marks).unwrap().count(),
        0,
        "no other stop hook started"
    );
}

fn mkfifo(path: &Path) {
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

/// A hook that reads a pipe nobody writes: it never ends by itself.
fn stuck_registry(home: &Path, event: &str) -> PathBuf {
    let fifo = home.join("nobody-writes");
    mkfifo(&fifo);
    seal(
        home,
        json!({"version": 1, "events": {event: {"blocking": true, "hooks": [
            {"id": "stuck", "command": format!("cat {}", fifo.display()), "timeout": 600},
            {"id": "after", "command": "true", "timeout": 5}
        ]}}}),
    )
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
    assert!(
        pre["error"]
            .as_str()
            .unwrap()
            .contains("the result of the edit call already arrived"),
        "{pre}"
    );
    assert_eq!(engine.answer("post")["ok"], true);
    process::assert_group_gone(group, Duration::from_secs(2));
    let stderr = support::text(&engine.close().stderr);
    assert!(stderr.contains("tama: ended pre-tool dispatch pre of edit in session sess-1: the result of the edit call already arrived, so the harness stopped waiting for this check"), "{stderr}");
    assert!(
        stderr.contains("still running in Tama: stuck (pre_tool_use, "),
        "{stderr}"
    );
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
        let reason = if signal == "cancel" {
            "the caller cancelled dispatch pre"
        } else {
            "the result of the edit call already arrived"
        };
        assert_eq!(abandoned["reason"], reason);
        let on_disk: Value = serde_json::from_str(
            &std::fs::read_to_string(
                home.path()
                    .join(".tama/session-control/abandoned.sess-1.json"),
            )
            .unwrap(),
        )
        .unwrap();
        assert_eq!(on_disk["text"], abandoned["text"]);
        process::assert_group_gone(group, Duration::from_secs(2));
        engine.close();
        let listed = support::run_tama(home.path(), &["hooks", "running"], "");
        let listed = support::text(&listed.stdout);
        assert!(
            listed.contains(
                "abandoned in session sess-1: still running in Tama: stuck (pre_tool_use, "
            ),
            "{listed}"
        );
        assert!(listed.contains(reason), "{listed}");
        std::fs::write(
            home.path()
                .join(".tama/session-control/abandoned.sess-2.json"),
            "{",
        )
        .unwrap();
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
    let stuck =
        |id: &str| json!({"id": id, "command": format!("cat {}", fifo.display()), "timeout": 600});
    let path = seal(
        home.path(),
        json!({"version": 1, "events": {
            "pre_tool_use": {"blocking": true, "hooks": [stuck("tool-check"), {"id": "never-started", "command": "true"}]},
            "user_prompt_submit": {"blocking": true, "hooks": [stuck("prompt-check")]}
        }}),
    );
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
    process::assert_group_gone(tool_group, Duration::from_secs(2));
    let first_prompt_group = engine.held_on("prompt-check");
    engine.send(prompt("prompt-2"));
    let superseded = engine.answer("prompt-1");
    assert_eq!(
        superseded["ok"], true,
        "a superseded run is a cancellation, not a refusal: {superseded}"
    );
    assert_eq!(
        superseded["result"]["decision"], "cancelled",
        "never a pass: {superseded}"
    );
    assert_eq!(superseded["result"]["results"][0]["decision"], "cancelled");
    process::assert_group_gone(first_prompt_group, Duration::from_secs(2));
    let stderr = support::text(&engine.close().stderr);
    assert!(stderr.contains(&format!("tama: ended hook tool-check (process group {tool_group}) still running for pre_tool_use of session sess-1: the session's user_prompt_submit arrived, so that tool call is over and nobody waits for its answer")), "{stderr}");
    assert!(stderr.contains(&format!("tama: ended hook prompt-check (process group {first_prompt_group}) still running for the previous user_prompt_submit of session sess-1")), "{stderr}");
    // Nothing of any hook's group is left once the engine is gone.
    let left: Vec<_> = std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| std::fs::read_to_string(e.path().join("cmdline")).ok())
        .filter(|c| c.contains(fifo.to_str().unwrap()))
        .collect();
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
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(pid),
        nix::sys::signal::Signal::SIGTERM,
    )
    .unwrap();
    // The engine ends by the signal, not by its input closing: wait until it has exited.
    let until = Instant::now() + Duration::from_secs(5);
    let exited = || {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .map_or(true, |s| s[s.rfind(')').unwrap() + 2..].starts_with('Z'))
    };
    while !exited() {
        assert!(Instant::now() < until, "the engine did not exit");
        std::thread::sleep(Duration::from_millis(5));
    }
    let out = engine.close();
    assert_eq!(out.status.code(), Some(128 + 15));
    let stderr = support::text(&out.stderr);
    assert!(stderr.contains("tama: ending dispatch pre of pre_tool_use: the engine was terminated by SIGTERM, so nobody waits for its answer"), "{stderr}");
    process::assert_group_gone(group, Duration::from_secs(2));
    assert!(
        !home
            .path()
            .join(format!(".tama/session-control/running.{pid}.json"))
            .exists()
    );
}

/// Whether process `pid` still exists (a zombie counts: nobody reaped it).
fn exists(pid: i32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

fn assert_gone(pid: i32, what: &str) {
    let until = Instant::now() + Duration::from_secs(3);
    while exists(pid) {
        assert!(
            Instant::now() < until,
            "{what} (pid {pid}) outlived its hook"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn read_pid(path: &Path) -> i32 {
    let until = Instant::now() + Duration::from_secs(5);
    loop {
        if let Some(pid) = std::fs::read_to_string(path)
            .ok()
            .and_then(|t| t.trim().parse().ok())
        {
            return pid;
        }
        assert!(
            Instant::now() < until,
            "{} was never written",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A hook that leaves behind one process in a session of its own and one
/// that also dropped its environment, each writing its pid.
fn escaping_registry(home: &Path) -> PathBuf {
    let dir = home.display();
    seal(
        home,
        json!({"version": 1, "events": {"pre_tool_use": {"blocking": true, "hooks": [{"id": "escapes", "timeout": 10,
        "command": format!("setsid sleep 300 & echo $! > {dir}/setsid.pid; (setsid env -i /bin/sleep 301 & echo $! > {dir}/bare.pid) ; exit 0")}]}}}),
    )
}

#[test]
fn hooks_that_leave_their_group_are_ended_too() {
    let home = tempfile::tempdir().unwrap();
    let path = escaping_registry(home.path());
    let out = support::run_tama(
        home.path(),
        &[
            "run-hook",
            "--registry",
            path.to_str().unwrap(),
            "pre_tool_use",
            "a1",
        ],
        &support::shell_payload("ls"),
    );
    assert_eq!(out.status.code(), Some(0), "{}", support::text(&out.stderr));
    assert_gone(
        read_pid(&home.path().join("setsid.pid")),
        "a process in a session of its own",
    );
    assert_gone(
        read_pid(&home.path().join("bare.pid")),
        "a process that dropped its environment",
    );

    // The serving engine ends a marked escapee when its hook's run ends, and the rest as it exits.
    for file in ["setsid.pid", "bare.pid"] {
        std::fs::remove_file(home.path().join(file)).unwrap();
    }
    let mut engine = Engine::start(home.path(), Some(&path));
    engine.send(json!({"id": "d", "op": "dispatch", "event": "pre_tool_use", "payload": {"session_id": "s", "tool_name": "bash", "tool_input": {"command": "ls"}}}));
    assert_eq!(engine.answer("d")["result"]["decision"], "allow");
    assert_gone(
        read_pid(&home.path().join("setsid.pid")),
        "a process in a session of its own",
    );
    let bare = read_pid(&home.path().join("bare.pid"));
    engine.close();
    assert_gone(bare, "a process that dropped its environment");
}

/// Spawns `sleep` in a process group of its own, as another program would: not one Tama started.
fn foreign_group() -> (std::process::Child, i32, u64) {
    use std::os::unix::process::CommandExt;
    let child = Command::new("sleep")
        .arg("300")
        .process_group(0)
        .spawn()
        .unwrap();
    let pid = child.id() as i32;
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let start = stat[stat.rfind(')').unwrap() + 2..]
        .split_whitespace()
        .nth(19)
        .unwrap()
        .parse()
        .unwrap();
    (child, pid, start)
}

#[test]
fn a_record_alone_never_gets_a_process_ended() {
    let home = tempfile::tempdir().unwrap();
    let (mut foreign, pgid, start) = foreign_group();
    let control = home.path().join(".tama/session-control");
    std::fs::create_dir_all(&control).unwrap();
    // A record naming the foreign group exactly (pid and start time), as a still-running tool check of the session.
    let me = std::process::id();
    std::fs::write(control.join(format!("running.{me}.json")), json!({"corePid": me,
        "run": {"id": format!("{me}-1"), "event": "pre_tool_use", "session": "sess-1", "call": null, "receivedNs": 1},
        "hooks": [{"session": "sess-1", "event": "pre_tool_use", "hook": "forged", "processGroup": pgid, "startedAtMs": 0, "leaderStart": start}]}).to_string()).unwrap();
    let path = seal(
        home.path(),
        json!({"version": 1, "events": {"stop": {"blocking": true, "hooks": [{"id": "ok", "command": "true"}]}}}),
    );
    let stop = json!({"hook_event_name": "Stop", "session_id": "sess-1"}).to_string();
    let out = support::run_tama(
        home.path(),
        &[
            "run-hook",
            "--registry",
            path.to_str().unwrap(),
            "stop",
            "a1",
        ],
        &stop,
    );
    assert_eq!(out.status.code(), Some(0), "{}", support::text(&out.stderr));
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(
        foreign.try_wait().unwrap(),
        None,
        "the foreign group was ended on the word of a record"
    );
    foreign.kill().unwrap();
    foreign.wait().unwrap();
}

#[test]
fn bad_records_are_named_and_nothing_panics() {
    let home = tempfile::tempdir().unwrap();
    let control = home.path().join(".tama/session-control");
    std::fs::create_dir_all(&control).unwrap();
    let bad = [
        ("running.999991.json", json!({"corePid": 999991, "hooks": [5]}).to_string(), "hook entry 0"),
        ("running.999992.json", json!({"corePid": 999992, "hooks": [], "run": {"id": "../../escape", "event": "stop", "session": "sess-1", "receivedNs": 1}}).to_string(), "run id \"../../escape\""),
        ("running.999993.json", json!({"corePid": 999993, "hooks": [{"session": "s", "event": "stop", "hook": "h\nforged line", "processGroup": 5, "startedAtMs": 0, "leaderStart": 1}]}).to_string(), "not a plain name"),
        ("running.999994.json", json!({"corePid": 1, "hooks": []}).to_string(), "corePid 1 is not the pid 999994"),
        ("running.999995.json", json!({"corePid": 999995, "hooks": [{"session": "s", "event": "stop", "hook": "h", "processGroup": -1, "startedAtMs": 0, "leaderStart": 1}]}).to_string(), "processGroup -1"),
        ("running.999996.json", "{\"corePid\": 999996, ".to_string(), "EOF"),
        ("running.-1.json", "{}".to_string(), "does not name a process"),
    ];
    for (name, text, _) in &bad {
        std::fs::write(control.join(name), text).unwrap();
    }
    let check = |unread: &Value| {
        for (name, _, reason) in &bad {
            let found = unread
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["record"].as_str().unwrap().ends_with(name));
            let found = found.unwrap_or_else(|| panic!("{name} is not named: {unread}"));
            assert!(
                found["reason"].as_str().unwrap().contains(reason),
                "{name}: {found}"
            );
        }
    };
    let listed = support::run_tama(home.path(), &["hooks", "running", "--json"], "");
    assert_eq!(listed.status.code(), Some(1));
    let listed: Value = serde_json::from_str(&support::text(&listed.stdout)).unwrap();
    check(&listed["recordsUnread"]);
    let mut engine = Engine::start(home.path(), None);
    engine.send(json!({"id": "s", "op": "status"}));
    check(&engine.answer("s")["result"]["runningHooks"]["recordsUnread"]);
    engine.close();
    let path = seal(
        home.path(),
        json!({"version": 1, "events": {"stop": {"blocking": true, "hooks": [{"id": "ok", "command": "true"}]}}}),
    );
    let stop = json!({"hook_event_name": "Stop", "session_id": "sess-1"}).to_string();
    let out = support::run_tama(
        home.path(),
        &[
            "run-hook",
            "--registry",
            path.to_str().unwrap(),
            "stop",
            "a1",
        ],
        &stop,
    );
    assert_eq!(out.status.code(), Some(0), "{}", support::text(&out.stderr));
    assert!(
        !home.path().join(".tama/escape.json").exists()
            && !home.path().join("escape.json").exists()
    );
}
