//! `tama setup claude|codex` through the built binary, in a scratch home.

use crate::support;

use serde_json::Value;
use support::{run_tama, text};

#[test]
fn setup_writes_this_tama_into_claude_settings_and_removes_only_its_own() {
    let home = tempfile::tempdir().unwrap();
    let settings = home.path().join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    let original = r#"{"model":"opus","hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"/usr/local/bin/audit"}]}]}}"#;
    std::fs::write(&settings, original).unwrap();
    let out = run_tama(home.path(), &["setup", "claude"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    assert_eq!(written["model"], "opus");
    let tama = support::tama().canonicalize().unwrap();
    let commands: Vec<String> = written["hooks"]["PreToolUse"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| {
            g["hooks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h["command"].as_str().unwrap().to_string())
        })
        .collect();
    assert!(
        commands.contains(&"/usr/local/bin/audit".to_string()),
        "{commands:?}"
    );
    assert!(
        commands.iter().any(|c| c.contains(tama.to_str().unwrap())
            && c.contains("run-hook --provider claude pre_tool_use")),
        "{commands:?}"
    );
    assert!(
        written["hooks"]["Stop"].is_array(),
        "the default registry's stop event is installed"
    );
    let once = std::fs::read(&settings).unwrap();
    assert_eq!(
        run_tama(home.path(), &["setup", "claude"], "")
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        std::fs::read(&settings).unwrap(),
        once,
        "a second run gives the same file"
    );
    assert_eq!(
        run_tama(home.path(), &["setup", "claude", "--remove"], "")
            .status
            .code(),
        Some(0)
    );
    let removed: Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    assert_eq!(removed, serde_json::from_str::<Value>(original).unwrap());
    let backups = std::fs::read_dir(settings.parent().unwrap())
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .contains(".bak-")
        })
        .count();
    assert!(backups >= 1, "the file was backed up first");
}

#[test]
fn setup_codex_says_how_to_trust_the_hooks() {
    let home = tempfile::tempdir().unwrap();
    let out = run_tama(home.path(), &["setup", "codex"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).to_lowercase().contains("trust"),
        "{}",
        text(&out.stdout)
    );
    assert!(home.path().join(".codex/hooks.json").is_file());
}

#[test]
fn each_entry_waits_longer_than_every_hook_tama_runs_for_its_event() {
    let home = tempfile::tempdir().unwrap();
    let path = home.path().join("registry.json");
    let hook = |id: &str, timeout: u64| serde_json::json!({"id": id, "command": "true", "timeout": timeout});
    let registry = serde_json::json!({"version": 1, "events": {
        "pre_tool_use": {"hooks": [hook("a", 20), hook("b", 25)]},
        "pre_tool_use:bash": {"hooks": [hook("c", 40), hook("a", 20)]},
        "stop": {"hooks": [hook("d", 50), hook("e", 70)]},
        "user_prompt_submit": {"hooks": [{"id": "f", "command": "true"}]}
    }});
    std::fs::write(&path, registry.to_string()).unwrap();
    assert_eq!(
        run_tama(
            home.path(),
            &["registry", "seal", path.to_str().unwrap()],
            ""
        )
        .status
        .code(),
        Some(0)
    );
    for harness in ["claude", "codex"] {
        let out = run_tama(
            home.path(),
            &["setup", harness, "--registry", path.to_str().unwrap()],
            "",
        );
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let file = if harness == "claude" {
            ".claude/settings.json"
        } else {
            ".codex/hooks.json"
        };
        let written: Value =
            serde_json::from_str(&std::fs::read_to_string(home.path().join(file)).unwrap())
                .unwrap();
        let timeout = |event: &str| written["hooks"][event][0]["hooks"][0]["timeout"].as_u64();
        // In turn: a, b and c once each; side by side on stop: the slowest; 30 s for a command without one; 10 s to spare.
        assert_eq!(timeout("PreToolUse"), Some(20 + 25 + 40 + 10), "{harness}");
        assert_eq!(timeout("Stop"), Some(70 + 10), "{harness}");
        assert_eq!(timeout("UserPromptSubmit"), Some(30 + 10), "{harness}");
    }
}
