//! The case table of `block-git-hook-bypass`, through the built component in
//! the engine's host, as `tama run-hook` runs it.

use crate::support;

use std::sync::Arc;

use serde::Deserialize;
use tama_core::event::Event;
use tama_core::registry::{Loaded, tool_declaration};
use tama_core::wasm::{Gate, GateEvent, Host, NoState, Verdict};

#[derive(Deserialize)]
struct Case {
    command: String,
    refuse: bool,
    #[serde(default)]
    why: String,
}

/// The built-in gate, as the embedded default registry loads it.
fn gate(host: &Host) -> Gate {
    let registry = Loaded::embedded().unwrap();
    let entry = registry
        .registry
        .hooks_named("block-git-hook-bypass")
        .next()
        .unwrap();
    Gate::load(
        host,
        &entry.id,
        &registry.component(entry).unwrap(),
        &serde_json::json!({}),
        &[],
    )
    .unwrap()
}

#[test]
fn every_case_of_the_table_decides_as_written() {
    let table = std::fs::read_to_string(support::repo_file(
        "plugins/block-git-hook-bypass/tests/cases.json",
    ))
    .unwrap();
    let cases: Vec<Case> = serde_json::from_str(&table).unwrap();
    assert!(cases.len() >= 150, "the table holds {} cases", cases.len());
    let cache = tempfile::tempdir().unwrap();
    let host = Host::new(cache.path().to_path_buf(), &tool_declaration()).unwrap();
    let gate = gate(&host);
    let mut wrong = Vec::new();
    for case in &cases {
        let payload = support::shell_payload(&case.command);
        let event = Arc::new(GateEvent::new(Event::decode(&payload, None).unwrap()));
        let refused = match gate.evaluate(&event, Arc::new(NoState)) {
            Ok(Verdict::Pass) => false,
            Ok(Verdict::Refuse(_)) => true,
            Err(fault) => panic!("{:?}: {fault}", case.command),
        };
        if refused != case.refuse {
            wrong.push(format!(
                "{:?} should {} ({})",
                case.command,
                if case.refuse { "refuse" } else { "pass" },
                case.why
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} cases decided wrongly:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
}

#[test]
fn non_shell_calls_pass_and_other_spellings_are_read() {
    let cache = tempfile::tempdir().unwrap();
    let host = Host::new(cache.path().to_path_buf(), &tool_declaration()).unwrap();
    let gate = gate(&host);
    let decide = |payload: serde_json::Value| {
        let event = Arc::new(GateEvent::new(
            Event::decode(&payload.to_string(), None).unwrap(),
        ));
        gate.evaluate(&event, Arc::new(NoState)).unwrap()
    };
    let write = serde_json::json!({"tool_name": "Write", "tool_input": {"file_path": "a.md", "content": "git commit --no-verify"}});
    assert_eq!(decide(write), Verdict::Pass);
    for name in [
        "exec_command",
        "functions.exec_command",
        "shell",
        "exec",
        "run_command",
        "functions.bash",
    ] {
        let call =
            serde_json::json!({"toolName": name, "input": {"command": "git push --no-verify"}});
        assert!(matches!(decide(call), Verdict::Refuse(_)), "{name}");
    }
    // An MCP server's git tools: asked to skip the hooks, or handed git's words.
    let commit = serde_json::json!({"tool_name": "mcp__git__git_commit", "tool_input": {"message": "x", "no_verify": true}});
    assert!(matches!(decide(commit), Verdict::Refuse(_)));
    let words = serde_json::json!({"tool_name": "mcp__git__git", "tool_input": {"args": ["commit", "-n", "-m", "x"]}});
    assert!(matches!(decide(words), Verdict::Refuse(_)));
    let plain = serde_json::json!({"tool_name": "mcp__git__git_commit", "tool_input": {"message": "skip --no-verify"}});
    assert_eq!(decide(plain), Verdict::Pass);
}

#[test]
fn a_script_any_write_tool_writes_is_read_as_the_commands_it_will_run() {
    let cache = tempfile::tempdir().unwrap();
    let host = Host::new(cache.path().to_path_buf(), &tool_declaration()).unwrap();
    let gate = gate(&host);
    let decide = |tool: &str, input: serde_json::Value| {
        let payload = serde_json::json!({"tool_name": tool, "tool_input": input});
        let event = Arc::new(GateEvent::new(
            Event::decode(&payload.to_string(), None).unwrap(),
        ));
        gate.evaluate(&event, Arc::new(NoState)).unwrap()
    };
    let commit = "git commit --no-verify -m wip";
    let refused = [
        (
            "apply_patch",
            serde_json::json!({"command": ["apply_patch", format!("*** Begin Patch\n*** Add File: ship.sh\n+#!/bin/sh\n+{commit}\n*** End Patch")]}),
        ),
        (
            "apply_patch",
            serde_json::json!({"input": format!("*** Begin Patch\n*** Update File: ship.sh\n@@\n git add -A\n+{commit}\n*** End Patch")}),
        ),
        (
            "MultiEdit",
            serde_json::json!({"file_path": "ship.sh", "edits": [{"old_string": "a", "new_string": "git add -A"}, {"old_string": "b", "new_string": commit}]}),
        ),
        (
            "edit",
            serde_json::json!({"input": format!("[ship.sh#1F2E]\nPUT 1.=1:\n+{commit}\n")}),
        ),
        (
            "Write",
            serde_json::json!({"file_path": "package.json", "content": format!("{{\"scripts\": {{\"ship\": \"{commit}\"}}}}")}),
        ),
        (
            "Write",
            serde_json::json!({"file_path": "justfile", "content": format!("ship:\n    {commit}\n")}),
        ),
    ];
    for (tool, input) in refused {
        assert!(
            matches!(decide(tool, input.clone()), Verdict::Refuse(_)),
            "{tool} {input}"
        );
    }
    let passed = [
        (
            "apply_patch",
            serde_json::json!({"input": format!("*** Begin Patch\n*** Update File: ship.sh\n@@\n-{commit}\n+git commit -m wip\n*** End Patch")}),
        ),
        (
            "Write",
            serde_json::json!({"file_path": "package.json", "content": "{\"scripts\": {\"ship\": \"git commit -m wip\"}}"}),
        ),
    ];
    for (tool, input) in passed {
        assert_eq!(decide(tool, input.clone()), Verdict::Pass, "{tool} {input}");
    }
}
