//! Every tool spelling classifies as the tool declaration says, through the
//! built component, not a copy of its list: by the host directly, and through
//! `tama hook --plugin` of a probe gate that refuses with what it was told.

use crate::support;

use serde_json::{Value, json};
use tama_core::registry::tool_declaration;
use tama_core::tool::ToolKind;
use tama_core::wasm::{ClassifyError, Host};

fn host() -> (tempfile::TempDir, Host) {
    let cache = tempfile::tempdir().expect("scratch cache");
    let host = Host::new(cache.path().to_path_buf(), &tool_declaration()).expect("host starts");
    (cache, host)
}

fn kind(host: &Host, name: &str, input: serde_json::Value) -> ToolKind {
    host.classify(name, &input.to_string())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .kind
}

#[test]
fn every_shell_spelling_is_a_shell_with_its_command() {
    let (_cache, host) = host();
    for name in [
        "bash",
        "Bash",
        "BASH",
        "functions.bash",
        "exec_command",
        "functions.exec_command",
        "shell",
        "exec",
        "run_command",
        "run_package_script",
    ] {
        let call = host
            .classify(name, &json!({"command": "git status"}).to_string())
            .unwrap();
        assert_eq!(
            (call.kind, call.command.as_deref()),
            (ToolKind::Shell, Some("git status")),
            "{name}"
        );
        assert_eq!(call.name, name.to_lowercase());
    }
    let codex = host
        .classify("exec_command", &json!({"cmd": "ls -la"}).to_string())
        .unwrap();
    assert_eq!(codex.command.as_deref(), Some("ls -la"));
    let argv = host
        .classify(
            "shell",
            &json!({"command": ["bash", "-lc", "git commit -m 'a b'"]}).to_string(),
        )
        .unwrap();
    assert_eq!(
        argv.command.as_deref(),
        Some("bash -lc 'git commit -m '\\''a b'\\'''")
    );
}

#[test]
fn a_shell_call_whose_command_and_cmd_disagree_is_refused_naming_both() {
    let (_cache, host) = host();
    let both = json!({"command": "ls", "cmd": "git commit --no-verify"}).to_string();
    match host.classify("exec_command", &both) {
        Err(ClassifyError::Protocol(why)) => assert_eq!(
            why,
            "shell tool `exec_command` holds two commands that disagree: `cmd` is \"git commit --no-verify\" and `command` is \"ls\""
        ),
        other => panic!("{other:?}"),
    }
    let same = host
        .classify(
            "exec_command",
            &json!({"command": "ls", "cmd": "ls"}).to_string(),
        )
        .unwrap();
    assert_eq!(same.command.as_deref(), Some("ls"));
    let bash = json!({"command": "ls", "cmd": "git commit --no-verify"}).to_string();
    assert!(
        matches!(host.classify("Bash", &bash), Err(ClassifyError::Protocol(why)) if why.contains("`command` is \"ls\" and `cmd` is"))
    );
}

/// Claude Code and Codex name an MCP server's tool `mcp__<server>__<tool>`;
/// a `<tool>` spelled as a harness tool and given its input is read as one.
#[test]
fn an_mcp_servers_shell_or_write_tool_is_read_as_one() {
    let (_cache, host) = host();
    let shell = host
        .classify(
            "mcp__desktop-commander__execute_command",
            &json!({"command": "git commit -n -m x"}).to_string(),
        )
        .expect("a shell");
    assert_eq!(shell.kind, ToolKind::Shell);
    assert_eq!(shell.command.as_deref(), Some("git commit -n -m x"));
    assert_eq!(
        kind(
            &host,
            "mcp__filesystem__write_file",
            json!({"path": ".git/hooks/pre-commit", "content": "exit 0"})
        ),
        ToolKind::Write
    );
    assert_eq!(
        kind(&host, "mcp__runner__shell", json!({"script": "ls"})),
        ToolKind::Other,
        "the same name with another input is another tool"
    );
}

#[test]
fn near_misses_are_other() {
    let (_cache, host) = host();
    for name in [
        "bash_output",
        "bashful",
        "read",
        "functions.read",
        "mcp__x__y",
        "Read",
        "Grep",
        "shellcheck",
        "execute",
    ] {
        assert_eq!(
            kind(
                &host,
                name,
                json!({"command": "git commit --no-verify", "file_path": "/a"})
            ),
            ToolKind::Other,
            "{name}"
        );
    }
}

#[test]
fn every_write_spelling_names_its_targets() {
    let (_cache, host) = host();
    let cases = [
        (
            "Write",
            json!({"file_path": "/r/a.txt", "content": "*** Add File: not-a-target"}),
            vec!["/r/a.txt"],
        ),
        (
            "Edit",
            json!({"file_path": "/r/b.rs", "old_string": "a", "new_string": "b"}),
            vec!["/r/b.rs"],
        ),
        (
            "MultiEdit",
            json!({"file_path": "/r/c.rs", "edits": []}),
            vec!["/r/c.rs"],
        ),
        (
            "NotebookEdit",
            json!({"notebook_path": "/r/n.ipynb", "new_source": "x"}),
            vec!["/r/n.ipynb"],
        ),
        (
            "write",
            json!({"path": "src/d.ts", "content": "x"}),
            vec!["src/d.ts"],
        ),
        (
            "functions.write",
            json!({"path": "e.md", "content": "x"}),
            vec!["e.md"],
        ),
        (
            "edit",
            json!({"path": "f.py", "old_string": "a", "new_string": "b"}),
            vec!["f.py"],
        ),
        (
            "functions.edit",
            json!({"path": "g.py", "oldText": "a", "newText": "b"}),
            vec!["g.py"],
        ),
        (
            "notebook",
            json!({"action": "edit", "notebook_path": "h.ipynb"}),
            vec!["h.ipynb"],
        ),
        (
            "functions.notebook",
            json!({"action": "insert", "notebook_path": "i.ipynb"}),
            vec!["i.ipynb"],
        ),
        (
            "apply_patch",
            json!({"command": "*** Begin Patch\n*** Update File: a.py\n*** Move to: b.py\n@@\n-x\n+y\n*** Add File: /r/c.py\n+z\n*** Delete File: old.py\n*** End Patch"}),
            vec!["a.py", "b.py", "/r/c.py", "old.py"],
        ),
        (
            "functions.apply_patch",
            json!({"patch": "*** Begin Patch\n  *** Add File: p.txt  \n+1\n*** End Patch"}),
            vec!["p.txt"],
        ),
        (
            "edit",
            json!({"input": "*** Begin Patch\n*** Update File: x.rs\n*** End Patch"}),
            vec!["x.rs"],
        ),
        (
            "edit",
            json!({"raw_input": "[src/a.rs#1f2e]\nSWAP 3.=4:\n+x\n[src/b.rs#00ab]\nREM\n"}),
            vec!["src/a.rs", "src/b.rs"],
        ),
        (
            "edit",
            json!({"content": "*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch"}),
            vec!["gone.txt"],
        ),
        (
            "edit",
            json!({"path": "m.rs", "edits": [{"op": "update", "rename": "n.rs", "diff": "-a\n+b"}]}),
            vec!["m.rs", "n.rs"],
        ),
    ];
    for (name, input, expected) in cases {
        let call = host
            .classify(name, &input.to_string())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(call.kind, ToolKind::Write, "{name}");
        let targets: Vec<&str> = call.targets.iter().map(|t| t.path.as_str()).collect();
        assert_eq!(targets, expected, "{name} {input}");
    }
}

#[test]
fn a_write_without_a_target_is_an_error_not_the_working_directory() {
    let (_cache, host) = host();
    for (name, input) in [
        (
            "apply_patch",
            json!({"command": "*** Begin Patch\n*** End Patch"}),
        ),
        ("Write", json!({"content": "x"})),
        ("edit", json!({"input": "no headers here"})),
    ] {
        match host.classify(name, &input.to_string()) {
            Err(ClassifyError::Protocol(why)) => {
                assert!(why.contains("names no file"), "{name}: {why}")
            }
            other => panic!("{name}: {other:?}"),
        }
    }
}

#[test]
fn lsp_device_requests_read_only_actions_are_lookups() {
    let (_cache, host) = host();
    let device =
        |content: serde_json::Value| json!({"path": "xd://lsp", "content": content.to_string()});
    for action in [
        "status",
        "capabilities",
        "diagnostics",
        "definition",
        "references",
        "hover",
        "symbols",
        "type_definition",
        "implementation",
    ] {
        let call = host
            .classify(
                "write",
                &device(json!({"action": action, "file": "a.rs"})).to_string(),
            )
            .unwrap();
        assert_eq!(call.kind, ToolKind::Lookup, "{action}");
        assert_eq!(call.targets[0].path, "xd://lsp");
        assert_eq!(call.targets[0].device_action.as_deref(), Some(action));
    }
    for action in [
        "rename",
        "rename_file",
        "code_actions",
        "request",
        "reload",
        "format_everything",
    ] {
        let call = host
            .classify("write", &device(json!({"action": action})).to_string())
            .unwrap();
        assert_eq!(call.kind, ToolKind::Write, "{action} is not read-only");
    }
}

#[test]
fn malformed_device_requests_are_protocol_errors() {
    let (_cache, host) = host();
    for (content, expected) in [
        (json!("{not json"), "content is not JSON"),
        (
            json!(json!({"file": "a.rs"}).to_string()),
            "no string action",
        ),
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

/// What the declaration read from one call, as the probe gate refused with it.
fn probe(home: &std::path::Path, name: &str, input: Value) -> Value {
    let gate = support::component("hostile-declaration-probe");
    let payload = json!({"hook_event_name": "PreToolUse", "tool_name": name, "tool_input": input})
        .to_string();
    let out = support::run_tama(
        home,
        &["hook", "--plugin", gate.to_str().unwrap()],
        &payload,
    );
    let stdout = support::text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{name}: {stdout}{}",
        support::text(&out.stderr)
    );
    let reading = stdout
        .trim_end()
        .strip_prefix("hostile_declaration_probe: ")
        .unwrap_or_else(|| panic!("{stdout}"));
    serde_json::from_str(reading).unwrap_or_else(|e| panic!("{reading}: {e}"))
}

fn targets(reading: &Value) -> Vec<&str> {
    reading["targets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["path"].as_str().unwrap())
        .collect()
}

#[test]
fn a_gate_reads_every_harness_shell_through_tama_hook() {
    let home = tempfile::tempdir().unwrap();
    for (name, input, command) in [
        (
            "bash",
            json!({"command": "git commit --no-verify -m x"}),
            "git commit --no-verify -m x",
        ),
        (
            "functions.shell_command",
            json!({"command": "cargo test", "login": true}),
            "cargo test",
        ),
        (
            "local_shell",
            json!({"action": {"type": "exec", "command": ["git", "push", "-f"]}}),
            "git push -f",
        ),
        (
            "functions.local_shell",
            json!({"command": ["bash", "-lc", "ls"]}),
            "bash -lc ls",
        ),
        (
            "run_shell_command",
            json!({"command": "ls -la", "dir_path": "src"}),
            "ls -la",
        ),
        (
            "run_terminal_cmd",
            json!({"command": "make", "is_background": false}),
            "make",
        ),
        (
            "execute_command",
            json!({"command": "npm i", "requires_approval": false}),
            "npm i",
        ),
        (
            "execute_bash",
            json!({"command": "pwd", "is_input": "false"}),
            "pwd",
        ),
        (
            "PowerShell",
            json!({"command": "Get-ChildItem"}),
            "Get-ChildItem",
        ),
        (
            "functions.run_in_terminal",
            json!({"command": "dotnet build"}),
            "dotnet build",
        ),
    ] {
        let reading = probe(home.path(), name, input);
        assert_eq!(
            (reading["kind"].as_str(), reading["command"].as_str()),
            (Some("shell"), Some(command)),
            "{name}"
        );
    }
}

#[test]
fn a_gate_reads_every_write_and_edit_format_through_tama_hook() {
    let home = tempfile::tempdir().unwrap();
    let envelope = "*** Begin Patch\n*** Add File: hello.txt\n+Hello world\n*** Update File: src/app.py\n*** Move to: src/main.py\n@@ def greet():\n-print(\"Hi\")\n+print(\"Hello, world!\")\n*** Delete File: obsolete.txt\n*** End Patch\n";
    for (name, input, expected) in [
        (
            "write_file",
            json!({"file_path": "/r/a.md", "content": "x"}),
            vec!["/r/a.md"],
        ),
        (
            "functions.write_to_file",
            json!({"path": "src/a.ts", "content": "x"}),
            vec!["src/a.ts"],
        ),
        (
            "ast_edit",
            json!({"ops": [{"pat": "a", "out": "b"}], "paths": ["src/a.ts", "lib/"]}),
            vec!["src/a.ts", "lib/"],
        ),
        (
            "edit",
            json!({"input": "[src/new.ts]\nPUT >$:\n+export const x = 1;\n"}),
            vec!["src/new.ts"],
        ),
        (
            "edit",
            json!({"input": "[\"src/a b.ts\"#1F2E]\nMV \"dest dir/b.ts\"\n"}),
            vec!["src/a b.ts", "dest dir/b.ts"],
        ),
        (
            "edit",
            json!({"input": "<SM:EDIT path=\"src/config.ts\">\n<SM:FIND>\nconst t = 1;\n</SM:FIND>\n<SM:PUT>\nconst t = 5;\n</SM:PUT>\n</SM:EDIT>\n"}),
            vec!["src/config.ts"],
        ),
        (
            "edit",
            json!({"input": "§src/config.ts\nconst timeout = ⟪1000│5000⟫;\n"}),
            vec!["src/config.ts"],
        ),
        (
            "edit",
            json!({"input": envelope}),
            vec!["hello.txt", "src/app.py", "src/main.py", "obsolete.txt"],
        ),
        (
            "apply_patch",
            json!({"command": ["apply_patch", envelope]}),
            vec!["hello.txt", "src/app.py", "src/main.py", "obsolete.txt"],
        ),
        (
            "local_shell",
            json!({"command": ["apply_patch", envelope]}),
            vec!["hello.txt", "src/app.py", "src/main.py", "obsolete.txt"],
        ),
        (
            "str_replace_editor",
            json!({"command": "create", "path": "/w/a.py", "file_text": "x"}),
            vec!["/w/a.py"],
        ),
        (
            "write",
            json!({"path": "xd://mcp__github__search", "content": {"query": "x"}}),
            vec!["xd://mcp__github__search"],
        ),
        (
            "write",
            json!({"path": "xd://lsp/", "content": "{\"action\":\"hover\"}"}),
            vec!["xd://lsp/"],
        ),
        (
            "write",
            json!({"path": "xd://lsp", "content": "{\"action\":\"HOVER\"}"}),
            vec!["xd://lsp"],
        ),
    ] {
        let reading = probe(home.path(), name, input.clone());
        assert_eq!(reading["kind"], "write", "{name} {input}: {reading}");
        assert_eq!(targets(&reading), expected, "{name} {input}");
    }
}

#[test]
fn a_gate_sees_lookups_and_the_causes_of_unreadable_calls_through_tama_hook() {
    let home = tempfile::tempdir().unwrap();
    let lookup = probe(
        home.path(),
        "write",
        json!({"path": "xd://lsp", "content": "{\"action\":\"hover\",\"file\":\"a.rs\"}"}),
    );
    assert_eq!(
        (
            lookup["kind"].as_str(),
            lookup["targets"][0]["action"].as_str()
        ),
        (Some("lookup"), Some("hover"))
    );
    assert_eq!(
        probe(
            home.path(),
            "str_replace_editor",
            json!({"command": "view", "path": "/w/a.py"})
        )["kind"],
        "other"
    );
    for (name, input, cause) in [
        (
            "apply_patch",
            json!({"command": "*** Begin Patch\n*** Add File: ok.txt\n+1\n*** Add File: \n+2\n*** End Patch"}),
            "names no file",
        ),
        (
            "edit",
            json!({"input": "[src/a.ts#1F2E]\nREM\n[]\nREM\n"}),
            "names no file",
        ),
        (
            "edit",
            json!({"input": "<SM:EDIT>\n<SM:FIND>\na\n</SM:FIND>\n<SM:PUT>\nb\n</SM:PUT>\n"}),
            "names no file",
        ),
        (
            "write",
            json!({"path": "xd://lsp", "content": {"action": "hover"}}),
            "content must be a JSON string, got an object",
        ),
    ] {
        let reading = probe(home.path(), name, input);
        let error = reading["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{name}: {reading}"));
        assert!(error.contains(cause), "{name}: {error}");
    }
}
