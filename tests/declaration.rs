//! Every tool spelling classifies as the tool declaration says, through the
//! built component, not a copy of its list.

use serde_json::json;
use tama_engine::registry::tool_declaration;
use tama_engine::tool::ToolKind;
use tama_engine::wasm::{ClassifyError, Host};

fn host() -> (tempfile::TempDir, Host) {
    let cache = tempfile::tempdir().expect("scratch cache");
    let host = Host::new(cache.path().to_path_buf(), &tool_declaration()).expect("host starts");
    (cache, host)
}

fn kind(host: &Host, name: &str, input: serde_json::Value) -> ToolKind {
    host.classify(name, &input.to_string()).unwrap_or_else(|e| panic!("{name}: {e}")).kind
}

#[test]
fn every_shell_spelling_is_a_shell_with_its_command() {
    let (_cache, host) = host();
    for name in [
        "bash", "Bash", "BASH", "functions.bash", "exec_command", "functions.exec_command", "shell", "exec",
        "run_command", "run_package_script",
    ] {
        let call = host.classify(name, &json!({"command": "git status"}).to_string()).unwrap();
        assert_eq!((call.kind, call.command.as_deref()), (ToolKind::Shell, Some("git status")), "{name}");
        assert_eq!(call.name, name.to_lowercase());
    }
    let codex = host.classify("exec_command", &json!({"cmd": "ls -la"}).to_string()).unwrap();
    assert_eq!(codex.command.as_deref(), Some("ls -la"));
    let argv = host.classify("shell", &json!({"command": ["bash", "-lc", "git commit -m 'a b'"]}).to_string()).unwrap();
    assert_eq!(argv.command.as_deref(), Some("bash -lc 'git commit -m '\\''a b'\\'''"));
}

#[test]
fn a_shell_call_whose_command_and_cmd_disagree_is_refused_naming_both() {
    let (_cache, host) = host();
    let both = json!({"command": "ls", "cmd": "git commit --no-verify"}).to_string();
    match host.classify("exec_command", &both) {
        Err(ClassifyError::Protocol(why)) => assert_eq!(
            why,
            "shell tool `exec_command` holds two commands that disagree: `command` is \"ls\" and `cmd` is \"git commit --no-verify\""
        ),
        other => panic!("{other:?}"),
    }
    let same = host.classify("exec_command", &json!({"command": "ls", "cmd": "ls"}).to_string()).unwrap();
    assert_eq!(same.command.as_deref(), Some("ls"));
    assert!(matches!(host.classify("bash", &json!({"command": "ls", "cmd": 3}).to_string()), Err(ClassifyError::Protocol(_))));
}

#[test]
fn near_misses_are_other() {
    let (_cache, host) = host();
    for name in ["bash_output", "bashful", "read", "functions.read", "mcp__x__y", "Read", "Grep", "shellcheck", "execute"] {
        assert_eq!(kind(&host, name, json!({"command": "git commit --no-verify", "file_path": "/a"})), ToolKind::Other, "{name}");
    }
}

#[test]
fn every_write_spelling_names_its_targets() {
    let (_cache, host) = host();
    let cases = [
        ("Write", json!({"file_path": "/r/a.txt", "content": "*** Add File: not-a-target"}), vec!["/r/a.txt"]),
        ("Edit", json!({"file_path": "/r/b.rs", "old_string": "a", "new_string": "b"}), vec!["/r/b.rs"]),
        ("MultiEdit", json!({"file_path": "/r/c.rs", "edits": []}), vec!["/r/c.rs"]),
        ("NotebookEdit", json!({"notebook_path": "/r/n.ipynb", "new_source": "x"}), vec!["/r/n.ipynb"]),
        ("write", json!({"path": "src/d.ts", "content": "x"}), vec!["src/d.ts"]),
        ("functions.write", json!({"path": "e.md", "content": "x"}), vec!["e.md"]),
        ("edit", json!({"path": "f.py", "old_string": "a", "new_string": "b"}), vec!["f.py"]),
        ("functions.edit", json!({"path": "g.py", "oldText": "a", "newText": "b"}), vec!["g.py"]),
        ("notebook", json!({"action": "edit", "notebook_path": "h.ipynb"}), vec!["h.ipynb"]),
        ("functions.notebook", json!({"action": "insert", "notebook_path": "i.ipynb"}), vec!["i.ipynb"]),
        (
            "apply_patch",
            json!({"command": "*** Begin Patch\n*** Update File: a.py\n*** Move to: b.py\n@@\n-x\n+y\n*** Add File: /r/c.py\n+z\n*** Delete File: old.py\n*** End Patch"}),
            vec!["a.py", "b.py", "/r/c.py", "old.py"],
        ),
        ("functions.apply_patch", json!({"patch": "*** Begin Patch\n  *** Add File: p.txt  \n+1\n*** End Patch"}), vec!["p.txt"]),
        ("edit", json!({"input": "*** Begin Patch\n*** Update File: x.rs\n*** End Patch"}), vec!["x.rs"]),
        ("edit", json!({"raw_input": "[src/a.rs#1f2e]\nSWAP 3.=4:\n+x\n[src/b.rs#00ab]\nREM\n"}), vec!["src/a.rs", "src/b.rs"]),
        ("edit", json!({"content": "*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch"}), vec!["gone.txt"]),
        ("edit", json!({"path": "m.rs", "edits": [{"op": "update", "rename": "n.rs", "diff": "-a\n+b"}]}), vec!["m.rs", "n.rs"]),
    ];
    for (name, input, expected) in cases {
        let call = host.classify(name, &input.to_string()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(call.kind, ToolKind::Write, "{name}");
        let targets: Vec<&str> = call.targets.iter().map(|t| t.path.as_str()).collect();
        assert_eq!(targets, expected, "{name} {input}");
    }
}

#[test]
fn a_write_without_a_target_is_an_error_not_the_working_directory() {
    let (_cache, host) = host();
    for (name, input) in [
        ("apply_patch", json!({"command": "*** Begin Patch\n*** End Patch"})),
        ("Write", json!({"content": "x"})),
        ("edit", json!({"input": "no headers here"})),
    ] {
        match host.classify(name, &input.to_string()) {
            Err(ClassifyError::Protocol(why)) => assert!(why.contains("names no file"), "{name}: {why}"),
            other => panic!("{name}: {other:?}"),
        }
    }
}

#[test]
fn lsp_device_requests_read_only_actions_are_lookups() {
    let (_cache, host) = host();
    let device = |content: serde_json::Value| json!({"path": "xd://lsp", "content": content.to_string()});
    for action in ["status", "capabilities", "diagnostics", "definition", "references", "hover", "symbols", "type_definition", "implementation"] {
        let call = host.classify("write", &device(json!({"action": action, "file": "a.rs"})).to_string()).unwrap();
        assert_eq!(call.kind, ToolKind::Lookup, "{action}");
        assert_eq!(call.targets[0].path, "xd://lsp");
        assert_eq!(call.targets[0].device_action.as_deref(), Some(action));
    }
    for action in ["rename", "rename_file", "code_actions", "request", "reload", "format_everything"] {
        let call = host.classify("write", &device(json!({"action": action})).to_string()).unwrap();
        assert_eq!(call.kind, ToolKind::Write, "{action} is not read-only");
    }
}

#[test]
fn malformed_device_requests_are_protocol_errors() {
    let (_cache, host) = host();
    for (content, expected) in [
        (json!("{not json"), "content is not JSON"),
        (json!(json!({"file": "a.rs"}).to_string()), "no string action"),
        (json!(json!({"action": 3}).to_string()), "no string action"),
    ] {
        let input = json!({"path": "xd://lsp", "content": content});
        match host.classify("write", &input.to_string()) {
            Err(ClassifyError::Protocol(why)) => assert!(why.contains(expected), "{why}"),
            other => panic!("{input}: {other:?}"),
        }
    }
}

#[test]
fn input_that_is_not_json_is_named() {
    let (_cache, host) = host();
    match host.classify("bash", "{") {
        Err(ClassifyError::Protocol(why)) => assert!(why.contains("not JSON"), "{why}"),
        other => panic!("{other:?}"),
    }
}
