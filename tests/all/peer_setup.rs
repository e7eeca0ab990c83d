//! `tama setup peers`: the hook block per agent kind, merged into configs
//! that hold other things, idempotent, backed up, and removable.

use crate::support;
use crate::support::peers;

use peers::Machine;
use serde_json::{Value, json};
use tama_core::command::shell_quote;

fn setup(m: &Machine, args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["setup", "peers"];
    all.extend_from_slice(args);
    let out = m.run(&all, "");
    (
        out.status.code().unwrap_or(-1),
        peers::text(&out.stdout),
        peers::text(&out.stderr),
    )
}

fn read(m: &Machine, path: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(m.path(path)).unwrap()).unwrap()
}

#[test]
fn the_hook_block_per_kind() {
    let m = Machine::new();
    let (code, out, err) = setup(&m, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("claude: ") && out.contains("codex: "), "{out}");
    let tama = support::tama().canonicalize().unwrap();
    let command = |kind: &str, event: &str| {
        format!(
            "{} peer-hook {kind} {event}",
            shell_quote(&tama.to_string_lossy())
        )
    };
    let claude = &read(&m, "home/.claude/settings.json")["hooks"];
    let events: Vec<&str> = claude
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        events,
        [
            "SessionStart",
            "UserPromptSubmit",
            "PreToolUse",
            "Stop",
            "SessionEnd"
        ]
    );
    assert_eq!(
        claude["PreToolUse"],
        json!([{"matcher": "Edit|Write|NotebookEdit", "hooks": [
        {"type": "command", "command": command("claude", "pre-tool"), "timeout": 10}]}])
    );
    let stop = claude["Stop"].as_array().unwrap();
    assert_eq!(stop.len(), 2);
    assert_eq!(stop[0]["hooks"][0]["command"], command("claude", "stop"));
    let waiter = &stop[1]["hooks"][0];
    assert_eq!(waiter["command"], command("claude", "wait"));
    assert_eq!(
        (&waiter["async"], &waiter["asyncRewake"]),
        (&json!(true), &json!(true))
    );
    assert!(
        waiter["timeout"].as_u64().unwrap() >= 3600,
        "the waiter gets a long timeout"
    );
    assert!(stop[1].get("matcher").is_none());
    for (event, word) in [
        ("SessionStart", "session-start"),
        ("UserPromptSubmit", "prompt"),
        ("SessionEnd", "session-end"),
    ] {
        assert_eq!(
            claude[event][0]["hooks"][0]["command"],
            command("claude", word),
            "{event}"
        );
    }
    let codex = &read(&m, "home/.codex/hooks.json")["hooks"];
    assert_eq!(codex["Stop"].as_array().unwrap().len(), 1);
    assert_eq!(codex["PreToolUse"][0]["matcher"], "apply_patch|Bash");
    assert_eq!(
        codex["PreToolUse"][0]["hooks"][0]["command"],
        command("codex", "pre-tool")
    );
    assert_eq!(
        codex["SessionStart"][0]["hooks"][0]["command"],
        command("codex", "session-start")
    );
    assert_eq!(
        codex["UserPromptSubmit"][0]["hooks"][0]["command"],
        command("codex", "prompt")
    );
    assert_eq!(
        codex["SessionEnd"][0]["hooks"][0]["command"],
        command("codex", "session-end")
    );
    for skill in [
        "home/.claude/skills/peer-work/SKILL.md",
        "home/.codex/skills/peer-work/SKILL.md",
    ] {
        let text = std::fs::read_to_string(m.path(skill)).unwrap();
        assert!(
            text.starts_with("---\nname: peer-work\n")
                && text.contains(&format!("{} peers", shell_quote(&tama.to_string_lossy()))),
            "{text}"
        );
    }
}

#[test]
fn setup_keeps_everything_else_backs_up_repeats_and_removes_only_its_own() {
    let m = Machine::new();
    let settings = m.path("home/.claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    let original = json!({
        "model": "x",
        "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "other-tool stop"}]}]},
    });
    let original_text = serde_json::to_string_pretty(&original).unwrap();
    std::fs::write(&settings, &original_text).unwrap();
    assert_eq!(setup(&m, &[]).0, 0);
    let installed = std::fs::read(&settings).unwrap();
    let after: Value = serde_json::from_slice(&installed).unwrap();
    assert_eq!(after["model"], "x");
    assert_eq!(
        after["hooks"]["Stop"][0], original["hooks"]["Stop"][0],
        "the other tool's hook is kept, first"
    );
    assert_eq!(after["hooks"]["Stop"].as_array().unwrap().len(), 3);
    let backups: Vec<_> = std::fs::read_dir(settings.parent().unwrap())
        .unwrap()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("settings.json.bak")
        })
        .collect();
    assert_eq!(backups.len(), 1);
    assert_eq!(
        std::fs::read_to_string(backups[0].path()).unwrap(),
        original_text
    );
    // Twice gives the same file.
    let (code, out, _) = setup(&m, &[]);
    assert_eq!(code, 0);
    assert_eq!(std::fs::read(&settings).unwrap(), installed);
    assert!(out.contains("nothing changed"), "{out}");
    // Tama's own run-hook entries are not the peer hooks': they stay.
    // --remove leaves only what was there before.
    assert_eq!(setup(&m, &["--remove"]).0, 0);
    assert_eq!(read(&m, "home/.claude/settings.json"), original);
    assert!(!m.path("home/.claude/skills/peer-work/SKILL.md").exists());
}

#[test]
fn setup_leaves_a_config_that_is_not_json_untouched() {
    let m = Machine::new();
    let settings = m.path("home/.claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, "{ not json").unwrap();
    let (code, _, err) = setup(&m, &[]);
    assert_eq!(code, 1);
    assert!(
        err.contains("is not JSON") && err.contains("left untouched"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), "{ not json");
}

#[test]
fn peer_hooks_and_tama_hooks_live_side_by_side() {
    let m = Machine::new();
    assert_eq!(m.run(&["setup", "claude"], "").status.code(), Some(0));
    let tama_only = read(&m, "home/.claude/settings.json");
    assert_eq!(setup(&m, &[]).0, 0);
    let both = read(&m, "home/.claude/settings.json");
    assert!(
        both["hooks"]["Stop"].as_array().unwrap().len()
            == tama_only["hooks"]["Stop"].as_array().unwrap().len() + 2
    );
    assert_eq!(setup(&m, &["--remove"]).0, 0);
    assert_eq!(read(&m, "home/.claude/settings.json"), tama_only);
}
