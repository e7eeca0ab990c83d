//! Two peer sessions end to end, and the waiter that wakes an idle Claude
//! Code session: real processes, real locks, real files.

use crate::support::peers;

use std::io::Write;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use peers::{Machine, denial, edit};
use serde_json::{Value, json};

/// Starts a waiter for session `id` in `repo`, its input written and closed.
fn waiter(m: &Machine, id: &str, repo: &str, env: &[(&str, &str)]) -> Child {
    let mut child = m
        .command(&["peer-hook", "claude", "wait"])
        .envs(env.iter().copied())
        .spawn()
        .expect("the waiter starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(m.input(id, repo).to_string().as_bytes())
        .unwrap();
    child
}

/// Waits until `child` ends, at most `limit`.
fn ended_within(child: &mut Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    None
}

/// Waits until the waiter of `key` holds its lock (its pid is in `.wait`).
fn wait_for_lock(m: &Machine, key: &str, waiter: &Child) {
    let file = m.peers().join(format!("{key}.wait"));
    let start = Instant::now();
    while std::fs::read_to_string(&file)
        .ok()
        .map(|t| t.trim().to_string())
        != Some(waiter.id().to_string())
    {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the waiter never took its lock"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn two_sessions_ask_deliver_once_wake_and_guard() {
    let m = Machine::new();
    m.start("claude", "s1", "A");
    m.start("claude", "s2", "B");
    // s2's turn has ended; its waiter waits in the background.
    let mut woken = waiter(&m, "s2", "B", &[]);
    wait_for_lock(&m, "claude-s2", &woken);
    // s1 asks; the waiter wakes s2 with the ask, once.
    let (code, sent, _) = m.peers_cmd("claude-s1", &["ask", "s2", "may I bump the shared schema?"]);
    assert_eq!(code, 0, "{sent}");
    let status =
        ended_within(&mut woken, Duration::from_secs(10)).expect("the waiter wakes on the ask");
    let out = woken.wait_with_output().unwrap();
    assert_eq!(status.code(), Some(2), "exit 2 wakes Claude Code");
    let stderr = peers::text(&out.stderr);
    assert!(
        stderr.contains("may I bump the shared schema?") && stderr.contains("Ask "),
        "{stderr}"
    );
    // The stop hook has nothing new: the ask was delivered once.
    assert_eq!(
        m.hook("claude", "stop", &m.input("s2", "B")),
        (0, String::new(), String::new())
    );
    // s2 answers; s1's stop hook delivers the answer once.
    let id = sent.split_whitespace().nth(2).unwrap();
    assert_eq!(
        m.peers_cmd(
            "claude-s2",
            &["reply", "claude-s1", "--re", id, "yes, go ahead"]
        )
        .0,
        0
    );
    let (_, out, _) = m.hook("claude", "stop", &m.input("s1", "A"));
    assert!(out.contains("yes, go ahead"), "{out}");
    assert_eq!(m.hook("claude", "stop", &m.input("s1", "A")).1, "");
    // And neither may write into the other's checkout.
    let (_, out, _) = m.hook(
        "claude",
        "pre-tool",
        &edit(&m, "s2", "B", &m.path("A/schema.sql")),
    );
    assert!(
        denial(&out).is_some_and(|r| r.contains("claude-s1")),
        "{out}"
    );
}

#[test]
fn one_waiter_a_session_and_a_dead_waiters_lock_dies_with_it() {
    let m = Machine::new();
    m.start("claude", "s1", "A");
    let mut first = waiter(&m, "s1", "A", &[]);
    wait_for_lock(&m, "claude-s1", &first);
    let mut second = waiter(&m, "s1", "A", &[]);
    let status =
        ended_within(&mut second, Duration::from_secs(5)).expect("a second waiter exits at once");
    assert_eq!(status.code(), Some(0));
    let out = second.wait_with_output().unwrap();
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
    // A crashed waiter's lock goes with it: the next one takes it.
    first.kill().unwrap();
    first.wait().unwrap();
    let mut third = waiter(&m, "s1", "A", &[]);
    wait_for_lock(&m, "claude-s1", &third);
    // Session end removes the registration within Claude Code's 1.5 s and the waiter leaves quietly.
    let start = Instant::now();
    let (code, out, _) = m.hook(
        "claude",
        "session-end",
        &json!({"session_id": "s1", "cwd": m.path("A"), "reason": "exit"}),
    );
    assert!(start.elapsed() < Duration::from_millis(1500));
    assert_eq!((code, out.as_str()), (0, ""));
    assert!(!m.peers().join("sessions/claude-s1.json").exists());
    assert!(
        m.peers().join("claude-s1.wait").exists(),
        "the .wait file stays"
    );
    let status =
        ended_within(&mut third, Duration::from_secs(5)).expect("the waiter ends with the session");
    assert_eq!(status.code(), Some(0));
    assert!(third.wait_with_output().unwrap().stderr.is_empty());
}

#[test]
fn a_waiter_that_cannot_hand_on_messages_puts_them_back() {
    let m = Machine::new();
    m.start("claude", "s1", "A");
    m.start("codex", "c9", "B");
    let mut child = m
        .command(&["peer-hook", "claude", "wait"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(m.input("s1", "A").to_string().as_bytes())
        .unwrap();
    wait_for_lock(&m, "claude-s1", &child);
    drop(child.stderr.take());
    m.peers_cmd("codex-c9", &["note", "claude-s1", "keep me"]);
    let status = ended_within(&mut child, Duration::from_secs(10)).expect("the waiter ends");
    assert_eq!(
        status.code(),
        Some(0),
        "a waiter that could not wake anyone exits 0"
    );
    assert_eq!(m.unread("claude-s1"), 1, "the note is unread again");
    assert!(
        m.hooks_log().contains("\twait\tclaude-s1\t"),
        "{}",
        m.hooks_log()
    );
    let (_, out, _) = m.hook("claude", "stop", &m.input("s1", "A"));
    assert!(out.contains("keep me"), "{out}");
}

#[test]
fn a_mode_that_expires_while_the_waiter_waits_gets_its_report_saved() {
    let m = Machine::new();
    m.start("claude", "s1", "A");
    m.start("codex", "c9", "B");
    assert_eq!(
        m.peers_cmd("claude-s1", &["together", "codex-c9", "--for", "1s"])
            .0,
        0
    );
    m.peers_cmd("codex-c9", &["note", "claude-s1", "schema is done"]);
    m.hook("claude", "stop", &m.input("s1", "A"));
    let mut child = waiter(&m, "s1", "A", &[("TAMA_PEERS_WAIT_S", "3")]);
    let status = ended_within(&mut child, Duration::from_secs(10))
        .expect("the waiter ends at its own limit");
    assert_eq!(status.code(), Some(0));
    let report = std::fs::read_to_string(m.peers().join("claude-s1.report.md"))
        .expect("the report is saved");
    assert!(
        report.contains("schema is done") && report.contains("its time was up"),
        "{report}"
    );
    let registration: Value = serde_json::from_str(
        &std::fs::read_to_string(m.peers().join("sessions/claude-s1.json")).unwrap(),
    )
    .unwrap();
    assert!(registration["together"].is_null());
    let mut input = m.input("s1", "A");
    input["prompt"] = json!("back");
    let (_, out, _) = m.hook("claude", "prompt", &input);
    assert!(
        out.contains("The report of that mode") && out.contains("schema is done"),
        "{out}"
    );
}

#[test]
fn each_envelope_is_delivered_exactly_once_under_racing_readers() {
    let m = Machine::new();
    m.start("claude", "s1", "A");
    m.start("codex", "c9", "B");
    for n in 0..30 {
        assert_eq!(
            m.peers_cmd("codex-c9", &["note", "claude-s1", &format!("note {n}")])
                .0,
            0
        );
    }
    let readers: Vec<Child> = (0..4)
        .map(|_| {
            m.command(&["peers", "--session", "claude-s1", "inbox", "--json"])
                .stdin(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut seen: Vec<String> = Vec::new();
    for reader in readers {
        let out = reader.wait_with_output().unwrap();
        let taken: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
        seen.extend(
            taken
                .iter()
                .map(|e| e["text"].as_str().unwrap().to_string()),
        );
    }
    seen.sort();
    let mut expected: Vec<String> = (0..30).map(|n| format!("note {n}")).collect();
    expected.sort();
    assert_eq!(seen, expected);
}

#[test]
fn a_command_from_the_agents_shell_finds_its_session() {
    let m = Machine::new();
    // This test process is the agent: the hook registers it, and a command it runs is found by ancestry.
    m.start("claude", "s1", "A");
    let out = m.run(&["peers", "status"], "");
    assert_eq!(out.status.code(), Some(0), "{}", peers::text(&out.stderr));
    let status: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(status["session"]["key"], "claude-s1");
}
