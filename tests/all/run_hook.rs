//! `tama run-hook` for Claude Code and Codex through the built binary: golden
//! payloads in, exact stdout, stderr and exit codes out; command hooks as
//! real process groups; rejected registries.

use crate::support;
use crate::support::process;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::{run_tama_with, text};

fn payload(name: &str) -> String {
    std::fs::read_to_string(support::repo_file(&format!("tests/payloads/{name}.json"))).unwrap()
}

fn run_hook(home: &Path, args: &[&str], stdin: &str, env: &[(&str, &str)]) -> std::process::Output {
    let mut all = vec!["run-hook"];
    all.extend_from_slice(args);
    run_tama_with(home, &all, stdin, env)
}

const REFUSAL: &str = "block-git-hook-bypass: `git commit --no-verify` skips the repository's pre-commit and commit-msg hooks (block-git-hook-bypass). Run `git commit` without --no-verify and fix what the hooks report.";

#[test]
fn claude_gets_the_decision_on_stdout_exit_2_and_the_reason_on_stderr() {
    let home = tempfile::tempdir().unwrap();
    let out = run_hook(
        home.path(),
        &["--provider", "claude", "PreToolUse", "agent-1"],
        &payload("claude-PreToolUse"),
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stderr), format!("{REFUSAL}\n"));
    let decision: Value = serde_json::from_str(&text(&out.stdout)).expect("the decision is JSON");
    assert_eq!(decision["decision"], "block");
    assert_eq!(decision["hookId"], "block-git-hook-bypass");
    assert_eq!(decision["reason"], REFUSAL);
    assert_eq!(
        decision["sessionId"],
        "3b5ed1ce-edc8-4d14-b62e-32bb4b70db6a"
    );
    assert_eq!(decision["agentId"], "agent-1");
    // protect-tama runs first on every tool event and lets this call through.
    let first = &decision["results"][0];
    assert_eq!(
        (first["hookId"].as_str(), first["decision"].as_str()),
        (Some("protect-tama"), Some("pass"))
    );
    let record = &decision["results"][1];
    assert_eq!(
        (record["hookId"].as_str(), record["decision"].as_str()),
        (Some("block-git-hook-bypass"), Some("block"))
    );
    assert!(
        record["ms"].is_u64() && record["startMs"].is_u64(),
        "{record}"
    );
}

#[test]
fn codex_gets_its_minimal_block_and_exit_0() {
    let home = tempfile::tempdir().unwrap();
    let out = run_hook(
        home.path(),
        &["PreToolUse", "agent-1"],
        &payload("codex-PreToolUse"),
        &[("TAMA_PROVIDER", "codex")],
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        format!("{}\n", json!({"decision": "block", "reason": REFUSAL}))
    );
    assert_eq!(text(&out.stderr), "");
}

#[test]
fn a_passing_event_prints_nothing_for_either_harness() {
    let home = tempfile::tempdir().unwrap();
    for (provider, file, event) in [
        ("claude", "claude-PostToolUse", "post_tool_use"),
        ("codex", "codex-PostToolUse", "PostToolUse"),
        ("claude", "claude-Stop", "Stop"),
        ("codex", "codex-Stop", "stop"),
    ] {
        let out = run_hook(
            home.path(),
            &["--provider", provider, event, "agent-1"],
            &payload(file),
            &[],
        );
        assert_eq!(
            (out.status.code(), text(&out.stdout), text(&out.stderr)),
            (Some(0), String::new(), String::new()),
            "{file}"
        );
    }
    let harmless = support::shell_payload("git status");
    let out = run_hook(home.path(), &["pre_tool_use", "agent-1"], &harmless, &[]);
    assert_eq!(
        (out.status.code(), text(&out.stdout)),
        (Some(0), String::new())
    );
}

#[test]
fn without_an_agent_id_the_run_is_refused_exactly() {
    let home = tempfile::tempdir().unwrap();
    let out = run_hook(
        home.path(),
        &["pre_tool_use"],
        &payload("claude-PreToolUse"),
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "TAMA_HOOK_INFRASTRUCTURE: tama run-hook needs an agent id: pass it after the event or set TAMA_AGENT_ID\n"
    );
    let with_env = run_hook(
        home.path(),
        &["pre_tool_use"],
        &payload("claude-PreToolUse"),
        &[("TAMA_AGENT_ID", "agent-9")],
    );
    assert_eq!(with_env.status.code(), Some(2));
}

#[test]
fn a_variable_that_is_not_text_is_refused_by_name() {
    use std::os::unix::ffi::OsStrExt;
    let home = tempfile::tempdir().unwrap();
    for name in [
        "TAMA_AGENT_ID",
        "TAMA_PROVIDER",
        "TAMA_ONLY_HOOK_ID",
        "TAMA_DISABLED_HOOKS",
        "TAMA_ENABLED_HOOKS",
    ] {
        let out = std::process::Command::new(support::tama())
            .args(["run-hook", "pre_tool_use", "agent-1"])
            .env("HOME", home.path())
            .env("TAMA_HOME", home.path().join(".tama"))
            .env(name, std::ffi::OsStr::from_bytes(b"\xff\xfe"))
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{name}");
        let stderr = text(&out.stderr);
        assert!(
            stderr.starts_with(&format!(
                "TAMA_HOOK_INFRASTRUCTURE: {name} cannot be read: "
            )),
            "{stderr}"
        );
    }
}

/// A registry of command hooks in `dir`, sealed by the built `tama`.
fn registry(home: &Path, events: Value) -> PathBuf {
    let dir = home.join("hooks");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("registry.json");
    std::fs::write(&path, json!({"version": 1, "events": events}).to_string()).unwrap();
    let sealed = run_tama_with(home, &["registry", "seal", path.to_str().unwrap()], "", &[]);
    assert_eq!(sealed.status.code(), Some(0), "{}", text(&sealed.stderr));
    path
}

fn script(home: &Path, name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = home.join("hooks").join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
fn command_hooks_run_in_registry_order_and_the_first_refusal_ends_the_dispatch() {
    let home = tempfile::tempdir().unwrap();
    let log = home.path().join("ran.log");
    script(
        home.path(),
        "first.sh",
        &format!("cat > /dev/null; echo first >> {}", log.display()),
    );
    script(
        home.path(),
        "refuse.sh",
        &format!(
            "cat > /dev/null; echo refuse >> {}; echo 'no edits today' >&2; exit 2",
            log.display()
        ),
    );
    script(
        home.path(),
        "never.sh",
        &format!("echo never >> {}", log.display()),
    );
    let path = registry(
        home.path(),
        json!({
            "pre_tool_use": {"blocking": true, "hooks": [
                {"id": "first", "type": "command", "command": "./first.sh", "timeout": 5},
                {"id": "refuse", "type": "command", "command": "./refuse.sh", "timeout": 5},
                {"id": "never", "type": "command", "command": "./never.sh", "timeout": 5}
            ]}
        }),
    );
    let out = run_hook(
        home.path(),
        &[
            "--registry",
            path.to_str().unwrap(),
            "pre_tool_use",
            "agent-1",
        ],
        &support::shell_payload("ls"),
        &[],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "refuse: no edits today\n");
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "first\nrefuse\n");
    let decision: Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    let ids: Vec<&str> = decision["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["hookId"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["first", "refuse"]);

    let selected = run_hook(
        home.path(),
        &[
            "--registry",
            path.to_str().unwrap(),
            "pre_tool_use",
            "agent-1",
        ],
        &support::shell_payload("ls"),
        &[("TAMA_DISABLED_HOOKS", "refuse")],
    );
    assert_eq!(
        selected.status.code(),
        Some(0),
        "{}",
        text(&selected.stderr)
    );
}

#[test]
fn tool_suffixes_match_through_the_tool_declaration() {
    let home = tempfile::tempdir().unwrap();
    script(
        home.path(),
        "no-shell.sh",
        "cat >/dev/null; echo 'shell refused' >&2; exit 2",
    );
    let path = registry(
        home.path(),
        json!({
            "pre_tool_use:bash": {"blocking": true, "hooks": [{"id": "no-shell", "command": "./no-shell.sh", "timeout": 5}]}
        }),
    );
    let registry_arg = path.to_str().unwrap();
    for name in ["Bash", "exec_command", "functions.bash", "run_command"] {
        let call = json!({"tool_name": name, "tool_input": {"command": "ls"}}).to_string();
        let out = run_hook(
            home.path(),
            &["--registry", registry_arg, "pre_tool_use", "agent-1"],
            &call,
            &[],
        );
        assert_eq!(out.status.code(), Some(2), "{name}");
    }
    let read = json!({"tool_name": "Read", "tool_input": {"file_path": "/a"}}).to_string();
    assert_eq!(
        run_hook(
            home.path(),
            &["--registry", registry_arg, "pre_tool_use", "agent-1"],
            &read,
            &[]
        )
        .status
        .code(),
        Some(0)
    );
}

#[test]
fn a_hook_past_its_timeout_and_its_stubborn_grandchild_are_ended_as_a_group() {
    let home = tempfile::tempdir().unwrap();
    let pids = home.path().join("pids");
    script(
        home.path(),
        "slow.sh",
        &format!(
            "(trap '' TERM; echo $$ > {}.child; sleep 30) & echo $$ > {}; sleep 30",
            pids.display(),
            pids.display()
        ),
    );
    let path = registry(
        home.path(),
        json!({
            "pre_tool_use": {"blocking": true, "hooks": [{"id": "slow", "command": "./slow.sh", "timeout": 1}]}
        }),
    );
    // Reading the tool call compiles the tool declaration once; do it before the clock starts.
    run_hook(
        home.path(),
        &[
            "--registry",
            path.to_str().unwrap(),
            "post_tool_use",
            "agent-1",
        ],
        &support::shell_payload("ls"),
        &[],
    );
    let started = Instant::now();
    let out = run_hook(
        home.path(),
        &[
            "--registry",
            path.to_str().unwrap(),
            "pre_tool_use",
            "agent-1",
        ],
        &support::shell_payload("ls"),
        &[],
    );
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(2) + Duration::from_millis(900),
        "returned after {took:?}"
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "TAMA_HOOK_INFRASTRUCTURE: hook slow ran past its timeout of 1 s\n"
    );
    let decision: Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    let group = decision["results"][0]["processGroup"]
        .as_i64()
        .expect("the record names the process group") as i32;
    process::assert_group_gone(group, Duration::from_secs(1));
}

#[test]
fn a_command_that_resolves_nowhere_names_the_hook_the_registry_and_every_path_tried() {
    let home = tempfile::tempdir().unwrap();
    let path = registry(
        home.path(),
        json!({
            "stop": {"blocking": true, "hooks": [{"id": "ghost", "command": "scripts/ghost.sh --strict", "timeout": 5}]}
        }),
    );
    let out = run_hook(
        home.path(),
        &["--registry", path.to_str().unwrap(), "stop", "agent-1"],
        &payload("claude-Stop"),
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with(&format!(
            "TAMA_HOOK_INFRASTRUCTURE: hook ghost of hook registry {} cannot start",
            path.display()
        )),
        "{stderr}"
    );
    assert!(stderr.contains("scripts/ghost.sh --strict"), "{stderr}");
    assert!(
        stderr.contains(
            &home
                .path()
                .join("hooks/scripts/ghost.sh")
                .display()
                .to_string()
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains(&home.path().join("hooks/ghost.sh").display().to_string()),
        "{stderr}"
    );
}

#[test]
fn rejected_registries_keep_their_named_diagnostic_and_run_no_hook() {
    let home = tempfile::tempdir().unwrap();
    let marker = home.path().join("ran");
    script(
        home.path(),
        "mark.sh",
        &format!("touch {}", marker.display()),
    );
    let path = registry(
        home.path(),
        json!({
            "pre_tool_use": {"blocking": true, "hooks": [{"id": "mark", "command": "./mark.sh", "timeout": 5}]}
        }),
    );
    let sealed = std::fs::read_to_string(&path).unwrap();
    let declared = serde_json::from_str::<Value>(&sealed).unwrap()["catalogChecksum"]
        .as_str()
        .unwrap()
        .to_string();
    let cases = [
        (
            "not json",
            "{\n  \"version\": 1,\n".to_string(),
            format!(
                "parsing hook registry {}: EOF while parsing a value at line 3 column 0",
                path.display()
            ),
        ),
        (
            "tampered",
            sealed.replace("mark.sh", "mark.sh --again"),
            format!(
                "hook registry {} checksum mismatch: expected {declared}, actual ",
                path.display()
            ),
        ),
        (
            "wrong shape",
            json!({"version": 1, "events": {"pre_tool_use": {"hooks": 3}}}).to_string(),
            String::new(),
        ),
    ];
    for (what, content, expected) in cases {
        std::fs::write(&path, &content).unwrap();
        if what == "wrong shape" {
            run_tama_with(
                home.path(),
                &["registry", "seal", path.to_str().unwrap()],
                "",
                &[],
            );
        }
        let out = run_hook(
            home.path(),
            &[
                "--registry",
                path.to_str().unwrap(),
                "pre_tool_use",
                "agent-1",
            ],
            &support::shell_payload("ls"),
            &[],
        );
        assert_eq!(out.status.code(), Some(2), "{what}");
        let stderr = text(&out.stderr);
        assert!(
            stderr.starts_with(&format!("TAMA_HOOK_INFRASTRUCTURE: {expected}")),
            "{what}: {stderr}"
        );
        assert!(!marker.exists(), "{what}: a hook ran");
    }
}

#[test]
fn a_run_publishes_its_session_record() {
    let home = tempfile::tempdir().unwrap();
    run_hook(
        home.path(),
        &["PreToolUse", "agent-1"],
        &payload("claude-PreToolUse"),
        &[],
    );
    let dir = home.path().join(".tama/session-control");
    let records: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(records.len(), 1, "{records:?}");
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(&records[0]).unwrap()).unwrap();
    assert_eq!(record["agentId"], "agent-1");
    assert_eq!(record["sessionId"], "3b5ed1ce-edc8-4d14-b62e-32bb4b70db6a");
    assert_eq!(
        record["semanticRuntime"]["recentEvents"][0]["blockedHookId"],
        "block-git-hook-bypass"
    );

    // The next run replaces the record whole: the mode set on it stays, and
    // nothing else is left in the folder.
    use std::os::unix::fs::PermissionsExt;
    let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    std::fs::set_permissions(&records[0], std::fs::Permissions::from_mode(0o640)).unwrap();
    run_hook(
        home.path(),
        &["PreToolUse", "agent-1"],
        &payload("claude-PreToolUse"),
        &[],
    );
    let after: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(after, records);
    assert_eq!(mode(&records[0]), 0o640);
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(&records[0]).unwrap()).unwrap();
    assert_eq!(
        record["semanticRuntime"]["recentEvents"]
            .as_array()
            .map(Vec::len),
        Some(2)
    );
}

/// `tama run-hook` with raw bytes on stdin and exactly `env` on top of the scratch home.
fn run_hook_bytes(
    home: &Path,
    args: &[&str],
    stdin: &[u8],
    env: &[(&str, &std::ffi::OsStr)],
) -> std::process::Output {
    use std::io::Write;
    let mut child = support::tama_in(home)
        .arg("run-hook")
        .args(args)
        .envs(env.iter().copied())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

/// Claude Code's block: exit 2, the canonical decision on stdout, the reason on stderr.
fn assert_claude_infrastructure(
    out: &std::process::Output,
    agent: Option<&str>,
    reason: &str,
    what: &str,
) {
    let decision = json!({
        "decision": "block", "reason": reason, "infrastructure": true, "event": "pre_tool_use",
        "sessionId": null, "agentId": agent, "releaseId": null, "catalogChecksum": null, "results": []
    });
    assert_eq!(
        (out.status.code(), text(&out.stdout), text(&out.stderr)),
        (Some(2), format!("{decision}\n"), format!("{reason}\n")),
        "claude: {what}"
    );
}

/// Codex's block: exit 0, its block JSON on stdout; never exit 1, which Codex reads as a failed hook and runs the tool.
fn assert_codex_infrastructure(out: &std::process::Output, reason: &str, what: &str) {
    assert_eq!(
        (out.status.code(), text(&out.stdout), text(&out.stderr)),
        (
            Some(0),
            format!("{}\n", json!({"decision": "block", "reason": reason})),
            String::new()
        ),
        "codex: {what}"
    );
}

#[test]
fn every_infrastructure_failure_is_each_harness_s_own_block() {
    let home = tempfile::tempdir().unwrap();
    let broken = registry(home.path(), json!({"pre_tool_use": {"hooks": []}}));
    let sealed = std::fs::read_to_string(&broken).unwrap();
    std::fs::write(&broken, &sealed[..sealed.len() / 2]).unwrap();
    let truncated_why = match serde_json::from_str::<Value>(&sealed[..sealed.len() / 2]) {
        Err(err) => format!(
            "TAMA_HOOK_INFRASTRUCTURE: parsing hook registry {}: {err}",
            broken.display()
        ),
        Ok(_) => unreachable!("half a registry is not JSON"),
    };
    let deep = format!("{}{}", "[".repeat(300), "]".repeat(300));
    let payload_why = |why: &str| {
        format!("TAMA_HOOK_INFRASTRUCTURE: the PreToolUse payload cannot be read: {why}")
    };
    let cases: Vec<(&str, Vec<String>, Vec<u8>, String)> = vec![
        (
            "truncated registry",
            vec!["--registry".into(), broken.display().to_string()],
            b"{}".to_vec(),
            truncated_why,
        ),
        (
            "payload not JSON",
            vec![],
            b"not json".to_vec(),
            payload_why("the payload is not JSON: expected ident at line 1 column 2"),
        ),
        (
            "non-UTF-8 byte",
            vec![],
            b"{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\xff\"}}".to_vec(),
            payload_why(
                "the payload is not UTF-8 text: invalid utf-8 sequence of 1 bytes from index 47",
            ),
        ),
        (
            "lone surrogate",
            vec![],
            br#"{"tool_name":"Bash","tool_input":{"command":"\ud800 ls"}}"#.to_vec(),
            payload_why(
                "the payload is not JSON: unexpected end of hex escape at line 1 column 52",
            ),
        ),
        (
            "tool name a number",
            vec![],
            br#"{"tool_name":3,"tool_input":{}}"#.to_vec(),
            payload_why("the payload's `tool_name` is not a string"),
        ),
        (
            "nested too deep",
            vec![],
            deep.into_bytes(),
            payload_why("the payload is not JSON: recursion limit exceeded at line 1 column 128"),
        ),
    ];
    for (what, flags, stdin, reason) in &cases {
        for provider in ["claude", "codex"] {
            let mut args: Vec<&str> = vec!["--provider", provider];
            args.extend(flags.iter().map(String::as_str));
            args.extend(["PreToolUse", "agent-1"]);
            let out = run_hook_bytes(home.path(), &args, stdin, &[]);
            match provider {
                "claude" => assert_claude_infrastructure(&out, Some("agent-1"), reason, what),
                _ => assert_codex_infrastructure(&out, reason, what),
            }
        }
    }
    let no_agent = "TAMA_HOOK_INFRASTRUCTURE: tama run-hook needs an agent id: pass it after the event or set TAMA_AGENT_ID";
    assert_claude_infrastructure(
        &run_hook_bytes(
            home.path(),
            &["--provider", "claude", "PreToolUse"],
            b"{}",
            &[],
        ),
        None,
        no_agent,
        "no agent",
    );
    assert_codex_infrastructure(
        &run_hook_bytes(
            home.path(),
            &["--provider", "codex", "PreToolUse"],
            b"{}",
            &[],
        ),
        no_agent,
        "no agent",
    );
}

#[test]
fn variables_that_are_not_text_and_unknown_harnesses_are_blocks_too() {
    use std::os::unix::ffi::OsStrExt;
    let home = tempfile::tempdir().unwrap();
    let not_text = std::ffi::OsStr::from_bytes(b"\xff\xfe");
    for name in [
        "TAMA_AGENT_ID",
        "TAMA_ONLY_HOOK_ID",
        "TAMA_DISABLED_HOOKS",
        "TAMA_ENABLED_HOOKS",
    ] {
        let reason = format!(
            "TAMA_HOOK_INFRASTRUCTURE: {name} cannot be read: environment variable was not valid unicode: \"\\xFF\\xFE\""
        );
        let claude = run_hook_bytes(
            home.path(),
            &["--provider", "claude", "PreToolUse", "agent-1"],
            b"{}",
            &[(name, not_text)],
        );
        assert_claude_infrastructure(&claude, Some("agent-1"), &reason, name);
        let codex = run_hook_bytes(
            home.path(),
            &["--provider", "codex", "PreToolUse", "agent-1"],
            b"{}",
            &[(name, not_text)],
        );
        assert_codex_infrastructure(&codex, &reason, name);
    }
    // A harness Tama cannot name gets exit 2 with the reason on stderr,
    // which Claude Code and Codex both read as a block.
    let unknown = run_hook_bytes(
        home.path(),
        &["PreToolUse", "agent-1"],
        b"{}",
        &[("TAMA_PROVIDER", std::ffi::OsStr::new("codx"))],
    );
    assert_claude_infrastructure(
        &unknown,
        Some("agent-1"),
        "TAMA_HOOK_INFRASTRUCTURE: TAMA_PROVIDER names an unknown harness `codx`: expected claude or codex",
        "unknown provider",
    );
}

#[test]
fn codex_gets_each_event_s_own_block_form() {
    let home = tempfile::tempdir().unwrap();
    let why = "TAMA_HOOK_INFRASTRUCTURE: tama run-hook needs an agent id: pass it after the event or set TAMA_AGENT_ID";
    for (event, block) in [
        ("PreToolUse", json!({"decision": "block", "reason": why})),
        ("PostToolUse", json!({"decision": "block", "reason": why})),
        (
            "UserPromptSubmit",
            json!({"decision": "block", "reason": why}),
        ),
        ("Stop", json!({"decision": "block", "reason": why})),
        ("SubagentStop", json!({"decision": "block", "reason": why})),
        (
            "SessionStart",
            json!({"continue": false, "stopReason": why}),
        ),
        ("PreCompact", json!({"continue": false, "stopReason": why})),
        (
            "PermissionRequest",
            json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "deny", "message": why}}}),
        ),
    ] {
        let out = run_hook_bytes(home.path(), &["--provider", "codex", event], b"{}", &[]);
        assert_eq!(
            (out.status.code(), text(&out.stdout)),
            (Some(0), format!("{block}\n")),
            "{event}"
        );
    }
    for (event, code) in [
        ("Stop", 2),
        ("UserPromptSubmit", 2),
        ("PermissionRequest", 0),
        ("SessionStart", 0),
    ] {
        let out = run_hook_bytes(home.path(), &["--provider", "claude", event], b"{}", &[]);
        assert_eq!(out.status.code(), Some(code), "claude {event}");
        assert_eq!(text(&out.stderr), format!("{why}\n"), "claude {event}");
    }
}

#[test]
fn tool_calls_tama_cannot_read_are_refused_on_a_blocking_event() {
    let home = tempfile::tempdir().unwrap();
    for (call, why) in [
        (
            json!({"tool_name": "Bash"}),
            "it has no tool input (`tool_input`, `input` or `arguments`)",
        ),
        (
            json!({"tool_name": "Bash", "tool_input": []}),
            "its tool input is an array, not a JSON object",
        ),
        (
            json!({"tool_name": "Bash", "toolInput": {"command": "git commit --no-verify"}}),
            "its input is under `toolInput`, which is not where tool-declaration reads a tool input (`tool_input`, `input` or `arguments`)",
        ),
        (
            json!({"tool_name": "Bash", "tool_input": "git commit --no-verify"}),
            "its tool input is a string, not a JSON object",
        ),
        (
            json!({"tool_name": "Bash", "tool_input": {"command": "ls", "cmd": "git commit --no-verify"}}),
            "shell tool `Bash` holds two commands that disagree: `command` is \"ls\" and `cmd` is \"git commit --no-verify\"",
        ),
    ] {
        let reason = format!("tool-declaration: the Bash call cannot be read: {why}");
        let out = run_hook(
            home.path(),
            &["--provider", "codex", "PreToolUse", "agent-1"],
            &call.to_string(),
            &[],
        );
        assert_eq!(
            (out.status.code(), text(&out.stdout)),
            (
                Some(0),
                format!("{}\n", json!({"decision": "block", "reason": reason}))
            ),
            "{call}"
        );
        let out = run_hook(
            home.path(),
            &["--provider", "claude", "PreToolUse", "agent-1"],
            &call.to_string(),
            &[],
        );
        assert_eq!(
            (out.status.code(), text(&out.stderr)),
            (Some(2), format!("{reason}\n")),
            "{call}"
        );
    }
    for nameless in [
        json!({"tool_input": {"command": "git commit --no-verify"}}),
        json!({"tool_name": " ", "tool_input": {"command": "ls"}}),
    ] {
        let out = run_hook(
            home.path(),
            &["--provider", "codex", "PreToolUse", "agent-1"],
            &nameless.to_string(),
            &[],
        );
        let reason =
            "tool-declaration: the pre_tool_use event names no tool, so its call cannot be read";
        assert_eq!(
            text(&out.stdout),
            format!("{}\n", json!({"decision": "block", "reason": reason})),
            "{nameless}"
        );
    }
    // With no blocking hook on the event there is nothing to refuse for.
    let path = registry(
        home.path(),
        json!({"pre_tool_use": {"blocking": false, "hooks": [{"id": "quiet", "command": "true"}]}}),
    );
    let out = run_hook(
        home.path(),
        &[
            "--registry",
            path.to_str().unwrap(),
            "PreToolUse",
            "agent-1",
        ],
        r#"{"tool_name":"Bash"}"#,
        &[],
    );
    assert_eq!(
        (out.status.code(), text(&out.stdout)),
        (Some(0), String::new())
    );
}

#[test]
fn a_failing_hook_refuses_a_blocking_event_unless_it_approved_and_a_non_blocking_one_passes() {
    let home = tempfile::tempdir().unwrap();
    script(
        home.path(),
        "crash.sh",
        "cat >/dev/null; echo 'it broke' >&2; exit 1",
    );
    script(
        home.path(),
        "approve.sh",
        "cat >/dev/null; echo '{\"decision\":\"approve\"}'; exit 1",
    );
    script(
        home.path(),
        "deny.sh",
        "cat >/dev/null; echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"not on main\"}}'",
    );
    let run = |hook: &str, blocking: Option<bool>| {
        let mut event = json!({"hooks": [{"id": hook, "command": format!("./{hook}.sh")}]});
        if let Some(blocking) = blocking {
            event["blocking"] = blocking.into();
        }
        let path = registry(home.path(), json!({"pre_tool_use": event}));
        run_hook(
            home.path(),
            &[
                "--registry",
                path.to_str().unwrap(),
                "--provider",
                "codex",
                "PreToolUse",
                "agent-1",
            ],
            &support::shell_payload("ls"),
            &[],
        )
    };
    // `blocking` left out is blocking.
    let crash = run("crash", None);
    let reason = "TAMA_HOOK_INFRASTRUCTURE: hook crash exited with status 1: it broke";
    assert_eq!(
        (crash.status.code(), text(&crash.stdout)),
        (
            Some(0),
            format!("{}\n", json!({"decision": "block", "reason": reason}))
        )
    );
    assert_eq!(
        (
            run("crash", Some(false)).status.code(),
            text(&run("crash", Some(false)).stdout)
        ),
        (Some(0), String::new())
    );
    assert_eq!(text(&run("approve", None).stdout), "");
    let deny = run("deny", None);
    assert_eq!(
        text(&deny.stdout),
        format!(
            "{}\n",
            json!({"decision": "block", "reason": "deny: not on main"})
        )
    );
}

/// Runs `tama run-hook args` with `stdin`, killing it if it has not ended
/// within ten seconds: a run that waits on a file never ends by itself.
fn run_hook_bounded(home: &Path, args: &[&str], stdin: &str) -> Option<std::process::Output> {
    use std::io::Write;
    let mut child = support::tama_in(home)
        .arg("run-hook")
        .args(args)
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let deadline = Instant::now() + Duration::from_secs(10);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    Some(child.wait_with_output().unwrap())
}

#[test]
fn a_fifo_put_in_place_of_a_file_tama_reads_is_refused_at_once_not_waited_on() {
    let mkfifo = |path: &Path| {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(path)
            .status()
            .unwrap();
        assert!(made.success(), "mkfifo {}", path.display());
    };
    // The registry: the run refuses, naming the file and why.
    let home = tempfile::tempdir().unwrap();
    let registry = home.path().join("registry.json");
    mkfifo(&registry);
    let out = run_hook_bounded(
        home.path(),
        &[
            "--registry",
            registry.to_str().unwrap(),
            "pre_tool_use",
            "agent-1",
        ],
        &support::shell_payload("ls"),
    )
    .expect("a FIFO as the registry holds the run up");
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with(&format!(
            "TAMA_HOOK_INFRASTRUCTURE: reading hook registry {}: not a regular file",
            registry.display()
        )),
        "{stderr}"
    );
    // Oko's state, which block-supervisor-stop asks for on a stop: the run
    // ends, and a state it cannot read is no pass.
    let home = tempfile::tempdir().unwrap();
    mkfifo(&home.path().join(".oko/agents/agent-1/role.json"));
    let out = run_hook_bounded(home.path(), &["Stop", "agent-1"], &payload("claude-Stop"))
        .expect("a FIFO as Oko's state holds the run up");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("not a regular file"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn the_default_registry_refuses_a_write_tool_that_empties_a_hook_and_passes_one_that_installs_it() {
    let home = tempfile::tempdir().unwrap();
    let call = |content: &str| {
        let payload = json!({
            "hook_event_name": "PreToolUse", "session_id": "s-write", "cwd": "/work/repo",
            "tool_name": "Write",
            "tool_input": {"file_path": "/work/repo/.git/hooks/pre-commit", "content": content},
        });
        run_hook(
            home.path(),
            &["--provider", "claude", "PreToolUse", "agent-1"],
            &payload.to_string(),
            &[],
        )
    };
    let emptied = call("#!/bin/sh\nexit 0\n");
    assert_eq!(emptied.status.code(), Some(2), "{}", text(&emptied.stderr));
    assert_eq!(
        text(&emptied.stderr),
        "block-git-hook-bypass: `write /work/repo/.git/hooks/pre-commit` swaps a no-op in for the repository's client-side git hooks, so commits and pushes skip them (block-git-hook-bypass). Leave the hooks in place and fix what they report.\n"
    );
    let installed = call("#!/bin/sh\nnpm test\n");
    assert_eq!(
        installed.status.code(),
        Some(0),
        "{}",
        text(&installed.stderr)
    );
}
