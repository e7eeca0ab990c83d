//! Hostile plugins end within their bounds with a named error, reach nothing
//! outside the WIT interface, and leave the host able to serve the next call.

use crate::support;

use std::sync::Arc;

use serde_json::json;
use tama_core::event::Event;
use tama_core::registry::tool_declaration;
use tama_core::wasm::{ComponentBytes, Gate, GateEvent, GateFault, Host, NoState, Verdict};

fn host(cache: &tempfile::TempDir) -> Host {
    Host::new(cache.path().to_path_buf(), &tool_declaration()).expect("host starts")
}

fn load(host: &Host, name: &str) -> Result<Gate, GateFault> {
    let bytes = std::fs::read(support::component(name)).expect("component built");
    let sha = tama_core::registry::checksum::sha256_hex(&bytes);
    Gate::load(
        host,
        name,
        &ComponentBytes::checked(bytes, &sha).unwrap(),
        &json!({}),
        &[],
    )
}

fn shell_event(command: &str) -> Arc<GateEvent> {
    let payload = support::shell_payload(command);
    Arc::new(GateEvent::new(
        Event::decode(&payload, None).expect("payload decodes"),
    ))
}

/// The host still decides a real payload after a hostile call.
fn assert_host_still_serves(host: &Host) {
    let gate = load(host, "block-git-hook-bypass").expect("the real gate loads");
    let verdict = gate
        .evaluate(
            &shell_event("git commit --no-verify -m x"),
            Arc::new(NoState),
        )
        .unwrap();
    assert!(
        matches!(verdict, Verdict::Refuse(ref r) if r.contains("--no-verify")),
        "{verdict:?}"
    );
}

fn hostile_fault(name: &str) -> GateFault {
    let cache = tempfile::tempdir().unwrap();
    let host = host(&cache);
    let gate = load(&host, &format!("hostile-{name}")).expect("hostile component loads");
    let started = std::time::Instant::now();
    let fault = gate
        .evaluate(&shell_event("git status"), Arc::new(NoState))
        .expect_err("a hostile gate never decides");
    eprintln!("hostile-{name}: {fault} after {:?}", started.elapsed());
    assert_host_still_serves(&host);
    fault
}

#[test]
fn a_gate_that_loops_forever_hits_its_execution_bound() {
    assert_eq!(hostile_fault("loop"), GateFault::TimeBound);
}

#[test]
fn a_gate_that_sleeps_on_a_clock_is_refused_the_wait_within_its_bound() {
    let started = std::time::Instant::now();
    let fault = hostile_fault("sleep");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(5),
        "the five-second sleep did not happen: {fault}"
    );
    assert!(fault.to_string().contains("waited on a clock"), "{fault}");
}

#[test]
fn a_gate_that_grows_memory_without_end_hits_its_memory_bound() {
    assert_eq!(hostile_fault("grow-memory"), GateFault::MemoryBound);
}

#[test]
fn a_gate_whose_memories_together_outgrow_the_bound_hits_it() {
    assert_eq!(hostile_fault("many-memories"), GateFault::MemoryBound);
}

#[test]
fn a_registered_gate_whose_memories_together_outgrow_the_bound_is_refused_by_name() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("hooks");
    std::fs::create_dir_all(&dir).unwrap();
    let bytes =
        std::fs::read(support::component("hostile-many-memories")).expect("component built");
    std::fs::write(dir.join("gate.wasm"), &bytes).unwrap();
    let sha256 = tama_core::registry::checksum::sha256_hex(&bytes);
    let registry = json!({
        "version": 1,
        "events": {"pre_tool_use": {"blocking": true, "hooks": [
            {"id": "many-memories", "type": "wasm", "component": "gate.wasm", "sha256": sha256}
        ]}}
    });
    let path = dir.join("registry.json");
    std::fs::write(&path, registry.to_string()).unwrap();
    let sealed = support::run_tama(
        home.path(),
        &["registry", "seal", path.to_str().unwrap()],
        "",
    );
    assert_eq!(
        sealed.status.code(),
        Some(0),
        "{}",
        support::text(&sealed.stderr)
    );
    let payload = support::shell_payload("git status");
    let out = support::run_tama(
        home.path(),
        &[
            "hook",
            "--registry",
            path.to_str().unwrap(),
            "many-memories",
        ],
        &payload,
    );
    let stdout = support::text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.starts_with(
            "TAMA_HOOK_INFRASTRUCTURE: gate many-memories hit its memory bound of 64 MiB"
        ),
        "{stdout}"
    );
}

#[test]
fn a_gate_that_recurses_without_end_hits_a_bound() {
    let fault = hostile_fault("recurse");
    assert!(
        matches!(fault, GateFault::StackBound | GateFault::Trap(_)),
        "{fault}"
    );
}

#[test]
fn a_gate_that_traps_is_a_named_trap() {
    assert!(matches!(hostile_fault("trap"), GateFault::Trap(_)));
}

#[test]
fn a_gate_importing_what_tama_does_not_provide_is_refused_at_load() {
    let cache = tempfile::tempdir().unwrap();
    let host = host(&cache);
    let fault = load(&host, "hostile-missing-import")
        .err()
        .expect("it cannot load");
    assert!(
        matches!(fault, GateFault::Load(ref why) if why.contains("tama:extra")),
        "{fault}"
    );
    assert_host_still_serves(&host);
}

#[test]
fn a_gate_reaches_no_file_variable_clock_or_socket() {
    let cache = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    // SAFETY: set before any thread of this test process reads the environment.
    unsafe { std::env::set_var("TAMA_HOME", home.path()) };
    let host = host(&cache);
    let gate = load(&host, "hostile-wasi-probe").expect("probe loads");
    let Verdict::Refuse(report) = gate
        .evaluate(&shell_event("git status"), Arc::new(NoState))
        .expect("probe reports")
    else {
        panic!("the probe reports what it reached as a refusal");
    };
    let report: serde_json::Value = serde_json::from_str(&report).expect("the report is JSON");
    for reached in ["file", "dir", "cwd_dir", "tcp", "dns"] {
        if let Some(value) = report.get(reached) {
            assert!(
                value.as_str().is_some_and(|v| v.starts_with("error")),
                "{reached} was reached: {report}"
            );
        }
    }
    assert_eq!(report["env_count"], 0, "{report}");
    assert_eq!(report["home"], serde_json::Value::Null, "{report}");
    assert_eq!(report["args"], 0, "{report}");
    assert_eq!(report["clock_secs"], 0, "{report}");
    let log = std::fs::read_to_string(home.path().join("tama.log"))
        .expect("what the probe printed is in Tama's log");
    assert!(log.contains("gate hostile-wasi-probe stdout"), "{log}");
    assert_host_still_serves(&host);
}

/// A serving host keeps the stores of finished calls until an answer is
/// written, and a built-in gate's idle instances; calls that never reach an
/// answer (many on one thread, and on many threads at once) still each get
/// an instance, and decide, for a built-in gate and for another.
#[test]
fn calls_whose_answers_are_never_written_do_not_exhaust_the_instance_pool() {
    let cache = tempfile::tempdir().unwrap();
    let host = host(&cache);
    for (name, refuses) in [("block-git-hook-bypass", true), ("hostile-remember", false)] {
        let gate = load(&host, name).expect("the gate loads");
        let event = shell_event("git commit --no-verify -m x");
        let decide = || {
            let verdict = gate.evaluate(&event, Arc::new(NoState));
            assert_eq!(
                matches!(verdict, Ok(Verdict::Refuse(_))),
                refuses,
                "{name}: {verdict:?}"
            );
            assert!(verdict.is_ok(), "{name}: {verdict:?}");
        };
        for _ in 0..500 {
            decide();
        }
        std::thread::scope(|scope| {
            for _ in 0..8 {
                scope.spawn(|| (0..100).for_each(|_| decide()));
            }
        });
    }
    tama_core::wasm::drop_spent();
    assert_host_still_serves(&host);
}

/// A gate that is not built in answers every event in a fresh instance:
/// what it keeps from one event never reaches the next.
#[test]
fn a_plugin_gate_carries_nothing_from_one_event_to_the_next() {
    let cache = tempfile::tempdir().unwrap();
    let host = host(&cache);
    let gate = load(&host, "hostile-remember").expect("the gate loads");
    for _ in 0..5 {
        let verdict = gate.evaluate(&shell_event("git status"), Arc::new(NoState));
        assert_eq!(verdict, Ok(Verdict::Pass));
    }
}

/// Built-in gates keep idle instances between events; however many gates
/// of a registry keep some, on however many threads, a call of yet another
/// gate still gets an instance.
#[test]
fn idle_instances_of_many_built_in_gates_leave_the_pool_room() {
    let cache = tempfile::tempdir().unwrap();
    let host = host(&cache);
    let gates: Vec<Gate> = (0..100)
        .map(|_| load(&host, "block-git-hook-bypass").expect("the gate loads"))
        .collect();
    let event = shell_event("git commit --no-verify -m x");
    std::thread::scope(|scope| {
        for some in gates.chunks(13) {
            let event = &event;
            scope.spawn(move || {
                for gate in some.iter().cycle().take(3 * some.len()) {
                    let verdict = gate.evaluate(event, Arc::new(NoState));
                    assert!(matches!(verdict, Ok(Verdict::Refuse(_))), "{verdict:?}");
                }
            });
        }
    });
    let other = load(&host, "hostile-remember").expect("another gate loads");
    let verdict = other.evaluate(&shell_event("git status"), Arc::new(NoState));
    assert_eq!(verdict, Ok(Verdict::Pass));
    assert_host_still_serves(&host);
}

/// A built-in gate's kept instance answers event after event without its
/// memory growing: nothing of one event stays behind in it.
#[test]
fn kept_instances_of_built_in_gates_do_not_grow_from_event_to_event() {
    let cache = tempfile::tempdir().unwrap();
    let host = host(&cache);
    let commands = [
        "git commit --no-verify -m x",
        "cd /tmp && for f in *.txt; do grep -c x \"$f\" | tee -a out.log; done",
        "cat ~/.tama/registry.json; python3 -c 'print(1)' && git push origin HEAD",
    ];
    for name in ["block-git-hook-bypass", "protect-tama"] {
        let gate = load(&host, name).expect("the gate loads");
        let decide_all = || {
            for command in commands {
                let verdict = gate.evaluate(&shell_event(command), Arc::new(NoState));
                assert!(verdict.is_ok(), "{name}: {verdict:?}");
            }
        };
        decide_all();
        let settled = gate.idle_memory();
        assert_eq!(settled.len(), 1, "{name} keeps its instance");
        for _ in 0..1000 {
            decide_all();
        }
        assert_eq!(gate.idle_memory(), settled, "{name}'s kept instance grew");
    }
}
