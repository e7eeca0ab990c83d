//! Serve frames, fuzzed through the built `tama run-hook --serve omp`: any
//! line a client sends, JSON or not, is answered or ignored without the
//! engine dying, and the engine still answers a status request after them.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{Value, json};

/// The `tama` the workspace's test build made, beside this test's folder.
fn tama() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let release = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/release");
    let tama = release.join("tama");
    assert!(
        tama.is_file(),
        "{} is not built: run the workspace's tests (scripts/test)",
        tama.display()
    );
    tama
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        "[ -~]{0,16}".prop_map(Value::String),
        Just(json!({"tool_name": "bash", "tool_input": {"command": "ls"}})),
        Just(json!({"tool_name": "bash"})),
    ]
}

/// A frame: a request of a known or unknown op with fields possibly of the
/// wrong type, or a line that is not JSON at all.
fn frame() -> impl Strategy<Value = String> {
    let request = (
        prop::sample::select(&["status", "reload", "dispatch", "cancel", "", "Status", "nonsense"][..]),
        leaf(),
        prop::sample::select(&["pre_tool_use", "pre_tool_use:bash", "tool_call", "stop", "bogus", ""][..]),
        leaf(),
        leaf(),
    )
        .prop_map(|(op, id, event, payload, extra)| {
            json!({"id": id, "op": op, "event": event, "payload": payload, "knownCatalogChecksum": extra}).to_string()
        });
    prop_oneof![
        4 => request,
        1 => "[ -~]{0,40}",
        1 => any::<String>().prop_map(|s| s.replace(['\n', '\r'], " ")),
        1 => Just("[]".to_owned()),
        1 => Just("{\"op\":\"status\"".to_owned()),
    ]
}

#[test]
fn frames_never_stop_the_engine() {
    let home = tempfile::tempdir().expect("a scratch home");
    let mut child = Command::new(tama())
        .args(["run-hook", "--serve", "omp"])
        .env("HOME", home.path())
        .env("TAMA_HOME", home.path().join(".tama"))
        .env("TAMA_CACHE_DIR", home.path().join("cache"))
        .env("OKO_HOME", home.path().join(".oko"))
        .env_remove("TAMA_REGISTRY")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("tama starts");
    let stdout = child.stdout.take().expect("stdout");
    let (send, answers) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = send.send(line);
        }
    });
    let mut stdin = child.stdin.take().expect("stdin");
    let mut runner = TestRunner::new(Config {
        cases: 200,
        ..Config::default()
    });
    let mut sent = Vec::new();
    for _ in 0..200 {
        let line = frame().new_tree(&mut runner).expect("a frame").current();
        writeln!(stdin, "{line}").expect("the engine reads its input");
        sent.push(line);
    }
    writeln!(stdin, "{}", json!({"id": "final", "op": "status"}))
        .expect("the engine reads its input");
    stdin.flush().expect("flushed");
    let mut last = None;
    loop {
        let Ok(line) = answers.recv_timeout(Duration::from_secs(60)) else {
            panic!(
                "no answer to the final status after {} frames; last answer {last:?}; sent:\n{}",
                sent.len(),
                sent.join("\n")
            );
        };
        let answer: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("an answer is not JSON ({e}): {line}"));
        if answer["id"] == "final" {
            assert_eq!(answer["ok"], true, "{answer}");
            break;
        }
        last = Some(line);
    }
    drop(stdin);
    let status = child.wait().expect("tama ends");
    assert!(
        status.success(),
        "tama exited with {status} after its input closed"
    );
}
