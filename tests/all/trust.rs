//! What Tama trusts, tried as the agent it polices would: compiled artifacts
//! swapped or edited in the cache, hand-written overrides, a private cache
//! folder, key and log.

use crate::support;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use support::operator::run_operator;
use support::{run_tama, run_tama_with, shell_payload, text};
use tama_core::session::control_key;

const BYPASS: &str = "git commit --no-verify -m x";

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

fn log(home: &Path) -> String {
    std::fs::read_to_string(home.join(".tama/tama.log")).unwrap_or_default()
}

/// `bytes` with a custom section appended: the same component under another digest.
fn renamed(bytes: &[u8], label: &str) -> Vec<u8> {
    let name = format!("tama-test-{label}");
    let mut section = vec![name.len() as u8];
    section.extend_from_slice(name.as_bytes());
    let mut out = bytes.to_vec();
    out.push(0);
    out.push(section.len() as u8);
    out.extend_from_slice(&section);
    out
}

/// A registry of two gates from files, neither built into `tama`: the
/// template, which passes every shell call, then the bypass gate's code; a
/// bypass runs both.
fn registry(home: &Path) -> PathBuf {
    let dir = home.join("hooks");
    std::fs::create_dir_all(&dir).unwrap();
    let bypass = renamed(
        &std::fs::read(support::component("block-git-hook-bypass")).unwrap(),
        "bypass",
    );
    let template = std::fs::read(support::component("gate-template")).unwrap();
    std::fs::write(dir.join("bypass.wasm"), &bypass).unwrap();
    std::fs::write(dir.join("template.wasm"), &template).unwrap();
    let sha = tama_core::registry::checksum::sha256_hex;
    let hooks = json!([
        {"id": "env-files", "type": "wasm", "component": "template.wasm", "sha256": sha(&template)},
        {"id": "block-git-hook-bypass", "type": "wasm", "component": "bypass.wasm", "sha256": sha(&bypass)},
    ]);
    let path = dir.join("registry.json");
    let registry = json!({"version": 1, "releaseId": "r1", "events": {"pre_tool_use:bash": {"blocking": true, "hooks": hooks}}});
    std::fs::write(&path, registry.to_string()).unwrap();
    assert_eq!(
        run_tama(home, &["registry", "seal", path.to_str().unwrap()], "")
            .status
            .code(),
        Some(0)
    );
    path
}

fn artifacts(home: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(home.join("cache"))
        .map(|entries| {
            entries
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == "cwasm"))
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

/// Asserts the bypass gate refuses the bypass under both `tama hook` and `tama run-hook`.
fn assert_refused(home: &Path, registry: &Path, case: &str) {
    let r = registry.to_str().unwrap();
    let hook = run_tama(
        home,
        &["hook", "--registry", r, "block-git-hook-bypass"],
        &shell_payload(BYPASS),
    );
    assert_eq!(
        hook.status.code(),
        Some(2),
        "{case}: tama hook: {}{}",
        text(&hook.stdout),
        text(&hook.stderr)
    );
    assert!(
        text(&hook.stdout).contains("--no-verify"),
        "{case}: {}",
        text(&hook.stdout)
    );
    let run = run_tama(
        home,
        &["run-hook", "--registry", r, "pre_tool_use", "agent-1"],
        &shell_payload(BYPASS),
    );
    assert_eq!(
        run.status.code(),
        Some(2),
        "{case}: tama run-hook: {}{}",
        text(&run.stdout),
        text(&run.stderr)
    );
    assert!(
        text(&run.stderr).contains("block-git-hook-bypass"),
        "{case}: {}",
        text(&run.stderr)
    );
}

#[test]
fn the_default_registrys_gates_refuse_whatever_the_cache_holds() {
    let home = tempfile::tempdir().unwrap();
    let refused = |case: &str| {
        let out = run_tama(
            home.path(),
            &["hook", "block-git-hook-bypass"],
            &shell_payload(BYPASS),
        );
        assert_eq!(out.status.code(), Some(2), "{case}: {}", text(&out.stdout));
        let out = run_tama(
            home.path(),
            &["run-hook", "pre_tool_use", "agent-1"],
            &shell_payload(BYPASS),
        );
        assert_eq!(out.status.code(), Some(2), "{case}: {}", text(&out.stderr));
    };
    refused("first run");
    // Every artifact in the cache put in another's place, and the template's beside them.
    let cached = artifacts(home.path());
    let original: Vec<Vec<u8>> = cached.iter().map(|p| std::fs::read(p).unwrap()).collect();
    for (i, path) in cached.iter().enumerate() {
        std::fs::write(path, &original[(i + 1) % original.len()]).unwrap();
    }
    let template = std::fs::read(support::component("gate-template")).unwrap();
    std::fs::create_dir_all(home.path().join("cache")).unwrap();
    std::fs::write(home.path().join("cache/planted.cwasm"), template).unwrap();
    refused("artifacts rotated");
}

/// Runs the default registry's shell gates on a bypass (refused) and on
/// ordinary work (passed), with `env` added.
fn default_gates_decide(home: &Path, env: &[(&str, &str)], case: &str) {
    for args in [
        &["hook", "block-git-hook-bypass"][..],
        &["run-hook", "pre_tool_use", "agent-1"][..],
    ] {
        let out = run_tama_with(home, args, &shell_payload(BYPASS), env);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{case}: {args:?}: {}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
    }
    let ordinary = shell_payload("cargo test && git status");
    let out = run_tama_with(
        home,
        &["run-hook", "pre_tool_use", "agent-1"],
        &ordinary,
        env,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{case}: protect-tama and the bypass gate pass ordinary work: {}",
        text(&out.stderr)
    );
}

#[test]
fn built_in_gates_run_from_the_binary_never_from_the_cache_folder() {
    let home = tempfile::tempdir().unwrap();
    // No cache folder can be made: a file stands where its parent would be.
    std::fs::write(home.path().join("blocked"), "").unwrap();
    let unmakeable = home.path().join("blocked/cache");
    default_gates_decide(
        home.path(),
        &[("TAMA_CACHE_DIR", unmakeable.to_str().unwrap())],
        "no cache folder",
    );
    assert!(
        !log(home.path()).contains("cache"),
        "the cache was never asked for: {}",
        log(home.path())
    );
    // Garbage wherever a built-in component's compiled form was cached
    // before `tama` carried it, under either kind of engine.
    let cache = home.path().join("cache");
    std::fs::create_dir_all(&cache).unwrap();
    std::fs::set_permissions(&cache, std::fs::Permissions::from_mode(0o700)).unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let declaration = tama_core::registry::tool_declaration();
    let engines = [
        tama_core::wasm::Host::new(scratch.path().to_path_buf(), &declaration).unwrap(),
        tama_core::wasm::Host::one_event(scratch.path().to_path_buf(), &declaration).unwrap(),
    ];
    let registry = tama_core::registry::Loaded::embedded().unwrap();
    let digests: Vec<String> = registry
        .registry
        .events
        .values()
        .flat_map(|event| &event.hooks)
        .filter_map(|hook| Some(hook.wasm()?.sha256.clone()))
        .chain([declaration.sha256.clone()])
        .collect();
    let planted: Vec<PathBuf> = engines
        .iter()
        .flat_map(|host| {
            digests
                .iter()
                .map(|sha| host.artifact_path(&cache, sha).unwrap())
        })
        .collect();
    for path in &planted {
        std::fs::write(path, b"\x7fELF not code").unwrap();
    }
    default_gates_decide(home.path(), &[], "garbage planted");
    for path in &planted {
        assert_eq!(
            std::fs::read(path).unwrap(),
            b"\x7fELF not code",
            "{} was left alone",
            path.display()
        );
    }
    let log = log(home.path());
    assert!(
        !log.contains("cache") && !log.contains("does not fit"),
        "built-ins came from the binary as built: {log}"
    );
}

#[test]
fn a_built_in_component_named_twice_runs_twice() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("hooks");
    std::fs::create_dir_all(&dir).unwrap();
    let sha = |name: &str| {
        let bytes = std::fs::read(support::component(name)).unwrap();
        std::fs::write(dir.join(format!("{name}.wasm")), &bytes).unwrap();
        tama_core::registry::checksum::sha256_hex(&bytes)
    };
    let (protect, bypass) = (sha("protect-tama"), sha("block-git-hook-bypass"));
    let hooks = json!([
        {"id": "protect-tama", "type": "wasm", "component": "protect-tama.wasm", "sha256": protect},
        {"id": "protect-again", "type": "wasm", "component": "protect-tama.wasm", "sha256": protect},
        {"id": "block-git-hook-bypass", "type": "wasm", "component": "block-git-hook-bypass.wasm", "sha256": bypass},
    ]);
    let path = dir.join("registry.json");
    let registry =
        json!({"version": 1, "events": {"pre_tool_use:bash": {"blocking": true, "hooks": hooks}}});
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
    let args = [
        "run-hook",
        "--registry",
        path.to_str().unwrap(),
        "pre_tool_use",
        "agent-1",
    ];
    let out = run_tama(home.path(), &args, &shell_payload(BYPASS));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let decision: Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    let decided: Vec<(&str, &str)> = decision["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["hookId"].as_str().unwrap(),
                r["decision"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        decided,
        [
            ("protect-tama", "pass"),
            ("protect-again", "pass"),
            ("block-git-hook-bypass", "block")
        ]
    );
}

#[test]
fn a_swapped_artifact_is_recompiled_never_run() {
    let home = tempfile::tempdir().unwrap();
    let registry = registry(home.path());
    assert_refused(home.path(), &registry, "first run");
    let cached = artifacts(home.path());
    assert_eq!(
        cached.len(),
        2,
        "both registry gates are cached: {cached:?}"
    );
    assert_eq!(mode(&home.path().join("cache")), 0o700);
    assert_eq!(mode(&home.path().join(".tama/control.key")), 0o600);
    let original: Vec<Vec<u8>> = cached.iter().map(|p| std::fs::read(p).unwrap()).collect();
    let restore = || {
        for (path, bytes) in cached.iter().zip(&original) {
            std::fs::write(path, bytes).unwrap();
        }
    };
    // The swap of the report: the other gate's artifact in each one's place.
    for (from, to) in [(0, 1), (1, 0)] {
        std::fs::copy(&cached[from], &cached[to]).unwrap();
        assert_refused(
            home.path(),
            &registry,
            &format!("artifact {from} over {to}"),
        );
        restore();
    }
    // Both swapped at once, and every artifact edited: in its code, in its tag.
    std::fs::write(&cached[0], &original[1]).unwrap();
    std::fs::write(&cached[1], &original[0]).unwrap();
    assert_refused(home.path(), &registry, "both swapped");
    for at in [original[0].len() / 2, original[0].len() - 1] {
        for (path, bytes) in cached.iter().zip(&original) {
            let mut edited = bytes.clone();
            let at = at.min(edited.len() - 1);
            edited[at] ^= 0x40;
            std::fs::write(path, edited).unwrap();
        }
        assert_refused(home.path(), &registry, &format!("byte {at} edited"));
    }
    // An artifact tagged under another key (another TAMA_HOME's) is no better.
    let elsewhere = tempfile::tempdir().unwrap();
    let other_registry = registry_in(elsewhere.path(), &registry);
    assert_refused(elsewhere.path(), &other_registry, "the other home's run");
    for (path, other) in cached.iter().zip(artifacts(elsewhere.path()).iter().rev()) {
        std::fs::copy(other, path).unwrap();
    }
    assert_refused(home.path(), &registry, "artifacts of another key");
    assert!(
        log(home.path()).contains("is not the compilation of component"),
        "{}",
        log(home.path())
    );
    // Each refused artifact was compiled again: the cache holds true ones.
    for (path, bytes) in cached.iter().zip(&original) {
        assert_eq!(
            &std::fs::read(path).unwrap(),
            bytes,
            "{} is this key's compilation again",
            path.display()
        );
    }
}

/// The registry at `registry` copied into `home`, components and all.
fn registry_in(home: &Path, registry: &Path) -> PathBuf {
    let dir = home.join("hooks");
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(registry.parent().unwrap()).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
    }
    dir.join("registry.json")
}

#[test]
fn a_cache_folder_open_to_others_is_made_private() {
    let home = tempfile::tempdir().unwrap();
    let registry = registry(home.path());
    let cache = home.path().join("cache");
    std::fs::create_dir_all(&cache).unwrap();
    std::fs::set_permissions(&cache, std::fs::Permissions::from_mode(0o777)).unwrap();
    assert_refused(home.path(), &registry, "open cache");
    assert_eq!(mode(&cache), 0o700);
}

fn bypass_call(session: &str) -> String {
    json!({"session_id": session, "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": BYPASS}}).to_string()
}

fn override_path(home: &Path, agent: &str, session: &str) -> PathBuf {
    home.join(format!(
        ".tama/session-control/{}.override.json",
        control_key(agent, session)
    ))
}

#[test]
fn a_hand_written_override_is_refused_with_its_reason() {
    let home = tempfile::tempdir().unwrap();
    let path = override_path(home.path(), "agent-1", "s1");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    for forged in [
        json!({"globallyDisabled": true}),
        json!({"disabledHookIds": ["block-git-hook-bypass"]}),
    ] {
        std::fs::write(&path, forged.to_string()).unwrap();
        let out = run_tama(
            home.path(),
            &["run-hook", "pre_tool_use", "agent-1"],
            &bypass_call("s1"),
        );
        assert_eq!(
            out.status.code(),
            Some(2),
            "{forged}: {}",
            text(&out.stderr)
        );
        let decision: Value = serde_json::from_str(&text(&out.stdout)).unwrap();
        let reason = decision["reason"].as_str().unwrap();
        assert!(
            reason.contains("--no-verify")
                && reason.contains("override")
                && reason.contains("was refused"),
            "{reason}"
        );
        assert!(
            log(home.path()).contains("session s1: the session's override"),
            "{}",
            log(home.path())
        );
    }
}

#[test]
fn the_operators_override_counts_and_an_edited_or_moved_one_does_not() {
    let home = tempfile::tempdir().unwrap();
    let written = run_operator(
        home.path(),
        &[
            "sessions",
            "override",
            "--agent",
            "agent-1",
            "--session",
            "s1",
            "--disable",
            "block-git-hook-bypass",
        ],
    );
    assert_eq!(
        written.status.code(),
        Some(0),
        "{}{}",
        text(&written.stdout),
        text(&written.stderr)
    );
    assert_eq!(mode(&home.path().join(".tama/control.key")), 0o600);
    let out = run_tama(
        home.path(),
        &["run-hook", "pre_tool_use", "agent-1"],
        &bypass_call("s1"),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "the operator disabled the gate for s1: {}",
        text(&out.stderr)
    );
    // Moved to another session, it does not count there.
    let path = override_path(home.path(), "agent-1", "s1");
    std::fs::copy(&path, override_path(home.path(), "agent-1", "s2")).unwrap();
    let out = run_tama(
        home.path(),
        &["run-hook", "pre_tool_use", "agent-1"],
        &bypass_call("s2"),
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("it was written for agent agent-1 session s1"),
        "{}",
        text(&out.stderr)
    );
    // Edited, it does not count at all.
    let mut record: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    record["disabledHookIds"] = json!([]);
    record["globallyDisabled"] = json!(true);
    std::fs::write(&path, record.to_string()).unwrap();
    let out = run_tama(
        home.path(),
        &["run-hook", "pre_tool_use", "agent-1"],
        &bypass_call("s1"),
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("its tag does not verify"),
        "{}",
        text(&out.stderr)
    );
    // Cleared by the operator, the gate runs again.
    let cleared = run_operator(
        home.path(),
        &[
            "sessions",
            "override",
            "--agent",
            "agent-1",
            "--session",
            "s1",
            "--clear",
        ],
    );
    assert_eq!(cleared.status.code(), Some(0), "{}", text(&cleared.stderr));
    assert!(!path.exists());
}

#[test]
fn operator_commands_refuse_to_run_without_a_terminal() {
    let home = tempfile::tempdir().unwrap();
    for args in [
        &[
            "sessions",
            "override",
            "--agent",
            "agent-1",
            "--session",
            "s1",
            "--disable-all",
        ][..],
        &[
            "sessions",
            "grant",
            "--agent",
            "agent-1",
            "--session",
            "s1",
            "--grant",
            "bash",
        ][..],
    ] {
        let out = run_tama(home.path(), args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr)
                .contains("is the operator's: it runs only with a terminal on stdin and stderr"),
            "{}",
            text(&out.stderr)
        );
    }
    assert!(
        !home.path().join(".tama/session-control").exists(),
        "nothing was written"
    );
}

#[test]
fn the_log_is_private_and_rotated_past_its_bound() {
    let home = tempfile::tempdir().unwrap();
    let tama_home = home.path().join(".tama");
    std::fs::create_dir_all(&tama_home).unwrap();
    let log_path = tama_home.join("tama.log");
    let filler = "x".repeat(tama_core::log::LOG_BOUND as usize);
    std::fs::write(&log_path, &filler).unwrap();
    std::fs::set_permissions(&log_path, std::fs::Permissions::from_mode(0o644)).unwrap();
    // A forged override is logged.
    let path = override_path(home.path(), "agent-1", "s1");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, "{}").unwrap();
    run_tama(
        home.path(),
        &["run-hook", "pre_tool_use", "agent-1"],
        &bypass_call("s1"),
    );
    assert_eq!(
        std::fs::read_to_string(tama_home.join("tama.log.1")).unwrap(),
        filler,
        "the full log was set aside whole"
    );
    assert!(
        log(home.path()).contains("session s1: the session's override"),
        "{}",
        log(home.path())
    );
    assert_eq!(mode(&log_path), 0o600);
    let fresh = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(fresh.path().join(".tama/session-control")).unwrap();
    std::fs::write(override_path(fresh.path(), "agent-1", "s1"), "{}").unwrap();
    run_tama(
        fresh.path(),
        &["run-hook", "pre_tool_use", "agent-1"],
        &bypass_call("s1"),
    );
    assert_eq!(
        mode(&fresh.path().join(".tama/tama.log")),
        0o600,
        "a new log is created private"
    );
}
