//! Peer hooks, one event at a time, against the built binary: the seed's
//! examples, the folder guard, the user coming back, and broken input.

use crate::support;
use crate::support::peers;

use peers::{Machine, denial, edit};
use serde_json::{Value, json};
use tama_core::command::shell_quote;

#[test]
fn stop_blocks_once_for_a_note() {
    let m = Machine::new();
    m.start("codex", "c9", "B");
    let s1 = m.input("s1", "A");
    assert_eq!(
        m.hook("claude", "stop", &s1),
        (0, String::new(), String::new())
    );
    let (code, out, _) = m.peers_cmd("codex-c9", &["note", "claude-s1", "v2 is out"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("sent note "), "{out}");
    let (code, out, err) = m.hook("claude", "stop", &s1);
    assert_eq!((code, err.as_str()), (0, ""));
    let block: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(block["decision"], "block");
    assert!(
        block["reason"].as_str().unwrap().contains("v2 is out"),
        "{block}"
    );
    assert_eq!(
        m.hook("claude", "stop", &s1),
        (0, String::new(), String::new()),
        "a delivered note blocks only once"
    );
}

#[test]
fn folder_guard_refuses_another_sessions_checkout_and_passes_its_own() {
    let m = Machine::new();
    m.start("claude", "s1", "A");
    m.start("codex", "c9", "B");
    let (code, out, _) = m.hook(
        "claude",
        "pre-tool",
        &edit(&m, "s1", "A", &m.path("B/a.py")),
    );
    assert_eq!(code, 0);
    let reason = denial(&out).expect("a write into B is refused");
    let b = m.path("B");
    assert!(
        reason.starts_with(&format!(
            "{} is inside {}, where peer session codex-c9",
            m.path("B/a.py").display(),
            b.display()
        )),
        "{reason}"
    );
    assert!(
        reason.contains("peers ask codex-c9"),
        "the refusal says how to message the owner: {reason}"
    );
    assert_eq!(
        m.hook(
            "claude",
            "pre-tool",
            &edit(&m, "s1", "A", &m.path("A/a.py"))
        ),
        (0, String::new(), String::new())
    );
}

#[test]
fn folder_guard_reads_every_target_the_tool_declaration_finds() {
    let m = Machine::new();
    m.start("claude", "s1", "A");
    m.start("codex", "c9", "B");
    let refused = |kind: &str, id: &str, repo: &str, tool: &str, input: Value| {
        let mut payload = m.input(id, repo);
        payload["tool_name"] = json!(tool);
        payload["tool_input"] = input;
        let (code, out, err) = m.hook(kind, "pre-tool", &payload);
        assert_eq!((code, err.as_str()), (0, ""));
        if out.is_empty() { None } else { denial(&out) }
    };
    // A relative path that climbs into the other checkout.
    assert!(
        refused(
            "claude",
            "s1",
            "A",
            "Write",
            json!({"file_path": "../B/y.py", "content": "x"})
        )
        .is_some()
    );
    // A notebook.
    assert!(
        refused(
            "claude",
            "s1",
            "A",
            "NotebookEdit",
            json!({"notebook_path": m.path("B/n.ipynb"), "new_source": "x"})
        )
        .is_some()
    );
    // A file in folders that do not exist yet, in its own checkout.
    assert!(
        refused(
            "claude",
            "s1",
            "A",
            "Write",
            json!({"file_path": m.path("A/sub/new/f.txt"), "content": "x"})
        )
        .is_none()
    );
    // Every file of a patch, the moved-to file included.
    let patch =
        "*** Begin Patch\n*** Update File: m.py\n*** Move to: ../A/m.py\n@@\n-a\n+b\n*** End Patch";
    let reason = refused("codex", "c9", "B", "apply_patch", json!({"command": patch}))
        .expect("a move into A is refused");
    assert!(
        reason.starts_with(&format!("{} is inside", m.path("A/m.py").display())),
        "{reason}"
    );
    assert!(
        reason.contains("peers --session codex-c9 ask claude-s1"),
        "Codex's command names its session: {reason}"
    );
    // An oh-my-pi edit that renames a file into the other checkout.
    let omp = json!({"path": "own.rs", "edits": [{"rename": m.path("B/moved.rs"), "op": "replace", "content": "x"}]});
    assert!(refused("claude", "s1", "A", "edit", omp).is_some_and(|r| r.contains("B/moved.rs")));
    // A shell command is not a file edit, whatever its text.
    assert!(
        refused(
            "claude",
            "s1",
            "A",
            "Bash",
            json!({"command": format!("*** Add File: {}", m.path("B/x").display())})
        )
        .is_none()
    );
    // A symlink into the other checkout is the other checkout.
    std::os::unix::fs::symlink(m.path("B"), m.path("A/link")).unwrap();
    assert!(
        refused(
            "claude",
            "s1",
            "A",
            "Write",
            json!({"file_path": m.path("A/link/f.py"), "content": "x"})
        )
        .is_some()
    );
    // A folder no session works in.
    std::fs::create_dir_all(m.path("C/.git")).unwrap();
    assert!(
        refused(
            "claude",
            "s1",
            "A",
            "Write",
            json!({"file_path": m.path("C/z.py"), "content": "x"})
        )
        .is_none()
    );
}

#[test]
fn only_live_sessions_in_git_are_guarded() {
    let m = Machine::new();
    m.start("claude", "s1", "A");
    // A session outside git shows its folder and locks nothing.
    std::fs::create_dir_all(m.path("plain")).unwrap();
    let brief = m.start("codex", "c9", "plain");
    assert!(brief.contains("not a git checkout"), "{brief}");
    let (_, out, _) = m.hook(
        "claude",
        "pre-tool",
        &edit(&m, "s1", "A", &m.path("plain/f.py")),
    );
    assert_eq!(out, "");
    // A session whose agent is gone guards nothing, and its registration goes.
    m.start("codex", "gone", "B");
    let registration = m.peers().join("sessions/codex-gone.json");
    let mut record: Value =
        serde_json::from_str(&std::fs::read_to_string(&registration).unwrap()).unwrap();
    let mut child = std::process::Command::new("true").spawn().unwrap();
    record["pid"] = json!(child.id());
    child.wait().unwrap();
    std::fs::write(&registration, record.to_string()).unwrap();
    let (_, out, _) = m.hook(
        "claude",
        "pre-tool",
        &edit(&m, "s1", "A", &m.path("B/f.py")),
    );
    assert_eq!(out, "");
    assert!(
        !registration.exists(),
        "a dead session's registration is removed"
    );
    // Two sessions in one checkout never block each other.
    m.start("claude", "s2", "A");
    let (_, out, _) = m.hook(
        "claude",
        "pre-tool",
        &edit(&m, "s1", "A", &m.path("A/f.py")),
    );
    assert_eq!(out, "");
}

#[test]
fn session_start_briefs_the_agent() {
    let m = Machine::new();
    m.start("codex", "c9", "B");
    let brief = m.start("claude", "s1", "A");
    assert!(brief.contains("You are peer session claude-s1"), "{brief}");
    assert!(
        brief.contains(&format!("codex-c9 (B, codex, {})", m.path("B").display())),
        "{brief}"
    );
    let run = format!(
        "PEER_RUN={} peers",
        shell_quote(&support::tama().canonicalize().unwrap().to_string_lossy())
    );
    assert_eq!(brief.matches("PEER_RUN=").count(), 1, "{brief}");
    assert!(brief.contains(&run), "{brief}");
    let registration: Value = serde_json::from_str(
        &std::fs::read_to_string(m.peers().join("sessions/claude-s1.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(registration["root"], json!(m.path("A")));
    assert_eq!(
        registration["pid"],
        json!(std::process::id()),
        "the agent is the process that ran the hook"
    );
    let brief = m.start("codex", "c9", "B");
    assert!(
        brief.contains(&format!("{run} --session codex-c9")),
        "Codex commands carry --session: {brief}"
    );
}

#[test]
fn an_ask_says_who_decides_and_how_to_answer() {
    let m = Machine::new();
    m.start("claude", "s1", "A");
    m.start("codex", "c9", "B");
    let (_, sent, _) = m.peers_cmd("claude-s1", &["ask", "codex-c9", "which port?"]);
    let id = sent.split_whitespace().nth(2).unwrap().to_string();
    let (_, out, _) = m.hook("codex", "stop", &m.input("c9", "B"));
    let reason = serde_json::from_str::<Value>(&out).unwrap()["reason"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(reason.contains("ask your user before you act"), "{reason}");
    assert!(
        reason.contains(&format!(
            "peers --session codex-c9 reply claude-s1 --re {id} \"<answer>\""
        )),
        "{reason}"
    );
    assert!(
        reason.contains("<peer-message from=\"claude-s1\" kind=\"ask\""),
        "{reason}"
    );
    // The reply reaches the asker, naming the ask; a reply to no ask is refused.
    assert_eq!(
        m.peers_cmd("codex-c9", &["reply", "claude-s1", "--re", &id, "8080"])
            .0,
        0
    );
    let (code, _, err) = m.peers_cmd(
        "codex-c9",
        &["reply", "claude-s1", "--re", "ffffffffffff", "x"],
    );
    assert_eq!(
        (code, err.trim()),
        (1, "tama peers: no ask ffffffffffff from claude-s1")
    );
    let (_, out, _) = m.hook("claude", "stop", &m.input("s1", "A"));
    assert!(
        out.contains("8080") && out.contains(&format!("re=\\\"{id}\\\"")),
        "{out}"
    );
    // In work-together mode the agent may act without its user.
    assert_eq!(
        m.peers_cmd("claude-s1", &["together", "codex-c9", "--budget", "5"])
            .0,
        0
    );
    m.peers_cmd("claude-s1", &["ask", "codex-c9", "run the tests?"]);
    let (_, out, _) = m.hook("codex", "stop", &m.input("c9", "B"));
    assert!(out.contains("act on it without asking your user"), "{out}");
}

#[test]
fn messages_that_cannot_be_sent_say_why() {
    let m = Machine::new();
    m.start("claude", "s1", "A");
    m.start("codex", "c9", "B");
    let refusal = |args: &[&str]| {
        let (code, out, err) = m.peers_cmd("claude-s1", args);
        assert_eq!((code, out.as_str()), (1, ""), "{err}");
        err.trim().to_string()
    };
    assert_eq!(
        refusal(&["note", "claude-s1", "x"]),
        "tama peers: cannot message yourself"
    );
    assert!(refusal(&["note", "zz", "x"]).starts_with("tama peers: unknown peer: zz"));
    assert_eq!(
        refusal(&["note", "codex-c9", "   "]),
        "tama peers: empty message"
    );
    assert_eq!(
        refusal(&["reply", "codex-c9", "x"]),
        "tama peers: reply needs --re <ask id>"
    );
    assert_eq!(m.unread("codex-c9"), 0);
}

#[test]
fn an_ask_over_the_budget_is_refused_and_never_seen() {
    let m = Machine::new();
    m.start("claude", "s1", "A");
    m.start("codex", "c9", "B");
    let (code, out, _) = m.peers_cmd("claude-s1", &["together", "c9", "--budget", "1"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(m.peers_cmd("claude-s1", &["ask", "codex-c9", "first"]).0, 0);
    let (code, _, err) = m.peers_cmd("claude-s1", &["ask", "codex-c9", "second"]);
    assert_eq!(code, 1);
    assert!(err.starts_with("refused: budget: "), "{err}");
    let (_, out, _) = m.hook("codex", "stop", &m.input("c9", "B"));
    assert!(out.contains("first") && !out.contains("second"), "{out}");
    // Notes are not asks: they do not spend the budget.
    assert_eq!(m.peers_cmd("claude-s1", &["note", "codex-c9", "fyi"]).0, 0);
}

#[test]
fn a_typed_prompt_ends_work_together_mode_and_shows_its_end_once() {
    let m = Machine::new();
    m.start("claude", "s1", "A");
    m.start("codex", "c9", "B");
    m.peers_cmd("claude-s1", &["together", "codex-c9"]);
    let prompt = |id: &str, kind: &str, repo: &str, text: &str| {
        let mut input = m.input(id, repo);
        input["prompt"] = json!(text);
        let (code, out, _) = m.hook(kind, "prompt", &input);
        assert_eq!(code, 0);
        if out.is_empty() {
            String::new()
        } else {
            serde_json::from_str::<Value>(&out).unwrap()["hookSpecificOutput"]["additionalContext"]
                .as_str()
                .unwrap()
                .to_string()
        }
    };
    // Prompts no person typed leave the mode alone.
    for frame in [
        "Another Claude session sent a message:\nhello",
        "<task-notification>\n<status>done</status>\n</task-notification>",
        "<cross-session-message from=\"x\">hi</cross-session-message>",
        "  <agent-message>done</agent-message>",
    ] {
        assert_eq!(prompt("s1", "claude", "A", frame), "", "{frame}");
    }
    let registration = |key: &str| {
        serde_json::from_str::<Value>(
            &std::fs::read_to_string(m.peers().join(format!("sessions/{key}.json"))).unwrap(),
        )
        .unwrap()
    };
    assert!(registration("claude-s1")["together"].is_object());
    // A typed prompt that mentions a tag mid-text is typed.
    let shown = prompt(
        "s1",
        "claude",
        "A",
        "what does a <task-notification> look like?",
    );
    assert!(
        shown.starts_with("Work-together mode with codex-c9"),
        "{shown}"
    );
    assert!(
        shown.contains("peers report"),
        "no report was saved, so the agent is told to make one: {shown}"
    );
    assert!(
        registration("claude-s1")["together"].is_null()
            && registration("codex-c9")["together"].is_null()
    );
    assert_eq!(
        prompt("s1", "claude", "A", "next"),
        "",
        "the end is shown once"
    );
    // The other side's user was away: the end waits for them, with the report once saved.
    assert_eq!(
        m.peers_cmd("codex-c9", &["report", "we moved the port to 8080"])
            .0,
        0
    );
    let shown = prompt("c9", "codex", "B", "I'm back");
    assert!(shown.contains("we moved the port to 8080"), "{shown}");
    let log = std::fs::read_to_string(m.peers().join("log.jsonl")).unwrap();
    assert_eq!(log.matches("\"row\":\"report_shown\"").count(), 2, "{log}");
}

#[test]
fn broken_input_is_logged_and_never_breaks_the_agent() {
    let m = Machine::new();
    let quiet = (0, String::new(), String::new());
    assert_eq!(m.hook("claude", "stop", &json!({})), quiet);
    assert!(m.hooks_log().contains("KeyError"), "{}", m.hooks_log());
    let out = m.run(&["peer-hook", "claude", "stop"], "not json");
    assert_eq!(
        (
            out.status.code(),
            out.stdout.is_empty(),
            out.stderr.is_empty()
        ),
        (Some(0), true, true)
    );
    let mut bad = m.input("s1", "A");
    bad["tool_name"] = json!("Edit");
    bad["tool_input"] = json!("oops");
    assert_eq!(m.hook("claude", "pre-tool", &bad), quiet);
    for words in [
        &["peer-hook", "claude", "dance"][..],
        &["peer-hook", "gemini", "stop"],
        &["peer-hook", "claude"],
    ] {
        let out = m.run(words, "{}");
        assert_eq!(
            (out.status.code(), out.stdout.is_empty()),
            (Some(0), true),
            "{words:?}"
        );
    }
    let log = m.hooks_log();
    assert!(log.contains("\tstop\t-\tNotJson: "), "{log}");
    assert!(
        log.contains("\tpre-tool\tclaude-s1\tBadInput: TypeError"),
        "{log}"
    );
    assert!(
        log.contains("unknown peer hook event `dance`")
            && log.contains("unknown agent kind `gemini`"),
        "{log}"
    );
    assert_eq!(log.lines().count(), 6, "{log}");
    let version = m.run(&["peer-hook", "version"], "");
    assert_eq!(
        text_of(&version.stdout),
        format!("tama {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn a_full_hooks_log_is_rotated() {
    let m = Machine::new();
    std::fs::create_dir_all(m.peers()).unwrap();
    std::fs::write(m.peers().join("hooks.log"), vec![b'x'; (1 << 20) + 1]).unwrap();
    m.hook("claude", "stop", &json!({}));
    assert_eq!(m.hooks_log().lines().count(), 1);
    assert_eq!(
        std::fs::metadata(m.peers().join("hooks.log.1"))
            .unwrap()
            .len(),
        (1 << 20) + 1
    );
}

fn text_of(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
