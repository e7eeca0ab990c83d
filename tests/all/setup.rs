//! `tama setup`: Tama's hooks go into a harness's config and come out again,
//! and nothing else in the file changes.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use tama_adapters::setup::{
    Harness, HookEvent, Report, SetupError, events_from_registry_keys, hook_command, install,
    remove,
};
use tama_adapters::{claude::Claude, codex::Codex};

const CLAUDE: Harness = Harness(&Claude);
const CODEX: Harness = Harness(&Codex);
const TAMA: &str = "/opt/tama tools/bin/tama";

/// A user's settings.json with hooks of their own, an older installer's
/// entry and keys Tama has no business with, formatted by hand.
const SETTINGS: &str = r#"{
    "model": "opus",
    "env": { "API_TIMEOUT": "30" },
    "hooks": {
        "PreToolUse": [
            { "matcher": "Bash", "hooks": [ { "type": "command", "command": "~/bin/guard.sh", "timeout": 5 } ] },
            { "matcher": "*", "hooks": [ { "type": "command", "command": "node \"$HOME/.shared-hooks/run-hook.mjs\" pre_tool_use claude" } ] },
            { "matcher": "Edit", "hooks": [] }
        ],
        "Notification": [ { "hooks": [ { "type": "command", "command": "notify-send done" } ] } ]
    },
    "permissions": { "allow": ["Bash(ls:*)"] }
}
"#;

fn events() -> Vec<HookEvent> {
    events_from_registry_keys(&["pre_tool_use:bash", "pre_tool_use:write", "stop"], 30)
}

fn home_with(harness: Harness, text: &str) -> (tempfile::TempDir, PathBuf) {
    let home = tempfile::tempdir().unwrap();
    let path = harness.config_path(home.path());
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(&path, text).unwrap();
    (home, path)
}

fn json_of(path: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

fn backups(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    found.retain(|p| p.file_name().unwrap().to_string_lossy().contains(".bak-"));
    found
}

fn tama_group(event: &str, matcher: Option<&str>, provider: &str) -> Value {
    let handler = json!({
        "type": "command",
        "command": hook_command(Harness::of(provider).unwrap(), TAMA, event),
        "timeout": 30,
    });
    match matcher {
        Some(m) => json!({"matcher": m, "hooks": [handler]}),
        None => json!({"hooks": [handler]}),
    }
}

#[test]
fn registry_keys_become_one_entry_per_harness_event() {
    let keys = [
        "pre_tool_use:bash",
        "stop",
        "pre_tool_use",
        "session_start:compact",
        "before_provider_request",
        "post_tool_use:edit",
    ];
    let names: Vec<_> = events_from_registry_keys(&keys, 9)
        .into_iter()
        .map(|e| (e.harness_event, e.matcher, e.timeout_secs))
        .collect();
    assert_eq!(
        names,
        [
            ("PreToolUse".to_string(), Some("*".to_string()), 9),
            ("Stop".to_string(), None, 9),
            ("SessionStart".to_string(), None, 9),
            ("PostToolUse".to_string(), Some("*".to_string()), 9),
        ]
    );
}

#[test]
fn install_adds_tamas_hooks_and_keeps_everything_else() {
    let (home, path) = home_with(CLAUDE, SETTINGS);
    let report = install(CLAUDE, home.path(), Path::new(TAMA), &events()).unwrap();

    assert!(report.changed);
    assert_eq!(report.events, ["PreToolUse", "Stop"]);
    assert_eq!(
        fs::read_to_string(report.backup.as_ref().unwrap()).unwrap(),
        SETTINGS
    );
    let mut expected: Value = serde_json::from_str(SETTINGS).unwrap();
    // The older installer's entry is replaced where it stood.
    expected["hooks"]["PreToolUse"][1] = tama_group("pre_tool_use", Some("*"), "claude");
    expected["hooks"]["Stop"] = json!([tama_group("stop", None, "claude")]);
    assert_eq!(json_of(&path), expected);
}

#[test]
fn installing_twice_changes_nothing_the_second_time() {
    let (home, path) = home_with(CLAUDE, SETTINGS);
    install(CLAUDE, home.path(), Path::new(TAMA), &events()).unwrap();
    let first = fs::read(&path).unwrap();

    let again = install(CLAUDE, home.path(), Path::new(TAMA), &events()).unwrap();
    assert!(!again.changed);
    assert_eq!(again.backup, None);
    assert_eq!(fs::read(&path).unwrap(), first);
    assert_eq!(backups(path.parent().unwrap()).len(), 1);
    assert!(again.to_string().contains("nothing changed"), "{again}");
}

#[test]
fn remove_takes_out_only_tamas_hooks() {
    let original = SETTINGS.replace(
        r#"node \"$HOME/.shared-hooks/run-hook.mjs\" pre_tool_use claude"#,
        "echo mine",
    );
    let (home, path) = home_with(CLAUDE, &original);
    install(CLAUDE, home.path(), Path::new(TAMA), &events()).unwrap();

    let report = remove(CLAUDE, home.path(), Path::new(TAMA)).unwrap();
    assert!(report.changed && report.backup.is_some());
    assert_eq!(
        json_of(&path),
        serde_json::from_str::<Value>(&original).unwrap()
    );
    assert!(
        report.to_string().starts_with("Tama's hooks removed from"),
        "{report}"
    );

    let again = remove(CLAUDE, home.path(), Path::new(TAMA)).unwrap();
    assert!(!again.changed);
}

#[test]
fn remove_keeps_the_others_in_a_shared_group() {
    let text = json!({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "say done"},
        {"type": "command", "command": "/usr/local/bin/tama run-hook stop claude"},
        {"type": "command", "command": "/elsewhere/tama", "args": ["run-hook", "stop", "claude"]},
    ]}]}});
    let (home, path) = home_with(CLAUDE, &text.to_string());
    remove(CLAUDE, home.path(), Path::new(TAMA)).unwrap();
    assert_eq!(
        json_of(&path),
        json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}})
    );
}

#[test]
fn remove_after_install_into_an_empty_home_leaves_an_empty_object() {
    let home = tempfile::tempdir().unwrap();
    install(CLAUDE, home.path(), Path::new(TAMA), &events()).unwrap();
    remove(CLAUDE, home.path(), Path::new(TAMA)).unwrap();
    assert_eq!(json_of(&CLAUDE.config_path(home.path())), json!({}));
}

#[test]
fn a_file_that_is_not_a_json_object_is_refused_and_left_alone() {
    for text in [
        "{ \"hooks\": ",
        "[1, 2]",
        "{\"hooks\": []}",
        "{\"hooks\": {\"Stop\": {}}}",
    ] {
        let (home, path) = home_with(CLAUDE, text);
        let err = install(CLAUDE, home.path(), Path::new(TAMA), &events()).unwrap_err();
        assert!(
            err.to_string().contains(&path.display().to_string()),
            "{err}"
        );
        assert!(
            matches!(
                err,
                SetupError::NotJson { .. }
                    | SetupError::NotObject { .. }
                    | SetupError::Shape { .. }
            ),
            "{err:?}"
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), text);
        assert!(backups(path.parent().unwrap()).is_empty());
    }
    let (home, _) = home_with(CLAUDE, "not json");
    assert!(matches!(
        remove(CLAUDE, home.path(), Path::new(TAMA)),
        Err(SetupError::NotJson { .. })
    ));
}

#[test]
fn codex_gets_its_own_file_and_a_trust_notice() {
    let home = tempfile::tempdir().unwrap();
    let events = events_from_registry_keys(&["pre_tool_use:bash", "stop", "session_end"], 30);
    let report = install(CODEX, home.path(), Path::new(TAMA), &events).unwrap();

    let path = home.path().join(".codex/hooks.json");
    assert_eq!(report.path, path);
    assert_eq!(report.backup, None);
    assert_eq!(
        fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o600
    );
    assert_eq!(
        json_of(&path),
        json!({"hooks": {
            "PreToolUse": [tama_group("pre_tool_use", Some("*"), "codex")],
            "Stop": [tama_group("stop", None, "codex")],
        }})
    );
    let notices = report.notices.join("\n");
    assert!(
        notices.contains("codex has no SessionEnd event"),
        "{notices}"
    );
    assert!(
        notices.contains("/hooks") && notices.contains("trust"),
        "{notices}"
    );
    assert!(report.to_string().contains("/hooks"));
}

#[test]
fn the_files_mode_and_symlink_are_kept() {
    let (home, real) = home_with(CLAUDE, "{}");
    fs::set_permissions(&real, fs::Permissions::from_mode(0o640)).unwrap();
    let link_home = tempfile::tempdir().unwrap();
    let link = CLAUDE.config_path(link_home.path());
    fs::create_dir_all(link.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();

    install(CLAUDE, link_home.path(), Path::new(TAMA), &events()).unwrap();
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        fs::metadata(&real).unwrap().permissions().mode() & 0o777,
        0o640
    );
    assert!(json_of(&real)["hooks"]["Stop"].is_array());
    drop(home);
}

#[test]
fn a_relative_tama_or_an_odd_event_is_refused() {
    let home = tempfile::tempdir().unwrap();
    let err = install(CLAUDE, home.path(), Path::new("bin/tama"), &events()).unwrap_err();
    assert!(matches!(err, SetupError::TamaPath(_)), "{err:?}");
    let odd = [HookEvent {
        harness_event: "Pre; rm -rf".into(),
        matcher: None,
        timeout_secs: 1,
    }];
    let err = install(CLAUDE, home.path(), Path::new(TAMA), &odd).unwrap_err();
    assert!(matches!(err, SetupError::BadEvent(_)), "{err:?}");
    assert!(!CLAUDE.config_path(home.path()).exists());
}

#[test]
fn a_path_with_a_quote_stays_one_word() {
    let home = tempfile::tempdir().unwrap();
    let tama = Path::new("/home/o'neil/bin/tama");
    install(CLAUDE, home.path(), tama, &events()).unwrap();
    let command =
        json_of(&CLAUDE.config_path(home.path()))["hooks"]["Stop"][0]["hooks"][0]["command"]
            .clone();
    assert!(
        command
            .as_str()
            .unwrap()
            .starts_with(r"'/home/o'\''neil/bin/tama' run-hook --provider claude stop claude || "),
        "{command}"
    );
    let report: Report = remove(CLAUDE, home.path(), tama).unwrap();
    assert!(report.changed);
}

#[test]
fn codex_commands_get_pagers_and_editors_that_take_no_typed_commands() {
    use tama_adapters::codex_env;
    let home = tempfile::tempdir().unwrap();
    let config = codex_env::config_path(home.path());
    fs::create_dir_all(config.parent().unwrap()).unwrap();
    fs::write(
        &config,
        "model = \"gpt\"\n\n[shell_environment_policy]\ninherit = \"core\"\nset = { FOO = \"1\", EDITOR = \"vim\" }\n",
    )
    .unwrap();
    assert!(!codex_env::missing(home.path()).is_empty());
    assert!(
        codex_env::install(home.path()).unwrap().is_some(),
        "the user's file is backed up"
    );
    assert!(codex_env::missing(home.path()).is_empty());
    let text = fs::read_to_string(&config).unwrap();
    assert!(
        text.contains("model = \"gpt\"") && text.contains("inherit = \"core\""),
        "{text}"
    );
    assert!(
        text.contains("FOO = \"1\"") && text.contains("LESSSECURE = \"1\""),
        "{text}"
    );
    assert_eq!(
        codex_env::install(home.path()).unwrap(),
        None,
        "a second run changes nothing"
    );
    codex_env::remove(home.path()).unwrap();
    let text = fs::read_to_string(&config).unwrap();
    assert!(
        text.contains("FOO = \"1\"") && !text.contains("LESSSECURE"),
        "{text}"
    );
    fs::write(&config, "not [toml").unwrap();
    assert!(matches!(
        codex_env::install(home.path()),
        Err(SetupError::NotToml { .. })
    ));
    assert_eq!(
        fs::read_to_string(&config).unwrap(),
        "not [toml",
        "left untouched"
    );
}
