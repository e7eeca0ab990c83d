//! `tama run-hook --serve omp` driven over real pipes.

use crate::support;
use crate::support::process;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::engine::Engine;

fn dispatch(id: &str, command: &str) -> Value {
    json!({"id": id, "op": "dispatch", "event": "pre_tool_use", "payload": {"session_id": "s1", "tool_name": "bash", "tool_input": {"command": command}}})
}

fn registry(home: &Path, hooks: Value) -> PathBuf {
    let path = home.join("registry.json");
    std::fs::write(
        &path,
        json!({"version": 1, "releaseId": "r1", "events": hooks}).to_string(),
    )
    .unwrap();
    assert_eq!(
        support::run_tama(home, &["registry", "seal", path.to_str().unwrap()], "")
            .status
            .code(),
        Some(0)
    );
    path
}

#[test]
fn the_ready_frame_and_the_seed_requests() {
    let home = tempfile::tempdir().unwrap();
    let mut engine = Engine::start(home.path(), None);
    assert_eq!(engine.ready["ready"], true);
    let state = &engine.ready["state"];
    for key in [
        "processId",
        "generation",
        "loadedReleaseId",
        "catalogChecksum",
        "registeredHookCount",
        "reloadCount",
        "lastReloadAtMs",
        "lastReloadError",
        "coreReleaseId",
        "coreReplacedByRelease",
    ] {
        assert!(state.get(key).is_some(), "state lacks {key}: {state}");
    }
    assert_ne!(state["processId"].as_u64(), Some(std::process::id() as u64));
    engine.send(json!({"id": "inspect", "op": "status"}));
    let status = engine.answer("inspect");
    assert_eq!(status["ok"], true);
    assert!(
        status["result"]["runningHooks"]["dispatched"].is_array()
            && status["result"]["dispatchStages"]["lastByEvent"].is_object()
    );
    engine.send(json!({"id": "reload", "op": "reload"}));
    assert_eq!(
        engine.answer("reload")["result"],
        json!({"reloaded": true, "changed": false})
    );
    engine.send(json!({"id": "event", "op": "dispatch", "event": "pre_tool_use:read", "payload": {"session_id": "example-session", "tool_name": "read", "tool_input": {"path": "example.txt"}}}));
    let answer = engine.answer("event");
    assert_eq!(
        (
            answer["ok"].as_bool(),
            answer["result"]["decision"].as_str()
        ),
        (Some(true), Some("allow"))
    );
    engine.send(dispatch("bypass", "git commit --no-verify -m x"));
    let answer = engine.answer("bypass");
    assert_eq!(answer["result"]["hookId"], "block-git-hook-bypass");
    engine.send(json!({"id": "stages", "op": "status"}));
    let stages =
        engine.answer("stages")["result"]["dispatchStages"]["lastByEvent"]["pre_tool_use"].clone();
    for stage in [
        "received",
        "runtimeLocked",
        "registryRefreshed",
        "threadStarted",
        "sessionStateRead",
        "hooksEnded",
        "answered",
    ] {
        assert!(
            stages["stages"][stage]["tookMs"].is_u64()
                && stages["stages"][stage]["tookUs"].is_u64(),
            "{stage}: {stages}"
        );
    }
    // Stages usually take well under a millisecond each; the exact durations
    // still name one that took time, never the stage that starts the clock.
    let slowest = stages["slowestStage"].as_str().unwrap();
    assert_ne!(slowest, "received", "{stages}");
    assert!(
        stages["stages"][slowest]["tookUs"].as_u64() > Some(0),
        "{stages}"
    );
    assert_eq!(engine.close().status.code(), Some(0));
}

#[test]
fn malformed_frames_get_errors_and_the_engine_keeps_serving() {
    let home = tempfile::tempdir().unwrap();
    let mut engine = Engine::start(home.path(), None);
    engine.send_raw("{not json");
    assert!(
        engine.next()["error"]
            .as_str()
            .unwrap()
            .starts_with("the request is not JSON: ")
    );
    engine.send(json!({"op": "status"}));
    assert!(engine.next()["error"].as_str().unwrap().contains("no id"));
    engine.send(json!({"id": "x"}));
    assert_eq!(engine.answer("x")["error"], "the request has no op");
    engine.send(json!({"id": "y", "op": "explode"}));
    assert!(
        engine.answer("y")["error"]
            .as_str()
            .unwrap()
            .starts_with("unknown op `explode`")
    );
    engine.send(json!({"id": "z", "op": "status"}));
    assert_eq!(engine.answer("z")["ok"], true);
}

#[test]
fn answers_arrive_as_dispatches_finish() {
    let home = tempfile::tempdir().unwrap();
    let path = registry(
        home.path(),
        json!({"pre_tool_use:edit": {"blocking": true, "hooks": [{"id": "slow", "command": "sleep 2", "timeout": 10}]},
        "pre_tool_use:bash": {"blocking": true, "hooks": [{"id": "b", "type": "wasm", "component": "bypass.wasm", "sha256": ""}]}}),
    );
    // A registry that mixes a command hook with the built gate.
    let gate = std::fs::read(support::component("block-git-hook-bypass")).unwrap();
    std::fs::write(home.path().join("bypass.wasm"), &gate).unwrap();
    let mut raw: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    raw["events"]["pre_tool_use:bash"]["hooks"][0]["sha256"] =
        tama_core::registry::checksum::sha256_hex(&gate).into();
    std::fs::write(&path, raw.to_string()).unwrap();
    support::run_tama(
        home.path(),
        &["registry", "seal", path.to_str().unwrap()],
        "",
    );
    let mut engine = Engine::start(home.path(), Some(&path));
    // The first wasm dispatch compiles the components into the cache.
    engine.send(dispatch("warm", "git status"));
    assert_eq!(engine.answer("warm")["ok"], true);
    engine.send(json!({"id": "slow", "op": "dispatch", "event": "pre_tool_use", "payload": {"session_id": "s1", "tool_name": "edit", "tool_input": {"path": "a.rs"}}}));
    engine.send(dispatch("fast", "git status"));
    let first = engine.next();
    assert_eq!(
        first["id"], "fast",
        "the fast dispatch answered first: {first}"
    );
    assert_eq!(
        engine.answer("slow")["result"]["results"][0]["hookId"],
        "slow"
    );
}

#[test]
fn reloads_rejected_replacements_and_known_catalogs() {
    let home = tempfile::tempdir().unwrap();
    let marker = home.path().join("ran");
    let path = registry(
        home.path(),
        json!({"pre_tool_use": {"blocking": true, "hooks": [{"id": "mark", "command": format!("touch {}", marker.display()), "timeout": 5}]}}),
    );
    let mut engine = Engine::start(home.path(), Some(&path));
    let first = engine.ready["state"]["catalogChecksum"]
        .as_str()
        .unwrap()
        .to_string();
    engine.send(json!({"id": "r0", "op": "reload"}));
    assert_eq!(engine.answer("r0")["result"]["changed"], false);

    let good = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, "{\n  \"version\": 1,\n").unwrap();
    let mut request = dispatch("bad", "ls");
    request["knownCatalogChecksum"] = first.clone().into();
    engine.send(request);
    let answer = engine.answer("bad");
    assert_eq!(answer["ok"], false);
    assert_eq!(
        answer["error"],
        format!(
            "parsing hook registry {}: EOF while parsing a value at line 3 column 0",
            path.display()
        )
    );
    assert!(!marker.exists(), "no hook ran");
    assert_eq!(
        answer["state"]["catalogChecksum"],
        first.as_str(),
        "the old generation stays loaded"
    );
    assert!(
        answer.get("catalog").is_none(),
        "a client holding the loaded catalog gets none"
    );
    let mut stale = dispatch("stale", "ls");
    stale["knownCatalogChecksum"] = "0000".into();
    engine.send(stale);
    assert_eq!(
        engine.answer("stale")["catalog"]["catalogChecksum"],
        first.as_str(),
        "also on a rejected replacement"
    );

    let mut changed: Value = serde_json::from_str(&good).unwrap();
    changed["events"]["pre_tool_use"]["hooks"][0]["timeout"] = 6.into();
    std::fs::write(&path, changed.to_string()).unwrap();
    support::run_tama(
        home.path(),
        &["registry", "seal", path.to_str().unwrap()],
        "",
    );
    engine.send(dispatch("repaired", "ls"));
    let answer = engine.answer("repaired");
    assert_eq!(answer["ok"], true, "{answer}");
    assert!(marker.exists(), "the repaired registry's hook ran");
    assert_ne!(answer["state"]["catalogChecksum"], first.as_str());
    assert_eq!(answer["state"]["generation"], 2);
    assert_eq!(answer["state"]["lastReloadError"], Value::Null);
    assert_eq!(
        answer["result"]["sessionId"], "s1",
        "the event keeps its session"
    );
}

#[test]
fn closing_stdin_ends_every_hook_run_and_its_group() {
    let home = tempfile::tempdir().unwrap();
    let path = registry(
        home.path(),
        json!({"pre_tool_use": {"blocking": true, "hooks": [{"id": "forever", "command": "sleep 300", "timeout": 600}]}}),
    );
    let mut engine = Engine::start(home.path(), Some(&path));
    engine.send(dispatch("held", "ls"));
    let group = engine.held_on("forever");
    let started = Instant::now();
    let out = engine.close();
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(out.status.code(), Some(0));
    process::assert_group_gone(group, Duration::from_secs(1));
}

#[test]
fn a_thousand_dispatches_with_one_that_never_ends() {
    let home = tempfile::tempdir().unwrap();
    let path = registry(
        home.path(),
        json!({"pre_tool_use:edit": {"blocking": true, "hooks": [{"id": "forever", "command": "sleep 300", "timeout": 600}]}}),
    );
    let mut engine = Engine::start(home.path(), Some(&path));
    engine.send(json!({"id": "stuck", "op": "dispatch", "event": "pre_tool_use", "payload": {"session_id": "s1", "tool_name": "edit", "tool_input": {"path": "a.rs"}}}));
    for i in 0..1000 {
        engine.send(dispatch(&format!("d{i}"), "ls -la"));
    }
    for i in 0..1000 {
        let answer = engine.answer(&format!("d{i}"));
        assert_eq!(
            (
                answer["ok"].as_bool(),
                answer["result"]["decision"].as_str()
            ),
            (Some(true), Some("allow")),
            "{answer}"
        );
    }
    engine.send(json!({"id": "c", "op": "cancel", "dispatchId": "stuck"}));
    assert_eq!(engine.answer("c")["result"]["cancelled"], true);
    assert_eq!(engine.answer("stuck")["ok"], false);
}

#[test]
fn requests_sent_one_at_a_time_while_hooks_hang_are_answered() {
    let home = tempfile::tempdir().unwrap();
    let path = registry(
        home.path(),
        json!({"pre_tool_use:edit": {"blocking": true, "hooks": [{"id": "forever", "command": "sleep 300", "timeout": 600}]}}),
    );
    let mut engine = Engine::start(home.path(), Some(&path));
    for stuck in ["stuck1", "stuck2", "stuck3"] {
        // Nothing else waits in the input when the thread reading it meets a hook that never ends.
        engine.send(json!({"id": stuck, "op": "dispatch", "event": "pre_tool_use", "payload": {"session_id": stuck, "tool_name": "edit", "tool_input": {"path": "a.rs"}}}));
        std::thread::sleep(Duration::from_millis(100));
        engine.held_on("forever");
        for n in 0..3 {
            let id = format!("{stuck}-after{n}");
            engine.send(dispatch(&id, "git commit --no-verify -m x"));
            assert_eq!(
                engine.answer(&id)["result"]["decision"],
                "allow",
                "the registry has no hook on shell calls"
            );
        }
    }
    for stuck in ["stuck1", "stuck2", "stuck3"] {
        engine.send(json!({"id": "c", "op": "cancel", "dispatchId": stuck}));
        assert_eq!(engine.answer("c")["result"]["cancelled"], true);
        assert_eq!(engine.answer(stuck)["ok"], false);
    }
    assert_eq!(engine.close().status.code(), Some(0));
}

/// Rewrites `path` in place with `edit` applied, the same size and the same
/// modification time: only its status-change time tells it changed.
fn rewrite_in_place(path: &Path, edit: impl Fn(&str) -> String) {
    let before = std::fs::read_to_string(path).unwrap();
    let modified = std::fs::metadata(path).unwrap().modified().unwrap();
    let after = edit(&before);
    assert_eq!(after.len(), before.len());
    assert_ne!(after, before);
    std::fs::write(path, after).unwrap();
    let file = std::fs::File::options().write(true).open(path).unwrap();
    file.set_modified(modified).unwrap();
}

#[test]
fn a_session_override_changed_between_two_dispatches_counts_for_the_second() {
    let home = tempfile::tempdir().unwrap();
    let mut engine = Engine::start(home.path(), None);
    let override_path = home.path().join(format!(
        ".tama/session-control/{}.override.json",
        tama_core::session::control_key("omp", "s1")
    ));
    let mut n = 0;
    let mut decide = |engine: &mut Engine| {
        n += 1;
        let id = format!("d{n}");
        engine.send(dispatch(&id, "git commit --no-verify -m x"));
        let answer = engine.answer(&id);
        answer["result"]["decision"].as_str().unwrap().to_string()
    };
    let disable = || {
        let out = support::operator::run_operator(
            home.path(),
            &[
                "sessions",
                "override",
                "--agent",
                "omp",
                "--session",
                "s1",
                "--disable",
                "block-git-hook-bypass",
            ],
        );
        assert_eq!(out.status.code(), Some(0), "{}", support::text(&out.stderr));
    };
    let tamper =
        |text: &str| text.replace("\"block-git-hook-bypass\"", "\"block-git-hook-bypasz\"");
    assert_eq!(decide(&mut engine), "block", "no override yet");
    disable();
    assert_eq!(
        decide(&mut engine),
        "allow",
        "the operator's override counts"
    );
    // Changed within the same second, in place, with the same size.
    rewrite_in_place(&override_path, tamper);
    assert_eq!(
        decide(&mut engine),
        "block",
        "the edited override counts for nothing"
    );
    disable();
    // Once the file rests, it is read once and then remembered...
    std::thread::sleep(Duration::from_millis(2200));
    assert_eq!(decide(&mut engine), "allow");
    assert_eq!(decide(&mut engine), "allow");
    // ...until it changes, even in place with the same size and modification
    // time, and even when the change rests before the next dispatch.
    rewrite_in_place(&override_path, tamper);
    std::thread::sleep(Duration::from_millis(2200));
    assert_eq!(
        decide(&mut engine),
        "block",
        "the edited override counts for nothing"
    );
    std::fs::remove_file(&override_path).unwrap();
    assert_eq!(decide(&mut engine), "block", "no override any more");
    // A session whose files are absent from a folder at rest is remembered
    // so until the folder changes: a new override counts once it is there.
    std::thread::sleep(Duration::from_millis(2200));
    assert_eq!(decide(&mut engine), "block");
    assert_eq!(decide(&mut engine), "block");
    disable();
    std::thread::sleep(Duration::from_millis(2200));
    assert_eq!(decide(&mut engine), "allow", "the new override counts");
    assert_eq!(engine.close().status.code(), Some(0));
}

#[test]
fn hooks_left_by_an_engine_that_is_gone_are_reported_and_listed() {
    let home = tempfile::tempdir().unwrap();
    let path = registry(
        home.path(),
        json!({"pre_tool_use": {"blocking": true, "hooks": [{"id": "forever", "command": "sleep 300", "timeout": 600}]}}),
    );
    let mut first = Engine::start(home.path(), Some(&path));
    let first_pid = first.ready["state"]["processId"].as_i64().unwrap() as i32;
    first.send(dispatch("held", "ls"));
    let group = first.held_on("forever");
    let listed = support::run_tama(home.path(), &["hooks", "running"], "");
    assert!(
        support::text(&listed.stdout)
            .starts_with("forever (pre_tool_use, session s1, process group"),
        "{}",
        support::text(&listed.stdout)
    );
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(first_pid),
        nix::sys::signal::Signal::SIGKILL,
    )
    .unwrap();
    let _ = first.close();
    let mut second = Engine::start(home.path(), Some(&path));
    second.send(json!({"id": "s", "op": "status"}));
    let running = second.answer("s")["result"]["runningHooks"]["running"].clone();
    assert_eq!(running[0]["hook"], "forever", "{running}");
    assert_eq!(running[0]["corePid"], first_pid);
    assert_eq!(running[0]["processGroup"], group);
    let listed = support::run_tama(home.path(), &["hooks", "running", "--json"], "");
    let listed: Value = serde_json::from_slice(&listed.stdout).unwrap();
    assert_eq!(listed["leftByGoneProcesses"][0]["hook"], "forever");
    std::fs::write(
        home.path()
            .join(".tama/session-control/running.999999.json"),
        "{broken",
    )
    .unwrap();
    let unreadable = support::run_tama(home.path(), &["hooks", "running"], "");
    assert_eq!(unreadable.status.code(), Some(1));
    assert!(
        support::text(&unreadable.stderr).contains("running.999999.json"),
        "{}",
        support::text(&unreadable.stderr)
    );
    let _ = nix::sys::signal::killpg(
        nix::unistd::Pid::from_raw(group),
        nix::sys::signal::Signal::SIGKILL,
    );
    process::assert_group_gone(group, Duration::from_secs(2));
}

#[test]
fn a_frame_that_is_not_utf8_gets_an_error_and_the_engine_keeps_serving() {
    let home = tempfile::tempdir().unwrap();
    let mut engine = Engine::start(home.path(), None);
    engine.send_bytes(b"{\"id\": \"bad\", \"op\": \"status\", \"x\": \"\xff\xfe\"}\n");
    let answer = engine.next();
    assert_eq!(answer["ok"], false);
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .starts_with("the request is not UTF-8: "),
        "{answer}"
    );
    engine.send(dispatch("after", "git commit --no-verify -m x"));
    assert_eq!(
        engine.answer("after")["result"]["hookId"],
        "block-git-hook-bypass"
    );
    assert_eq!(engine.close().status.code(), Some(0));
}

#[test]
fn past_the_bound_on_dispatches_in_flight_a_request_is_refused_at_once() {
    let home = tempfile::tempdir().unwrap();
    let fifo = home.path().join("nobody-writes");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let path = registry(
        home.path(),
        json!({
        "pre_tool_use:edit": {"blocking": true, "hooks": [{"id": "stuck", "command": format!("cat {}", fifo.display()), "timeout": 600}]}}),
    );
    let mut engine = Engine::start_with(
        home.path(),
        Some(&path),
        &[("TAMA_SERVE_MAX_IN_FLIGHT", "2")],
    );
    let edit = |id: &str| json!({"id": id, "op": "dispatch", "event": "pre_tool_use:edit", "payload": {"session_id": id, "tool_name": "edit", "tool_input": {"path": id}}});
    engine.send(edit("one"));
    engine.held_on("stuck");
    engine.send(edit("two"));
    let started = Instant::now();
    engine.send(edit("three"));
    let refused = engine.answer("three");
    assert_eq!(refused["ok"], false);
    assert_eq!(
        refused["error"],
        "TAMA_HOOK_INFRASTRUCTURE: dispatch three of pre_tool_use:edit was not started: 2 dispatches are in flight, the most this engine runs at once"
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "refused at once, not after the hung ones"
    );
    // A request that is not a dispatch is still answered.
    engine.send(json!({"id": "s", "op": "status"}));
    assert_eq!(engine.answer("s")["ok"], true);
    engine.send(json!({"id": "c", "op": "cancel", "dispatchId": "one"}));
    assert_eq!(engine.answer("one")["ok"], false);
    engine.send(dispatch("four", "ls"));
    assert_eq!(
        engine.answer("four")["ok"],
        true,
        "a freed place takes a new dispatch"
    );
    let refused = Engine::start_with(
        home.path(),
        Some(&path),
        &[("TAMA_SERVE_MAX_IN_FLIGHT", "0")],
    )
    .ready;
    assert_eq!(refused["ready"], false);
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("TAMA_SERVE_MAX_IN_FLIGHT is \"0\""),
        "{refused}"
    );
}

#[test]
fn a_dispatch_whose_thread_cannot_start_answers_the_cause_and_the_engine_keeps_serving() {
    let home = tempfile::tempdir().unwrap();
    // A command hook may never end: before it runs, another thread must read on.
    let path = registry(
        home.path(),
        json!({"pre_tool_use:edit": {"blocking": true, "hooks": [{"id": "check", "command": "true", "timeout": 10}]}}),
    );
    let edit = |id: &str| json!({"id": id, "op": "dispatch", "event": "pre_tool_use", "payload": {"session_id": "s1", "tool_name": "edit", "tool_input": {"path": "a.rs"}}});
    let mut engine = Engine::start(home.path(), Some(&path));
    // A call that runs no hook starts the wasm host and runs on the reading thread.
    engine.send(dispatch("warm", "ls"));
    assert_eq!(engine.answer("warm")["result"]["decision"], "allow");
    let pid = engine.ready["state"]["processId"]
        .as_u64()
        .unwrap()
        .to_string();
    // No idle thread exists yet; cap the engine's address space where it stands, so no thread stack can be mapped.
    let cap = AddressSpaceCap::settled(&pid);
    engine.send(edit("starved"));
    let answer = engine.answer("starved");
    drop(cap);
    assert_eq!(answer["ok"], false, "{answer}");
    let error = answer["error"].as_str().unwrap();
    assert!(
        error.starts_with("TAMA_HOOK_INFRASTRUCTURE: dispatch starved cannot start a thread: "),
        "{error}"
    );
    assert!(
        error.contains("hook check and the ones after it were not started"),
        "{error}"
    );
    engine.send(edit("after"));
    let after = engine.answer("after");
    assert_eq!(after["result"]["results"][0]["hookId"], "check", "{after}");
    assert_eq!(after["result"]["decision"], "allow", "{after}");
    assert_eq!(engine.close().status.code(), Some(0));
}

/// A cap on a process's address space a little above what it maps now, so
/// that it cannot map a thread's stack; lifted when dropped.
struct AddressSpaceCap<'a>(&'a str);

impl<'a> AddressSpaceCap<'a> {
    /// Caps `pid` once it has settled: a gate call arms the epoch ticker,
    /// whose thread maps its allocator's arena a moment after the answer
    /// (twice that size while it aligns it). A size read meanwhile would
    /// leave room for a stack, so the cap is set again until the size read
    /// before it is the size after it.
    fn settled(pid: &'a str) -> Self {
        let cap = AddressSpaceCap(pid);
        std::thread::sleep(Duration::from_millis(200));
        for _ in 0..50 {
            let mapped = cap.mapped_kib();
            cap.set(&((mapped + 512) * 1024).to_string());
            std::thread::sleep(Duration::from_millis(20));
            if cap.mapped_kib() == mapped {
                return cap;
            }
        }
        panic!("the address space of {pid} never settled");
    }

    fn mapped_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.0)).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmSize:"))
            .and_then(|size| size.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap()
    }

    fn set(&self, value: &str) {
        let status = std::process::Command::new("prlimit")
            .args(["--pid", self.0, &format!("--as={value}:")])
            .status()
            .unwrap();
        assert!(status.success(), "prlimit --as={value}");
    }
}

impl Drop for AddressSpaceCap<'_> {
    fn drop(&mut self) {
        self.set("unlimited");
    }
}

/// Once its gates have run and it has settled, an engine nobody sends to
/// sleeps: no thread of it runs, however long it waits.
#[test]
fn an_idle_engine_does_not_wake() {
    let home = tempfile::tempdir().unwrap();
    let mut engine = Engine::start(home.path(), None);
    for id in ["a", "b", "c"] {
        engine.send(dispatch(id, "git commit --no-verify -m x"));
        assert_eq!(engine.answer(id)["result"]["decision"], "block");
    }
    std::thread::sleep(Duration::from_millis(500));
    let wake_ups = || support::wake_ups::wake_ups(engine.pid()).expect("the engine runs");
    let settled = wake_ups();
    std::thread::sleep(Duration::from_secs(1));
    assert_eq!(wake_ups(), settled, "the idle engine woke");
}
