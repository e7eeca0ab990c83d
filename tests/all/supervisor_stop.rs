//! `block-supervisor-stop` through `tama hook` with a real Stop payload and
//! Oko state files on disk.

use crate::support;

use std::path::Path;

use support::{run_tama_with, text};

fn stop_payload() -> String {
    std::fs::read_to_string(support::repo_file("tests/payloads/claude-Stop.json")).unwrap()
}

fn oko(home: &Path, agent: &str, role: &str, work: Option<&str>) {
    let dir = home.join(".oko/agents").join(agent);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("role.json"), role).unwrap();
    if let Some(work) = work {
        std::fs::write(dir.join("work.json"), work).unwrap();
    }
}

fn stop(home: &Path, agent: &str) -> std::process::Output {
    run_tama_with(
        home,
        &["hook", "block-supervisor-stop"],
        &stop_payload(),
        &[("TAMA_AGENT_ID", agent)],
    )
}

const OPEN_WORK: &str = r#"{"handedOut":[{"id":"T-7","title":"port the parser","executor":"codex-2","status":"open"},{"id":"T-8","status":"done"}]}"#;

#[test]
fn a_supervisor_with_open_executor_work_may_not_stop() {
    let home = tempfile::tempdir().unwrap();
    oko(
        home.path(),
        "sup-1",
        r#"{"role":"supervisor"}"#,
        Some(OPEN_WORK),
    );
    let out = stop(home.path(), "sup-1");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("block-supervisor-stop: supervisor sup-1 may not stop"),
        "{stdout}"
    );
    assert!(
        stdout.contains("T-7 \"port the parser\" (executor codex-2, open)"),
        "{stdout}"
    );
    assert!(!stdout.contains("T-8"), "{stdout}");
}

#[test]
fn a_supervisor_whose_work_is_all_closed_may_stop() {
    let home = tempfile::tempdir().unwrap();
    oko(
        home.path(),
        "sup-2",
        r#"{"role":"supervisor"}"#,
        Some(r#"{"handedOut":[{"id":"T-8","status":"done"}]}"#),
    );
    let out = stop(home.path(), "sup-2");
    assert_eq!(
        (out.status.code(), text(&out.stdout)),
        (Some(0), String::new())
    );
}

#[test]
fn other_roles_and_agents_without_oko_state_may_stop() {
    let home = tempfile::tempdir().unwrap();
    oko(
        home.path(),
        "exec-1",
        r#"{"role":"executor"}"#,
        Some(OPEN_WORK),
    );
    assert_eq!(stop(home.path(), "exec-1").status.code(), Some(0));
    assert_eq!(stop(home.path(), "nobody").status.code(), Some(0));
}

#[test]
fn unreadable_oko_state_is_refused_naming_the_file() {
    let home = tempfile::tempdir().unwrap();
    oko(
        home.path(),
        "sup-3",
        r#"{"role":"supervisor"}"#,
        Some("{\"handedOut\": [ "),
    );
    let out = stop(home.path(), "sup-3");
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    let file = home.path().join(".oko/agents/sup-3/work.json");
    assert!(
        stdout.starts_with(&format!("TAMA_HOOK_INFRASTRUCTURE: gate block-supervisor-stop failed: Oko state {} cannot be read: EOF", file.display())),
        "{stdout}"
    );
}

#[test]
fn malformed_oko_state_is_refused_naming_the_file() {
    let home = tempfile::tempdir().unwrap();
    oko(
        home.path(),
        "sup-4",
        r#"{"role":"supervisor"}"#,
        Some(r#"{"handedOut":"many"}"#),
    );
    let out = stop(home.path(), "sup-4");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("sup-4/work.json cannot be read: invalid type"),
        "{}",
        text(&out.stdout)
    );
}
