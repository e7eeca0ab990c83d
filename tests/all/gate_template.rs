//! The gate template works the way its README says: tried with `--plugin`,
//! then registered, sealed and run.

use crate::support;

use serde_json::json;
use support::{run_tama, text};

fn payload(name: &str) -> String {
    std::fs::read_to_string(support::repo_file(&format!(
        "examples/gate-template/payloads/{name}.json"
    )))
    .unwrap()
}

#[test]
fn tried_with_plugin_it_refuses_env_writes_of_every_harness() {
    let home = tempfile::tempdir().unwrap();
    let plugin = support::component("gate-template");
    for (file, refused) in [
        ("claude-write-env", true),
        ("claude-write-readme", false),
        ("codex-apply-patch-env", true),
        ("omp-edit-env", true),
    ] {
        let out = run_tama(
            home.path(),
            &["hook", "--plugin", plugin.to_str().unwrap()],
            &payload(file),
        );
        assert_eq!(
            out.status.code(),
            Some(if refused { 2 } else { 0 }),
            "{file}: {}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
    }
}

#[test]
fn registered_and_sealed_it_runs_through_run_hook() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("hooks");
    std::fs::create_dir_all(&dir).unwrap();
    let bytes = std::fs::read(support::component("gate-template")).unwrap();
    std::fs::write(dir.join("gate_template.wasm"), &bytes).unwrap();
    let registry = json!({"version": 1, "events": {"pre_tool_use:write": {"blocking": true, "hooks": [{
        "id": "block-env-writes", "type": "wasm", "component": "gate_template.wasm",
        "sha256": tama_core::registry::checksum::sha256_hex(&bytes), "config": {"patterns": [".env"]}, "state": []
    }]}}});
    let path = dir.join("registry.json");
    std::fs::write(&path, registry.to_string()).unwrap();
    let path = path.to_str().unwrap();
    assert_eq!(
        run_tama(home.path(), &["registry", "seal", path], "")
            .status
            .code(),
        Some(0)
    );
    let check = run_tama(home.path(), &["registry", "check", path], "");
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stderr));
    assert!(
        text(&check.stdout)
            .contains("pre_tool_use:write\tblock-env-writes\twasm gate_template.wasm"),
        "{}",
        text(&check.stdout)
    );
    let out = run_tama(
        home.path(),
        &["run-hook", "--registry", path, "pre_tool_use", "agent-1"],
        &payload("codex-apply-patch-env"),
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).starts_with("block-env-writes: "),
        "{}",
        text(&out.stderr)
    );
    let readme = run_tama(
        home.path(),
        &["run-hook", "--registry", path, "pre_tool_use", "agent-1"],
        &payload("claude-write-readme"),
    );
    assert_eq!(readme.status.code(), Some(0));
}
