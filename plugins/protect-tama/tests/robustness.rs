//! The shell walk never panics: every prefix of every shell command of the
//! case table, and deep nesting, are decided (a panic would trap the gate
//! and refuse every call as Tama's own fault).

use protect_tama::{Cwd, HostPaths, Protected, shell_refusal};

fn protected() -> Protected {
    Protected::new(&HostPaths {
        home: "/home/user".into(),
        tama_home: "/home/user/.tama".into(),
        registry: Some("/home/user/.shared-hooks/registry.json".into()),
        registry_components: Vec::new(),
        cache_dir: "/home/user/.cache/tama".into(),
        tama_binary: "/home/user/.local/bin/tama".into(),
        oko_home: "/home/user/.oko".into(),
    })
}

#[test]
fn every_prefix_of_every_shell_case_is_decided() {
    let cases: serde_json::Value =
        serde_json::from_str(include_str!("cases.json")).expect("the case table");
    let protected = protected();
    for case in cases.as_array().expect("a list") {
        let command = case["command"]
            .as_str()
            .or_else(|| case["input"]["cmd"].as_str())
            .unwrap_or_default();
        // `apply_patch` asks the tool declaration, which only the host has.
        if command.contains("apply_patch") {
            continue;
        }
        for (end, _) in command.char_indices() {
            let _ = shell_refusal(
                &protected,
                &Cwd::known("/home/user/project"),
                &command[..end],
            );
        }
        let _ = shell_refusal(&protected, &Cwd::known(""), command);
    }
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    let protected = protected();
    let deep = format!("{}rm -rf ~/.tama{}", "$(".repeat(400), ")".repeat(400));
    assert!(shell_refusal(&protected, &Cwd::known("/w"), &deep).is_some());
    let evals = format!("{}rm -rf ~/.tama", "eval ".repeat(40));
    assert!(shell_refusal(&protected, &Cwd::known("/w"), &evals).is_some());
}
