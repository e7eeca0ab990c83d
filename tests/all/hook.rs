//! `tama hook <id>` through the built binary: decisions, exit codes, stdout
//! and stderr as a user sees them.

use crate::support;

use support::{run_tama, shell_payload, text};

const SEED_PAYLOAD: &str =
    r#"{"tool_name":"bash","tool_input":{"command":"git commit --no-verify -m x"}}"#;

#[test]
fn the_seed_example_prints_the_refusal_naming_the_bypass() {
    let home = tempfile::tempdir().unwrap();
    let out = run_tama(
        home.path(),
        &["hook", "block-git-hook-bypass"],
        SEED_PAYLOAD,
    );
    assert_eq!(out.status.code(), Some(2), "stderr: {}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("block-git-hook-bypass: "), "{stdout}");
    assert!(stdout.contains("--no-verify"), "{stdout}");
    assert_eq!(text(&out.stderr), "");
}

#[test]
fn a_harmless_command_passes_silently() {
    let home = tempfile::tempdir().unwrap();
    let out = run_tama(
        home.path(),
        &["hook", "block-git-hook-bypass"],
        &shell_payload("git status"),
    );
    assert_eq!(
        (out.status.code(), text(&out.stdout), text(&out.stderr)),
        (Some(0), String::new(), String::new())
    );
}

#[test]
fn every_harness_shape_of_the_same_call_is_refused() {
    let home = tempfile::tempdir().unwrap();
    for file in [
        "claude-PreToolUse.json",
        "codex-PreToolUse.json",
        "omp-tool_call.json",
    ] {
        let payload =
            std::fs::read_to_string(support::repo_file(&format!("tests/payloads/{file}"))).unwrap();
        let out = run_tama(home.path(), &["hook", "block-git-hook-bypass"], &payload);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{file}: {}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        assert!(text(&out.stdout).contains("--no-verify"), "{file}");
    }
}

#[test]
fn a_payload_that_is_not_json_gets_one_line_naming_the_cause() {
    let home = tempfile::tempdir().unwrap();
    let out = run_tama(
        home.path(),
        &["hook", "block-git-hook-bypass"],
        "{\"tool_name\": ",
    );
    assert_eq!(out.status.code(), Some(3));
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("tama hook: the payload is not JSON: EOF while parsing"),
        "{stderr}"
    );
    assert_eq!(text(&out.stdout), "");
}

#[test]
fn a_shell_call_without_a_command_lacks_what_the_gate_needs() {
    let home = tempfile::tempdir().unwrap();
    let out = run_tama(
        home.path(),
        &["hook", "block-git-hook-bypass"],
        r#"{"tool_name":"Bash","tool_input":{}}"#,
    );
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains("no command string"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn an_unknown_gate_is_a_usage_error() {
    let home = tempfile::tempdir().unwrap();
    let out = run_tama(home.path(), &["hook", "no-such-gate"], SEED_PAYLOAD);
    assert_eq!(out.status.code(), Some(64));
    assert!(
        text(&out.stderr).contains("no-such-gate is not in the registry"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn list_names_the_registered_gates() {
    let home = tempfile::tempdir().unwrap();
    let out = run_tama(home.path(), &["hook", "--list"], "");
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stdout).contains("block-git-hook-bypass\tpre_tool_use:bash"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn a_plugin_that_is_not_registered_runs_from_its_file() {
    let home = tempfile::tempdir().unwrap();
    let plugin = support::component("hostile-trap");
    let out = run_tama(
        home.path(),
        &["hook", "--plugin", plugin.to_str().unwrap()],
        SEED_PAYLOAD,
    );
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("TAMA_HOOK_INFRASTRUCTURE: gate hostile_trap trapped: "),
        "{stdout}"
    );
}

#[test]
fn a_plugins_second_run_maps_the_cached_artifact_instead_of_compiling() {
    let home = tempfile::tempdir().unwrap();
    let plugin = support::component("gate-template");
    let args = ["hook", "--plugin", plugin.to_str().unwrap()];
    let payload = r#"{"tool_name":"Write","tool_input":{"file_path":".env","content":"x"}}"#;
    let first = run_tama(home.path(), &args, payload);
    assert_eq!(first.status.code(), Some(2), "{}", text(&first.stdout));
    let artifacts = cached(home.path());
    assert!(!artifacts.is_empty(), "the plugin is cached");
    let second = run_tama(home.path(), &args, payload);
    assert_eq!(second.stdout, first.stdout);
    assert_eq!(cached(home.path()), artifacts, "nothing was compiled again");
}

fn cached(home: &std::path::Path) -> Vec<(std::path::PathBuf, std::time::SystemTime)> {
    let mut found: Vec<_> = std::fs::read_dir(home.join("cache"))
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.path().extension().is_some_and(|x| x == "cwasm"))
        .map(|e| (e.path(), e.metadata().unwrap().modified().unwrap()))
        .collect();
    found.sort();
    found
}

#[test]
fn a_registry_whose_component_digest_does_not_match_is_refused_by_name() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("hooks");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(support::component("hostile-trap"), dir.join("gate.wasm")).unwrap();
    let registry = serde_json::json!({
        "version": 1,
        "events": {"pre_tool_use": {"blocking": true, "hooks": [
            {"id": "tampered", "type": "wasm", "component": "gate.wasm", "sha256": "00".repeat(32)}
        ]}}
    });
    let path = dir.join("registry.json");
    std::fs::write(&path, registry.to_string()).unwrap();
    let sealed = run_tama(
        home.path(),
        &["registry", "seal", path.to_str().unwrap()],
        "",
    );
    assert_eq!(sealed.status.code(), Some(0), "{}", text(&sealed.stderr));
    let out = run_tama(
        home.path(),
        &["hook", "--registry", path.to_str().unwrap(), "tampered"],
        SEED_PAYLOAD,
    );
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with(
            "TAMA_HOOK_INFRASTRUCTURE: gate tampered could not be loaded: hook registry"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("component digest mismatch: expected 0000"),
        "{stdout}"
    );
}

#[test]
fn a_registry_that_is_not_json_is_refused_with_line_and_column() {
    let home = tempfile::tempdir().unwrap();
    let path = home.path().join("registry.json");
    std::fs::write(&path, "{\n").unwrap();
    let out = run_tama(
        home.path(),
        &[
            "hook",
            "--registry",
            path.to_str().unwrap(),
            "block-git-hook-bypass",
        ],
        SEED_PAYLOAD,
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        format!(
            "TAMA_HOOK_INFRASTRUCTURE: parsing hook registry {}: EOF while parsing an object at line 2 column 0\n",
            path.display()
        )
    );
}
