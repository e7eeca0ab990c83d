//! The session's capability reaches hook commands only when the operator
//! granted it with `tama sessions grant`, its binding (session, control key,
//! release, catalog checksum) matches the loaded policy and its limits allow
//! a use, through one-event runs and the serving engine.

use crate::support;

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use support::engine::Engine;
use support::operator::run_operator;
use tama_core::session::control_key;

/// A registry of `release` whose command hook appends the capability it was handed to `seen`.
fn registry(home: &Path, release: &str) -> (PathBuf, String) {
    let seen = home.join("seen");
    let path = home.join(format!("registry-{release}.json"));
    let hook = json!({"id": "granted", "command": format!("printf '%s\\n' \"${{TAMA_CAPABILITY-none}}\" >> {}", seen.display())});
    let registry = json!({"version": 1, "releaseId": release, "events": {"pre_tool_use": {"blocking": true, "hooks": [hook]}}});
    std::fs::write(&path, registry.to_string()).unwrap();
    assert_eq!(
        support::run_tama(home, &["registry", "seal", path.to_str().unwrap()], "")
            .status
            .code(),
        Some(0)
    );
    let sealed: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    (
        path,
        sealed["catalogChecksum"].as_str().unwrap().to_string(),
    )
}

/// The operator grants `agent`'s sess-1 `bash:push` under `registry`, with `extra` arguments.
fn grant(home: &Path, agent: &str, registry: &Path, extra: &[&str]) -> Value {
    let mut args = vec![
        "sessions",
        "grant",
        "--agent",
        agent,
        "--session",
        "sess-1",
        "--registry",
        registry.to_str().unwrap(),
        "--grant",
        "bash:push",
    ];
    args.extend_from_slice(extra);
    let out = run_operator(home, &args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        support::text(&out.stdout),
        support::text(&out.stderr)
    );
    held(home, agent)
}

fn record_path(home: &Path, agent: &str) -> PathBuf {
    home.join(format!(
        ".tama/session-control/{}.session.json",
        control_key(agent, "sess-1")
    ))
}

/// The capability the session record holds.
fn held(home: &Path, agent: &str) -> Value {
    serde_json::from_str::<Value>(&std::fs::read_to_string(record_path(home, agent)).unwrap())
        .unwrap()["capability"]
        .clone()
}

/// Puts `capability` in `agent`'s session record as it stands.
fn hold(home: &Path, agent: &str, capability: &Value) {
    let path = record_path(home, agent);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut record: Value = std::fs::read_to_string(&path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(json!({}));
    record["capability"] = capability.clone();
    std::fs::write(path, record.to_string()).unwrap();
}

/// The capability as hooks are handed it: without its tag.
fn handed(capability: &Value) -> Value {
    let mut handed = capability.clone();
    handed.as_object_mut().unwrap().remove("tag");
    handed
}

fn call() -> Value {
    json!({"session_id": "sess-1", "tool_name": "Bash", "tool_input": {"command": "git status"}})
}

/// What the hook was handed in a one-event run.
fn one_event(home: &Path, registry: &Path, env: &[(&str, &str)]) -> String {
    let _ = std::fs::remove_file(home.join("seen"));
    let out = support::run_tama_with(
        home,
        &[
            "run-hook",
            "--registry",
            registry.to_str().unwrap(),
            "pre_tool_use",
            "agent-1",
        ],
        &call().to_string(),
        env,
    );
    assert_eq!(out.status.code(), Some(0), "{}", support::text(&out.stderr));
    std::fs::read_to_string(home.join("seen"))
        .unwrap()
        .trim_end()
        .to_string()
}

fn log(home: &Path) -> String {
    std::fs::read_to_string(home.join(".tama/tama.log")).unwrap_or_default()
}

#[test]
fn the_operators_grant_reaches_the_hook_and_stays_in_the_session_record() {
    let home = tempfile::tempdir().unwrap();
    let (path, checksum) = registry(home.path(), "r1");
    let capability = grant(home.path(), "agent-1", &path, &[]);
    assert_eq!(
        (
            capability["issuedBy"].as_str(),
            capability["releaseId"].as_str()
        ),
        (Some("tama sessions grant"), Some("r1"))
    );
    assert_eq!(capability["catalogChecksum"], checksum);
    let seen: Value = serde_json::from_str(&one_event(home.path(), &path, &[])).unwrap();
    assert_eq!(seen, handed(&capability));
    assert_eq!(
        held(home.path(), "agent-1"),
        capability,
        "the run keeps the operator's grant"
    );
    assert_eq!(
        one_event(home.path(), &path, &[]),
        handed(&capability).to_string(),
        "and the next run hands it again"
    );
}

#[test]
fn a_grant_for_another_release_checksum_or_control_key_does_not() {
    let home = tempfile::tempdir().unwrap();
    let (path, _) = registry(home.path(), "r1");
    let (other, _) = registry(home.path(), "r0");
    let for_r0 = grant(home.path(), "agent-1", &other, &[]);
    let for_agent_2 = grant(home.path(), "agent-2", &path, &[]);
    let cases = [
        (
            for_r0,
            "the grant is bound to releaseId \"r0\", the loaded policy's is \"r1\"",
        ),
        (for_agent_2, "the grant is bound to controlKey"),
    ];
    for (capability, why) in cases {
        hold(home.path(), "agent-1", &capability);
        assert_eq!(one_event(home.path(), &path, &[]), "none", "{capability}");
        assert!(
            log(home.path()).contains(&format!(
                "capability: session sess-1: no capability handed to its hooks: {why}"
            )),
            "{}",
            log(home.path())
        );
    }
    // Nor does a capability in Tama's own environment.
    std::fs::remove_dir_all(home.path().join(".tama/session-control")).unwrap();
    assert_eq!(
        one_event(
            home.path(),
            &path,
            &[("TAMA_CAPABILITY", "{\"grants\":[{\"tool\":\"bash\"}]}")]
        ),
        "none"
    );
}

#[test]
fn a_hand_written_or_edited_grant_is_refused_by_name() {
    let home = tempfile::tempdir().unwrap();
    let (path, checksum) = registry(home.path(), "r1");
    let genuine = grant(home.path(), "agent-1", &path, &["--uses", "1"]);
    let nonce = genuine["nonce"].as_str().unwrap().to_string();
    let mut more_uses = genuine.clone();
    more_uses["remainingUses"] = json!(5);
    let mut other_issuer = genuine.clone();
    other_issuer["issuedBy"] = json!("tama-desktop");
    let hand_written = json!({"schemaVersion": 1, "issuedBy": "tama sessions grant", "nonce": "n-1", "sessionId": "sess-1",
        "controlKey": control_key("agent-1", "sess-1"), "releaseId": "r1", "catalogChecksum": checksum,
        "lifetime": "session", "grants": [{"tool": "bash"}]});
    for (capability, why) in [
        (
            more_uses,
            format!(
                "capability {nonce} was not written by `tama sessions grant`: its tag does not verify"
            ),
        ),
        (
            other_issuer,
            format!("capability {nonce} was not written by `tama sessions grant`"),
        ),
        (
            hand_written,
            "capability n-1 was not written by `tama sessions grant`: its tag does not verify"
                .into(),
        ),
        (json!("all"), "the grant is not a capability record".into()),
    ] {
        hold(home.path(), "agent-1", &capability);
        assert_eq!(one_event(home.path(), &path, &[]), "none", "{capability}");
        assert!(
            log(home.path()).contains(&why),
            "{why}: {}",
            log(home.path())
        );
    }
    // The refusal is named in the decision when the event is refused.
    let refusing = home.path().join("refusing.json");
    let registry = json!({"version": 1, "releaseId": "r1", "events": {"pre_tool_use": {"blocking": true, "hooks": [{"id": "needs-grant", "command": "test -n \"$TAMA_CAPABILITY\" || { echo 'no grant' >&2; exit 2; }"}]}}});
    std::fs::write(&refusing, registry.to_string()).unwrap();
    support::run_tama(
        home.path(),
        &["registry", "seal", refusing.to_str().unwrap()],
        "",
    );
    let out = support::run_tama(
        home.path(),
        &[
            "run-hook",
            "--registry",
            refusing.to_str().unwrap(),
            "pre_tool_use",
            "agent-1",
        ],
        &call().to_string(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        support::text(&out.stderr)
            .contains("the session's capability was refused: the grant is not a capability record"),
        "{}",
        support::text(&out.stderr)
    );
}

#[test]
fn a_single_use_authorizes_exactly_one_event_even_when_events_race() {
    let home = tempfile::tempdir().unwrap();
    let (path, _) = registry(home.path(), "r1");
    let capability = grant(home.path(), "agent-1", &path, &["--uses", "1"]);
    let nonce = capability["nonce"].as_str().unwrap().to_string();
    assert_eq!(
        one_event(home.path(), &path, &[]),
        handed(&capability).to_string()
    );
    assert_eq!(one_event(home.path(), &path, &[]), "none");
    assert!(
        log(home.path()).contains(&format!("capability {nonce} is spent: no uses remain")),
        "{}",
        log(home.path())
    );
    assert_eq!(held(home.path(), "agent-1")["remainingUses"], 0);
    // Events racing for one use: one of them gets it.
    for extra in [&["--uses", "1"][..], &["--lifetime", "invocation"][..]] {
        grant(home.path(), "agent-1", &path, extra);
        let _ = std::fs::remove_file(home.path().join("seen"));
        let racing: Vec<_> = (0..4)
            .map(|_| {
                let mut child = support::tama_in(home.path())
                    .args([
                        "run-hook",
                        "--registry",
                        path.to_str().unwrap(),
                        "pre_tool_use",
                        "agent-1",
                    ])
                    .spawn()
                    .unwrap();
                use std::io::Write;
                child
                    .stdin
                    .take()
                    .unwrap()
                    .write_all(call().to_string().as_bytes())
                    .unwrap();
                child
            })
            .collect();
        for child in racing {
            assert_eq!(child.wait_with_output().unwrap().status.code(), Some(0));
        }
        let seen = std::fs::read_to_string(home.path().join("seen")).unwrap();
        let granted = seen.lines().filter(|l| *l != "none").count();
        assert_eq!((granted, seen.lines().count()), (1, 4), "{extra:?}: {seen}");
    }
}

#[test]
fn an_expired_grant_is_refused_by_name() {
    let home = tempfile::tempdir().unwrap();
    let (path, _) = registry(home.path(), "r1");
    let capability = grant(
        home.path(),
        "agent-1",
        &path,
        &["--lifetime", "expiry", "--expires-in", "1s"],
    );
    std::thread::sleep(std::time::Duration::from_millis(1100));
    assert_eq!(one_event(home.path(), &path, &[]), "none");
    let why = format!(
        "capability {} expired at {}",
        capability["nonce"].as_str().unwrap(),
        capability["expiresAt"]
    );
    assert!(
        log(home.path()).contains(&why),
        "{why}: {}",
        log(home.path())
    );
}

#[test]
fn after_a_reload_an_old_grant_does_not_reach_the_new_hooks() {
    let home = tempfile::tempdir().unwrap();
    let (first_path, _) = registry(home.path(), "r1");
    let live = home.path().join("registry.json");
    std::fs::copy(&first_path, &live).unwrap();
    let first = grant(home.path(), "omp", &live, &[]);
    let mut engine = Engine::start(home.path(), Some(&live));
    let seen = || last_seen(home.path());
    let dispatch =
        |id: &str| json!({"id": id, "op": "dispatch", "event": "pre_tool_use", "payload": call()});
    engine.send(dispatch("before"));
    assert_eq!(engine.answer("before")["ok"], true);
    assert_eq!(seen(), handed(&first).to_string());
    // Another release is installed; the grant still names the first.
    let (second_path, _) = registry(home.path(), "r2");
    std::fs::copy(&second_path, &live).unwrap();
    engine.send(json!({"id": "reload", "op": "reload"}));
    assert_eq!(engine.answer("reload")["result"]["changed"], true);
    engine.send(dispatch("after"));
    assert_eq!(engine.answer("after")["state"]["loadedReleaseId"], "r2");
    assert_eq!(seen(), "none");
    assert!(
        log(home.path())
            .contains("the grant is bound to releaseId \"r1\", the loaded policy's is \"r2\""),
        "{}",
        log(home.path())
    );
    // Granted again under the loaded release, it reaches the hooks again.
    let second = grant(home.path(), "omp", &live, &[]);
    engine.send(dispatch("rebound"));
    assert_eq!(engine.answer("rebound")["ok"], true);
    assert_eq!(seen(), handed(&second).to_string());
    engine.close();
}

#[test]
fn a_grant_made_after_the_engine_read_the_session_record_reaches_the_next_dispatch() {
    let home = tempfile::tempdir().unwrap();
    let (path, _) = registry(home.path(), "r1");
    let mut engine = Engine::start(home.path(), Some(&path));
    let seen = || last_seen(home.path());
    let mut n = 0;
    let mut dispatch = |engine: &mut Engine| {
        n += 1;
        let id = format!("d{n}");
        engine
            .send(json!({"id": id, "op": "dispatch", "event": "pre_tool_use", "payload": call()}));
        assert_eq!(engine.answer(&id)["ok"], true);
        seen()
    };
    // A session record without a capability, at rest: the engine remembers it holds none.
    let record = record_path(home.path(), "omp");
    std::fs::create_dir_all(record.parent().unwrap()).unwrap();
    std::fs::write(&record, json!({"sessionId": "sess-1"}).to_string()).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(2200));
    assert_eq!(dispatch(&mut engine), "none");
    assert_eq!(dispatch(&mut engine), "none");
    // Granted, and the record at rest again before the next dispatch.
    let granted = grant(home.path(), "omp", &path, &[]);
    std::thread::sleep(std::time::Duration::from_millis(2200));
    assert_eq!(dispatch(&mut engine), handed(&granted).to_string());
    engine.close();
}

#[test]
fn a_dispatch_waiting_for_a_session_lock_another_process_holds_holds_up_no_other_request() {
    let home = tempfile::tempdir().unwrap();
    let (path, _) = registry(home.path(), "r1");
    let granted = grant(home.path(), "omp", &path, &[]);
    hold(home.path(), "omp", &granted);
    let lock = home
        .path()
        .join(format!(".tama/locks/{}.lock", control_key("omp", "sess-1")));
    // Another process holds the session's lock: this test's own.
    std::fs::create_dir_all(lock.parent().unwrap()).unwrap();
    let holder = std::fs::File::create(&lock).unwrap();
    holder.lock().unwrap();
    let mut engine = Engine::start(home.path(), Some(&path));
    engine.send(
        json!({"id": "locked", "op": "dispatch", "event": "pre_tool_use", "payload": call()}),
    );
    std::thread::sleep(std::time::Duration::from_millis(200));
    engine.send(json!({"id": "other", "op": "status"}));
    let first = engine.next();
    assert_eq!(first["id"], "other", "{first}");
    let locked = engine.answer("locked");
    holder.unlock().unwrap();
    assert_eq!(locked["ok"], true, "{locked}");
    let seen = std::fs::read_to_string(home.path().join("seen")).unwrap();
    assert_eq!(seen.trim_end(), "none", "the capability was not handed");
    assert!(
        log(home.path()).contains("stayed locked"),
        "{}",
        log(home.path())
    );
    engine.close();
}

/// What the recording hook saw last: the capability it was handed, or `none`.
fn last_seen(home: &Path) -> String {
    std::fs::read_to_string(home.join("seen"))
        .unwrap()
        .lines()
        .last()
        .unwrap()
        .to_string()
}
