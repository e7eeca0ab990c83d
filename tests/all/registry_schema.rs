//! The committed JSON Schema is the one the registry types generate, and the
//! example registries are sealed and valid.

use crate::support;

#[test]
fn the_committed_schema_matches_the_generated_one() {
    let committed =
        std::fs::read_to_string(support::repo_file("registry-schema/registry.schema.json"))
            .unwrap_or_default();
    assert!(
        committed == tama_core::registry::schema(),
        "registry-schema/registry.schema.json is stale: regenerate it with `tama registry schema > registry-schema/registry.schema.json`"
    );
}

#[test]
fn the_embedded_default_registry_is_sealed_and_valid() {
    let loaded = tama_core::registry::Loaded::embedded().expect("the default registry loads");
    assert!(
        loaded
            .registry
            .release_id
            .as_deref()
            .is_some_and(|r| r.starts_with("tama-"))
    );
    let ids = loaded.registry.hook_ids();
    assert_eq!(
        ids,
        [
            "protect-tama",
            "block-git-hook-bypass",
            "block-supervisor-stop",
            "block-text-outside-tool-calls"
        ]
    );
}

#[test]
fn the_checksum_is_the_existing_installers() {
    // sha256 of {"a":"é","b":[1,{"c":2,"d":null}]}: sorted keys, no spaces, non-ASCII as it is.
    let registry =
        serde_json::json!({"b": [1, {"d": null, "c": 2}], "catalogChecksum": "x", "a": "é"});
    let expected = tama_core::registry::checksum::sha256_hex(
        "{\"a\":\"é\",\"b\":[1,{\"c\":2,\"d\":null}]}".as_bytes(),
    );
    assert_eq!(
        tama_core::registry::checksum::catalog_checksum(&registry),
        expected
    );
}

use serde_json::{Value, json};
use support::{run_tama, text};

/// `tama registry seal` then `check` of `registry` written in `dir`: exit code and stderr of the first that fails.
fn seal_and_check(dir: &std::path::Path, registry: &str) -> (Option<i32>, String) {
    let path = dir.join("registry.json");
    std::fs::write(&path, registry).unwrap();
    for command in ["seal", "check"] {
        let out = run_tama(dir, &["registry", command, path.to_str().unwrap()], "");
        if out.status.code() != Some(0) {
            return (out.status.code(), text(&out.stderr));
        }
    }
    (Some(0), String::new())
}

/// A registry in the existing installer's shape, every documented key used.
fn existing_format() -> Value {
    json!({
        "version": 1,
        "generatedAt": "2026-08-24T10:00:00Z",
        "generatedFrom": "shared-hooks/catalog.json",
        "managedBy": "jeden-unified-hooks",
        "releaseId": "0123abcd",
        "adapters": {"claude": {"path": ".claude/settings.json"}, "codex": {"path": ".codex/hooks.json"}, "omp": {"path": ".omp/agent/hooks"}},
        "events": {
            "pre_tool_use:bash": {"blocking": true, "hooks": [{"id": "guard", "type": "command", "command": "true", "timeout": 5, "blocking": true, "interval": 0}]},
            "stop": {"blocking": false, "hooks": [{"id": "note", "command": "true"}]}
        },
        "catalog": {
            "version": 1,
            "updatedAt": "2026-08-24",
            "notes": "generated",
            "maintainedIn": "/src/shared-hooks/registry.json",
            "generatedDocs": "~/.shared-hooks/HOOKS.md",
            "editorAdapters": {"vscode": {"path": "x"}},
            "ompAdapters": {"hooks": "y"},
            "agentHooks": [{
                "id": "guard", "command": "true", "source": "", "type": "requires_justification",
                "occurrences": [{"event": "pre_tool_use:bash", "blocking": true, "timeout": 5, "statusMessage": "checking"}],
                "category": "git safety", "status": "active", "description": "d", "why": "w", "sideEffects": "none",
                "aliases": ["guard-old"],
                "justificationRequirements": [{"kind": "k", "title": "t", "registryPath": ".j.json", "field": "f", "minimumWords": 3, "directUserQuoteField": "q"}]
            }],
            "gitHooks": [{"id": "pre-commit", "event": "pre-commit", "scope": "global", "hooksPath": "~/.githooks", "source": "s", "category": "c", "description": "d", "why": "w", "sideEffects": "none"}]
        }
    })
}

#[test]
fn a_registry_in_the_existing_format_loads() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(
        seal_and_check(dir.path(), &existing_format().to_string()),
        (Some(0), String::new())
    );
}

#[test]
fn a_key_outside_both_formats_is_refused_by_name_and_place() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &str, Value); 5] = [
        ("/events/stop", "Blocking", json!(true)),
        ("/events/pre_tool_use:bash/hooks/0", "blockng", json!(true)),
        ("", "generatedBy", json!("me")),
        ("/catalog/gitHooks/0", "hookPath", json!("x")),
        (
            "/catalog/agentHooks/0/occurrences/0",
            "blocked",
            json!(true),
        ),
    ];
    for (pointer, key, value) in cases {
        let mut registry = existing_format();
        registry
            .pointer_mut(pointer)
            .unwrap()
            .as_object_mut()
            .unwrap()
            .insert(key.into(), value);
        let (code, stderr) = seal_and_check(dir.path(), &registry.to_string());
        assert_eq!(code, Some(1), "{key}");
        assert!(
            stderr.starts_with("TAMA_HOOK_INFRASTRUCTURE: hook registry "),
            "{stderr}"
        );
        assert!(
            stderr.contains(&format!("unknown field `{key}`")),
            "{key}: {stderr}"
        );
        let place = pointer
            .trim_start_matches('/')
            .replace('/', ".")
            .replace(".0", "[0]");
        assert!(
            stderr.contains(&format!("has the wrong shape: {place}")),
            "{place}: {stderr}"
        );
    }
    let gate = json!({"version": 1, "events": {"stop": {"hooks": [{"id": "g", "type": "wasm", "component": "g.wasm", "sha256": "00", "sha265": "00"}]}}});
    let (code, stderr) = seal_and_check(dir.path(), &gate.to_string());
    assert_eq!(code, Some(1));
    assert!(
        stderr.contains("events.stop.hooks[0]: unknown field `sha265`"),
        "{stderr}"
    );
    let unknown_type = json!({"version": 1, "events": {"stop": {"hooks": [{"id": "g", "type": "wsam", "command": "true"}]}}});
    let (_, stderr) = seal_and_check(dir.path(), &unknown_type.to_string());
    assert!(
        stderr.contains(
            r#"events.stop.hooks[0]: unknown hook type "wsam": expected "command" or "wasm""#
        ),
        "{stderr}"
    );
}

#[test]
fn a_key_given_twice_is_refused_by_name_and_the_file_is_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let twice =
        r#"{"version": 1, "events": {"stop": {"blocking": true, "blocking": false, "hooks": []}}}"#;
    let (code, stderr) = seal_and_check(dir.path(), twice);
    assert_eq!(code, Some(1));
    assert!(
        stderr.contains(r#"events.stop: the key "blocking" is given twice"#),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("registry.json")).unwrap(),
        twice
    );
}

#[test]
fn a_component_must_stay_inside_the_registry_folder() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("hooks");
    std::fs::create_dir_all(&dir).unwrap();
    let bytes = std::fs::read(support::component("block-git-hook-bypass")).unwrap();
    let sha256 = tama_core::registry::checksum::sha256_hex(&bytes);
    std::fs::write(root.path().join("outside.wasm"), &bytes).unwrap();
    std::os::unix::fs::symlink(root.path().join("outside.wasm"), dir.join("link.wasm")).unwrap();
    std::fs::write(dir.join("inside.wasm"), &bytes).unwrap();
    let gate = |component: &str| {
        json!({"version": 1, "events": {"pre_tool_use": {"hooks": [
            {"id": "g", "type": "wasm", "component": component, "sha256": sha256}
        ]}}})
        .to_string()
    };
    assert_eq!(
        seal_and_check(&dir, &gate("inside.wasm")),
        (Some(0), String::new())
    );
    let outside = root.path().join("outside.wasm");
    for (component, why) in [
        (
            "../outside.wasm",
            "climbs out of the registry's folder with `..`",
        ),
        (
            outside.to_str().unwrap(),
            "is an absolute path, not one inside the registry's folder",
        ),
        ("link.wasm", "leads out of the registry's folder"),
    ] {
        let (code, stderr) = seal_and_check(&dir, &gate(component));
        assert_eq!(code, Some(1), "{component}");
        assert!(
            stderr.contains(why) && stderr.contains("hook g"),
            "{component}: {stderr}"
        );
    }
}

#[test]
fn blocking_is_true_unless_the_registry_says_false() {
    let registry: tama_core::registry::Registry =
        serde_json::from_value(json!({"version": 1, "events": {"stop": {"hooks": []}}})).unwrap();
    assert!(registry.events["stop"].blocking);
}
