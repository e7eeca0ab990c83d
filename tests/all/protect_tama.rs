//! `protect-tama`: its case table through the built component in the
//! engine's host, and journeys through the built `tama` binary.

use crate::support;

use std::path::PathBuf;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::{Value, json};
use tama_core::event::Event;
use tama_core::registry::{Loaded, tool_declaration};
use tama_core::wasm::{Gate, GateEvent, Host, HostPaths, NoState, Verdict};

/// One call of the table: `command` is a Claude Code `Bash` call; otherwise
/// `tool` and `input` give the call in any harness's shape.
#[derive(Deserialize)]
struct Case {
    #[serde(default)]
    command: Option<String>,
    #[serde(default)]
    tool: Option<String>,
    #[serde(default)]
    input: Option<Value>,
    #[serde(default = "project")]
    cwd: String,
    refuse: bool,
    #[serde(default)]
    why: String,
}

fn project() -> String {
    "/home/user/project".into()
}

/// The paths the table's host hands the gate.
fn table_paths() -> HostPaths {
    HostPaths {
        home: "/home/user".into(),
        tama_home: "/home/user/.tama".into(),
        registry: Some("/home/user/.shared-hooks/registry.json".into()),
        registry_components: vec![PathBuf::from(
            "/home/user/.shared-hooks/block-git-hook-bypass.wasm",
        )],
        cache_dir: "/home/user/.cache/tama".into(),
        tama_binary: "/home/user/.local/bin/tama".into(),
        oko_home: "/home/user/.oko".into(),
    }
}

fn gate(host: &Host) -> Gate {
    gate_handed(host, table_paths())
}

fn gate_handed(host: &Host, paths: HostPaths) -> Gate {
    let registry = Loaded::embedded().unwrap();
    let entry = registry
        .registry
        .hooks_named("protect-tama")
        .next()
        .expect("protect-tama is built in");
    Gate::load(
        host,
        &entry.id,
        &registry.component(entry).unwrap(),
        &json!({}),
        &[],
    )
    .unwrap()
    .with_paths(paths)
}

fn payload(case: &Case) -> Value {
    let (tool, input) = match (&case.command, &case.tool, &case.input) {
        (Some(command), None, None) => ("Bash".to_string(), json!({ "command": command })),
        (None, Some(tool), Some(input)) => (tool.clone(), input.clone()),
        _ => panic!("a case gives `command`, or `tool` and `input`"),
    };
    json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": case.cwd, "tool_name": tool, "tool_input": input})
}

#[test]
fn every_case_of_the_table_decides_as_written() {
    let table =
        std::fs::read_to_string(support::repo_file("plugins/protect-tama/tests/cases.json"))
            .unwrap();
    let cases: Vec<Case> = serde_json::from_str(&table).unwrap();
    assert!(cases.len() >= 150, "the table holds {} cases", cases.len());
    let cache = tempfile::tempdir().unwrap();
    let host = Host::new(cache.path().to_path_buf(), &tool_declaration()).unwrap();
    let gate = gate(&host);
    let mut wrong = Vec::new();
    for case in &cases {
        let payload = payload(case);
        let event = Arc::new(GateEvent::new(
            Event::decode(&payload.to_string(), None).unwrap(),
        ));
        let verdict = gate.evaluate(&event, Arc::new(NoState));
        let refused = match &verdict {
            Ok(Verdict::Pass) => false,
            Ok(Verdict::Refuse(_)) => true,
            Err(fault) => panic!("{}: {fault}", payload["tool_input"]),
        };
        if refused != case.refuse {
            wrong.push(format!(
                "{} should {} ({}): {verdict:?}",
                payload["tool_input"],
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
fn a_gate_handed_other_paths_protects_those_and_not_the_ones_it_was_handed_before() {
    let cache = tempfile::tempdir().unwrap();
    let host = Host::new(cache.path().to_path_buf(), &tool_declaration()).unwrap();
    let elsewhere = HostPaths {
        home: "/srv/other".into(),
        tama_home: "/srv/other/.tama".into(),
        registry: None,
        registry_components: Vec::new(),
        cache_dir: "/srv/other/.cache/tama".into(),
        tama_binary: "/srv/other/bin/tama".into(),
        oko_home: "/srv/other/.oko".into(),
    };
    let write = Case {
        command: Some("echo '{}' > /home/user/.tama/override.json".into()),
        tool: None,
        input: None,
        cwd: project(),
        refuse: true,
        why: String::new(),
    };
    let event = || {
        Arc::new(GateEvent::new(
            Event::decode(&payload(&write).to_string(), None).unwrap(),
        ))
    };
    let gate = gate_handed(&host, elsewhere);
    for _ in 0..3 {
        let verdict = gate.evaluate(&event(), Arc::new(NoState));
        assert_eq!(verdict, Ok(Verdict::Pass), "not a path it was handed");
    }
    // The instances that answered under the other paths are not handed these.
    let gate = gate.with_paths(table_paths());
    match gate.evaluate(&event(), Arc::new(NoState)) {
        Ok(Verdict::Refuse(why)) => assert!(why.contains("/home/user/.tama"), "{why}"),
        other => panic!("the write into the home it was handed now passed: {other:?}"),
    }
}

/// A scratch home with Tama's folder in it.
fn home() -> tempfile::TempDir {
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(home.path().join(".tama")).unwrap();
    std::fs::create_dir_all(home.path().join("project")).unwrap();
    home
}

fn bash(home: &std::path::Path, command: &str) -> String {
    json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": home.join("project"),
           "tool_name": "Bash", "tool_input": {"command": command}})
    .to_string()
}

#[test]
fn tama_hook_refuses_a_change_to_tamas_home_and_passes_a_read() {
    let home = home();
    let refused = support::run_tama(
        home.path(),
        &["hook", "protect-tama"],
        &bash(home.path(), "echo '{}' > ~/.tama/override.json"),
    );
    assert_eq!(
        refused.status.code(),
        Some(2),
        "{}",
        support::text(&refused.stderr)
    );
    let said = support::text(&refused.stdout);
    assert!(said.starts_with("protect-tama: "), "{said}");
    assert!(
        said.contains(&home.path().join(".tama").display().to_string()),
        "{said}"
    );

    let read = support::run_tama(
        home.path(),
        &["hook", "protect-tama"],
        &bash(home.path(), "cat ~/.tama/tama.log; tama hooks running"),
    );
    assert_eq!(
        read.status.code(),
        Some(0),
        "{}{}",
        support::text(&read.stdout),
        support::text(&read.stderr)
    );

    let key = support::run_tama(
        home.path(),
        &["hook", "protect-tama"],
        &bash(home.path(), "cat \"$TAMA_HOME/control.key\""),
    );
    assert_eq!(key.status.code(), Some(2), "{}", support::text(&key.stderr));
}

/// Links on disk are followed both ways: a link in the project to a
/// protected folder reaches it, and a protected file kept as a link into a
/// dotfiles folder is protected where it lies.
#[test]
fn links_on_disk_lead_to_what_they_point_at() {
    let home = home();
    let at = |path: &str| home.path().join(path);
    std::fs::create_dir_all(at(".claude")).unwrap();
    std::fs::create_dir_all(at("dotfiles/claude")).unwrap();
    std::fs::write(at("dotfiles/claude/settings.json"), "{}").unwrap();
    std::os::unix::fs::symlink(
        "../dotfiles/claude/settings.json",
        at(".claude/settings.json"),
    )
    .unwrap();
    std::os::unix::fs::symlink("../.tama", at("project/state")).unwrap();
    std::fs::write(at(".tama/control.key"), "secret").unwrap();
    let decide = |command: &str| {
        let run = support::run_tama(
            home.path(),
            &["hook", "protect-tama"],
            &bash(home.path(), command),
        );
        (run.status.code(), support::text(&run.stdout))
    };
    for refused in [
        "echo '{}' > state/override.json",
        "cat state/control.key",
        "echo '{\"disableAllHooks\": true}' > ~/dotfiles/claude/settings.json",
    ] {
        let (code, said) = decide(refused);
        assert_eq!(code, Some(2), "{refused}: {said}");
        assert!(said.starts_with("protect-tama: "), "{said}");
    }
    let (code, said) = decide("ls state; echo notes > ~/dotfiles/notes.txt");
    assert_eq!(code, Some(0), "{said}");
}

#[test]
fn run_hook_refuses_in_every_harness_and_lets_ordinary_work_through() {
    let home = home();
    // Claude Code: exit 2, the reason on stderr.
    let claude = support::run_tama(
        home.path(),
        &[
            "run-hook",
            "pre_tool_use",
            "agent-1",
            "--provider",
            "claude",
        ],
        &bash(home.path(), "rm -rf ~/.tama"),
    );
    assert_eq!(
        claude.status.code(),
        Some(2),
        "{}",
        support::text(&claude.stderr)
    );
    assert!(
        support::text(&claude.stderr).contains("protect-tama"),
        "{}",
        support::text(&claude.stderr)
    );
    assert!(home.path().join(".tama").is_dir());

    let ordinary = support::run_tama(
        home.path(),
        &[
            "run-hook",
            "pre_tool_use",
            "agent-1",
            "--provider",
            "claude",
        ],
        &bash(home.path(), "cargo test > out.log 2>&1"),
    );
    assert_eq!(
        ordinary.status.code(),
        Some(0),
        "{}",
        support::text(&ordinary.stderr)
    );

    let write = json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": home.path().join("project"),
        "tool_name": "Write", "tool_input": {"file_path": home.path().join(".claude/settings.json"), "content": "{}"}});
    let refused = support::run_tama(
        home.path(),
        &[
            "run-hook",
            "pre_tool_use",
            "agent-1",
            "--provider",
            "claude",
        ],
        &write.to_string(),
    );
    assert_eq!(
        refused.status.code(),
        Some(2),
        "{}",
        support::text(&refused.stderr)
    );

    // Codex: exit 0 with its block JSON.
    let codex = json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": home.path().join("project"),
        "tool_name": "Bash", "tool_input": {"command": "tama sessions grant --uses 5"}});
    let refused = support::run_tama(
        home.path(),
        &["run-hook", "pre_tool_use", "agent-1", "--provider", "codex"],
        &codex.to_string(),
    );
    let out = support::text(&refused.stdout);
    assert!(
        out.contains("block") && out.contains("operator"),
        "{out}{}",
        support::text(&refused.stderr)
    );
}
