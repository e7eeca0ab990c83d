//! Every tool spelling Tama reads, as data: one row a name. A harness's new
//! spelling is one more row; its `example` is the test beside it (see the
//! tests at the end, which read every row's example through `classify`).
//!
//! Names are lower-case: the declaration lower-cases the payload's name and
//! reads it with or without the function bridge's `functions.` prefix. An
//! MCP server's tool (`mcp__<server>__<tool>`) is read by its own `<tool>`
//! when its input fits that row.

use crate::prelude::*;
/// How the declaration reads one spelling's input.
#[derive(Debug, Clone, Copy)]
pub enum Reads {
    /// A shell: the command is the first of these fields that holds a string
    /// or an argument vector (`a.b` names field `b` inside object `a`).
    Command(&'static [&'static str]),
    /// A write: every path in these fields (a string or a list of strings).
    Paths(&'static [&'static str]),
    /// An edit: the paths in `paths`, every file header of the patch text in
    /// `patches` (Codex envelopes, oh-my-pi hashline and sloppy sections), and
    /// oh-my-pi's patch-mode `edits[].rename`.
    Edit {
        paths: &'static [&'static str],
        patches: &'static [&'static str],
    },
    /// oh-my-pi's `write`: like `Paths`, except that `xd://lsp` is a device
    /// request whose `content` holds the device's JSON arguments.
    Device(&'static [&'static str]),
    /// A cell of code a kernel runs: read as the shell command that runs the
    /// same code (`code_cell.rs`), in the language `language` names.
    Code {
        language: &'static str,
        code: &'static str,
    },
    /// oh-my-pi's `hub` and `debug`: `start` and `launch` run a program and
    /// `hub`'s `send` types into one, each read as the shell command that
    /// does the same (`launch.rs`).
    Launch,
    /// An editor with sub-commands: a write to `paths` when `field` holds one
    /// of `writes`, anything else (such as `view`) is not a write.
    Editor {
        field: &'static str,
        writes: &'static [&'static str],
        paths: &'static [&'static str],
    },
}

/// One spelling: the name, how its input is read, where it was read from,
/// and an input that harness sends with what the declaration reads from it
/// (the command, or every target in order).
#[derive(Debug, Clone, Copy)]
pub struct Spelling {
    pub name: &'static str,
    pub reads: Reads,
    pub source: &'static str,
    pub example: &'static str,
    pub expect: &'static [&'static str],
}

use Reads::*;

const fn row(
    name: &'static str,
    reads: Reads,
    source: &'static str,
    example: &'static str,
    expect: &'static [&'static str],
) -> Spelling {
    Spelling {
        name,
        reads,
        source,
        example,
        expect,
    }
}

/// Fields that name the file of a whole-file write or a single-file edit,
/// across harnesses.
const FILE: &[&str] = &[
    "file_path",
    "path",
    "filePath",
    "target_file",
    "absolute_path",
];

pub const SPELLINGS: &[Spelling] = &[
    // Shells.
    row(
        "bash",
        Command(&["command"]),
        "Claude Code 2.1.240 `Bash` (tools-reference); oh-my-pi 18.2.3 `bash` (src/tools/bash.ts)",
        r#"{"command":"git status","timeout":120000}"#,
        &["git status"],
    ),
    row(
        "eval",
        Code {
            language: "language",
            code: "code",
        },
        "oh-my-pi 18.2.3 `eval`, a Python or JavaScript cell its kernel runs (src/tools/eval.ts, src/eval/py/runner.py)",
        r#"{"language":"py","code":"import os\n!git status"}"#,
        &["python3 -c 'import os\n'\ngit status"],
    ),
    row(
        "debug",
        Launch,
        "oh-my-pi 18.2.3 `debug`, whose `launch` runs a program under a debugger (src/tools/debug.ts)",
        r#"{"action":"launch","program":"target/debug/app","args":["--port","8080"]}"#,
        &["'target/debug/app' '--port' '8080'"],
    ),
    row(
        "hub",
        Launch,
        "oh-my-pi 18.2.3 `hub`, whose `start` runs a program and `send` types into it (src/tools/hub/index.ts)",
        r#"{"op":"start","name":"web","application":"npm","args":["run","dev"]}"#,
        &["'npm' 'run' 'dev'"],
    ),
    row(
        "powershell",
        Command(&["command"]),
        "Claude Code 2.1.240 `PowerShell`, the Windows shell (tools-reference)",
        r#"{"command":"Remove-Item -Recurse build"}"#,
        &["Remove-Item -Recurse build"],
    ),
    row(
        "exec_command",
        Command(&["cmd", "command"]),
        "Codex CLI unified exec `exec_command` (codex-rs/core/src/tools/handlers)",
        r#"{"cmd":"ls -la","yield_time_ms":1000}"#,
        &["ls -la"],
    ),
    row(
        "write_stdin",
        Command(&["chars"]),
        "Codex CLI unified exec `write_stdin`: keystrokes typed into a shell `exec_command` left running (codex-rs/core/src/tools/handlers/unified_exec.rs); an empty poll reads as an empty command",
        r#"{"session_id":3,"chars":"git status\n","yield_time_ms":250}"#,
        &["git status\n"],
    ),
    row(
        "shell",
        Command(&["command"]),
        "Codex CLI `shell`, an argument vector (codex-rs/core/src/tools/handlers/shell.rs); Cursor hooks `Shell`",
        r#"{"command":["bash","-lc","git status"],"workdir":"/r"}"#,
        &["cd /r && bash -lc 'git status'"],
    ),
    row(
        "shell_command",
        Command(&["command"]),
        "Codex CLI `shell_command`, a string run by the user's shell (codex-rs/core/src/tools/handlers/shell.rs)",
        r#"{"command":"cargo test","workdir":"/r","login":true}"#,
        &["cd /r && cargo test"],
    ),
    row(
        "local_shell",
        Command(&["action.command", "command"]),
        "Codex CLI `local_shell`, the Responses API `local_shell_call` exec action (argv)",
        r#"{"action":{"type":"exec","command":["git","push","-f"],"working_directory":"/r"}}"#,
        &["cd /r && git push -f"],
    ),
    row(
        "container.exec",
        Command(&["command"]),
        "Codex CLI `container.exec`, an alias of `shell` kept for older prompts (codex-rs/core/src/tools/spec.rs)",
        r#"{"command":["rm","-rf","dist"]}"#,
        &["rm -rf dist"],
    ),
    row(
        "exec",
        Command(&["command", "cmd"]),
        "Tama's seed list of shell spellings",
        r#"{"command":"make"}"#,
        &["make"],
    ),
    row(
        "run_command",
        Command(&["command", "CommandLine"]),
        "Tama's seed list of shell spellings",
        r#"{"command":"npm test"}"#,
        &["npm test"],
    ),
    row(
        "run_package_script",
        Command(&["command", "script"]),
        "Tama's seed list of shell spellings",
        r#"{"command":"npm run build"}"#,
        &["npm run build"],
    ),
    row(
        "run_shell_command",
        Command(&["command"]),
        "Gemini CLI `run_shell_command` (packages/core/src/tools/definitions/base-declarations.ts @ 00068e9)",
        r#"{"command":"ls -la","description":"list","dir_path":"src"}"#,
        &["ls -la"],
    ),
    row(
        "run_terminal_cmd",
        Command(&["command"]),
        "Cursor agent `run_terminal_cmd`",
        r#"{"command":"git commit -m x","is_background":false}"#,
        &["git commit -m x"],
    ),
    row(
        "execute_command",
        Command(&["command"]),
        "Cline `execute_command` (src/shared/tools.ts)",
        r#"{"command":"npm install","requires_approval":false}"#,
        &["npm install"],
    ),
    row(
        "execute_bash",
        Command(&["command"]),
        "OpenHands CodeAct `execute_bash`, PowerShell on Windows (openhands/agenthub/codeact_agent/tools/bash.py)",
        r#"{"command":"git status","is_input":"false"}"#,
        &["git status"],
    ),
    row(
        "terminal",
        Command(&["command"]),
        "OpenHands agent SDK `terminal` (openhands-tools/openhands/tools/terminal/definition.py)",
        r#"{"command":"git status","is_input":false,"timeout":30}"#,
        &["git status"],
    ),
    row(
        "run_in_terminal",
        Command(&["command"]),
        "GitHub Copilot agent `run_in_terminal`",
        r#"{"command":"dotnet build","isBackground":false}"#,
        &["dotnet build"],
    ),
    row(
        "start_process",
        Command(&["command"]),
        "Desktop Commander MCP server `start_process` (wonderwhy-er/DesktopCommanderMCP src/tools/schemas.ts)",
        r#"{"command":"npm run dev","timeout_ms":5000}"#,
        &["npm run dev"],
    ),
    row(
        "execute_shell_command",
        Command(&["command"]),
        "Serena MCP server `execute_shell_command` (oraios/serena src/serena/tools/cmd_tools.py)",
        r#"{"command":"pytest -q","cwd":"/r"}"#,
        &["cd /r && pytest -q"],
    ),
    row(
        "shell_execute",
        Command(&["command"]),
        "mcp-shell-server `shell_execute`, an argument vector (tumf/mcp-shell-server)",
        r#"{"command":["git","status"],"directory":"/r"}"#,
        &["git status"],
    ),
    // Whole-file writes.
    row(
        "write",
        Device(&["file_path", "path"]),
        "Claude Code 2.1.240 `Write`; oh-my-pi 18.2.3 `write` with `xd://` devices (src/tools/write.ts); Cursor hooks `Write`",
        r#"{"path":"src/a.ts","content":"x"}"#,
        &["src/a.ts"],
    ),
    row(
        "write_file",
        Paths(FILE),
        "Gemini CLI `write_file` (packages/core/src/tools/definitions/base-declarations.ts @ 00068e9)",
        r#"{"file_path":"/r/a.md","content":"x"}"#,
        &["/r/a.md"],
    ),
    row(
        "write_to_file",
        Paths(FILE),
        "Cline `write_to_file` (src/shared/tools.ts)",
        r#"{"path":"src/a.ts","content":"x"}"#,
        &["src/a.ts"],
    ),
    row(
        "create_file",
        Paths(FILE),
        "GitHub Copilot agent `create_file`",
        r#"{"filePath":"/r/new.ts","content":"x"}"#,
        &["/r/new.ts"],
    ),
    row(
        "new_rule",
        Paths(FILE),
        "Cline `new_rule`, a rule file (src/shared/tools.ts)",
        r#"{"path":".clinerules/style.md","content":"x"}"#,
        &[".clinerules/style.md"],
    ),
    row(
        "delete_file",
        Paths(FILE),
        "Cursor agent `delete_file`",
        r#"{"target_file":"src/old.ts"}"#,
        &["src/old.ts"],
    ),
    row(
        "delete",
        Paths(FILE),
        "Cursor hooks `Delete`",
        r#"{"path":"src/old.ts"}"#,
        &["src/old.ts"],
    ),
    row(
        "move_file",
        Paths(&["source", "destination"]),
        "the MCP filesystem server's `move_file` (modelcontextprotocol/servers src/filesystem), as `mcp__<server>__move_file`",
        r#"{"source":"a.txt","destination":"b/a.txt"}"#,
        &["a.txt", "b/a.txt"],
    ),
    // Edits of one file, and anchored edits.
    row(
        "edit",
        Edit {
            paths: FILE,
            patches: &["input", "_input", "patch", "raw_input", "content"],
        },
        "Claude Code 2.1.240 `Edit`; oh-my-pi 18.2.3 `edit` in every mode (src/edit/schemas.ts: replace, patch, apply_patch, hashline, sloppy); Cursor hooks `Edit`",
        r#"{"input":"[src/a.ts#1F2E]\nPUT 3.=3:\n+x\n[src/b.ts#0A0B]\nMV src/c.ts\n"}"#,
        &["src/a.ts", "src/b.ts", "src/c.ts"],
    ),
    row(
        "multiedit",
        Edit {
            paths: FILE,
            patches: &[],
        },
        "Claude Code `MultiEdit` (hooks reference, 2025)",
        r#"{"file_path":"/r/c.rs","edits":[{"old_string":"a","new_string":"b"}]}"#,
        &["/r/c.rs"],
    ),
    row(
        "replace",
        Paths(FILE),
        "Gemini CLI `replace`, its edit tool (packages/core/src/tools/definitions/base-declarations.ts @ 00068e9)",
        r#"{"file_path":"/r/a.py","old_string":"a","new_string":"b"}"#,
        &["/r/a.py"],
    ),
    row(
        "replace_in_file",
        Paths(FILE),
        "Cline `replace_in_file` (src/shared/tools.ts)",
        r#"{"path":"src/a.ts","diff":"------- SEARCH\na\n=======\nb\n+++++++ REPLACE"}"#,
        &["src/a.ts"],
    ),
    row(
        "edit_file",
        Paths(FILE),
        "Cursor agent `edit_file`; OpenHands CodeAct `edit_file`",
        r#"{"target_file":"src/a.ts","instructions":"x","code_edit":"y"}"#,
        &["src/a.ts"],
    ),
    row(
        "edit_block",
        Paths(FILE),
        "Desktop Commander MCP server `edit_block` (wonderwhy-er/DesktopCommanderMCP src/tools/schemas.ts)",
        r#"{"file_path":"src/a.ts","old_string":"a","new_string":"b"}"#,
        &["src/a.ts"],
    ),
    row(
        "search_replace",
        Paths(FILE),
        "Cursor agent `search_replace` (also oh-my-pi 18.2.3 src/cursor-bridge-tools.ts)",
        r#"{"file_path":"src/a.ts","old_string":"a","new_string":"b"}"#,
        &["src/a.ts"],
    ),
    row(
        "strreplace",
        Paths(FILE),
        "Cursor CLI `StrReplace` (oh-my-pi 18.2.3 src/cursor-bridge-tools.ts; Cursor hooks matchers)",
        r#"{"path":"src/a.ts","old_string":"a","new_string":"b"}"#,
        &["src/a.ts"],
    ),
    row(
        "str_replace",
        Paths(FILE),
        "Cursor CLI `str_replace` (oh-my-pi 18.2.3 src/cursor-bridge-tools.ts)",
        r#"{"path":"src/a.ts","old_str":"a","new_str":"b"}"#,
        &["src/a.ts"],
    ),
    row(
        "searchreplace",
        Paths(FILE),
        "Cursor CLI `SearchReplace` (oh-my-pi 18.2.3 src/cursor-bridge-tools.ts)",
        r#"{"path":"src/a.ts","oldText":"a","newText":"b"}"#,
        &["src/a.ts"],
    ),
    row(
        "replace_string_in_file",
        Paths(FILE),
        "GitHub Copilot agent `replace_string_in_file`",
        r#"{"filePath":"/r/a.ts","oldString":"a","newString":"b"}"#,
        &["/r/a.ts"],
    ),
    row(
        "insert_edit_into_file",
        Paths(FILE),
        "GitHub Copilot agent `insert_edit_into_file`",
        r#"{"filePath":"/r/a.ts","code":"x","explanation":"y"}"#,
        &["/r/a.ts"],
    ),
    row(
        "str_replace_editor",
        Editor {
            field: "command",
            writes: &["create", "str_replace", "insert", "undo_edit"],
            paths: &["path"],
        },
        "OpenHands CodeAct `str_replace_editor` (view is a read)",
        r#"{"command":"create","path":"/w/a.py","file_text":"x"}"#,
        &["/w/a.py"],
    ),
    row(
        "file_editor",
        Editor {
            field: "command",
            writes: &["create", "str_replace", "insert", "undo_edit"],
            paths: &["path"],
        },
        "OpenHands agent SDK `file_editor` (view is a read)",
        r#"{"command":"str_replace","path":"/w/a.py","old_str":"a","new_str":"b"}"#,
        &["/w/a.py"],
    ),
    row(
        "hashline_edit",
        Edit {
            paths: &["path", "filePath", "file_path", "rename"],
            patches: &["input"],
        },
        "pi extensions that register a hashline edit tool (e.g. @yofriadi/pi-hashline-edit), with `rename`",
        r#"{"filePath":"/t/old.ts","rename":"/t/new.ts","edits":[]}"#,
        &["/t/old.ts", "/t/new.ts"],
    ),
    row(
        "ast_edit",
        Paths(&["paths", "path"]),
        "oh-my-pi 18.2.3 `ast_edit`: files, directories or globs (src/tools/ast-edit.ts)",
        r#"{"ops":[{"pat":"foo($A)","out":"bar($A)"}],"paths":["src/a.ts","lib/**/*.ts"]}"#,
        &["src/a.ts", "lib/**/*.ts"],
    ),
    row(
        "ast_grep_replace",
        Paths(&["paths", "path"]),
        "pi extensions that register an ast-grep rewrite tool",
        r#"{"pattern":"a","rewrite":"b","paths":["/t/a.ts","/t/b.ts"]}"#,
        &["/t/a.ts", "/t/b.ts"],
    ),
    // Notebooks.
    row(
        "notebookedit",
        Paths(&["notebook_path", "file_path", "path"]),
        "Claude Code 2.1.240 `NotebookEdit` (tools-reference)",
        r#"{"notebook_path":"/r/n.ipynb","new_source":"x"}"#,
        &["/r/n.ipynb"],
    ),
    row(
        "notebook",
        Paths(&["notebook_path", "path"]),
        "oh-my-pi `notebook` (v5.7, src/core/tools/notebook.ts)",
        r#"{"action":"edit","notebook_path":"n.ipynb","cell_index":0}"#,
        &["n.ipynb"],
    ),
    row(
        "edit_notebook",
        Paths(&["target_notebook", "notebook_path", "path"]),
        "Cursor agent `edit_notebook`",
        r#"{"target_notebook":"n.ipynb","cell_idx":0,"old_string":"","new_string":"x"}"#,
        &["n.ipynb"],
    ),
    // Patches.
    row(
        "apply_patch",
        Edit {
            paths: &[],
            patches: &["command", "input", "patch"],
        },
        "Codex CLI `apply_patch`, text or argv in `command` (harness-protocols §2.5-2.6); oh-my-pi 18.2.3 apply_patch wire name; Cline and GitHub Copilot `apply_patch` `{input}`",
        r#"{"command":["apply_patch","*** Begin Patch\n*** Add File: a.txt\n+x\n*** Delete File: b.txt\n*** End Patch\n"]}"#,
        &["a.txt", "b.txt"],
    ),
];

/// The bridge prefix a function-calling bridge puts before every name.
pub const BRIDGE_PREFIX: &str = "functions.";

/// The tool an MCP server's tool name `mcp__<server>__<tool>` names, as
/// Claude Code and Codex spell it (`mcp__plugin_<p>_<server>__<tool>` too).
pub fn server_tool(name: &str) -> Option<&str> {
    let (_, tool) = name.strip_prefix("mcp__")?.rsplit_once("__")?;
    (!tool.is_empty()).then_some(tool)
}

/// The row for a lower-cased tool name, with or without the bridge prefix.
pub fn find(name: &str) -> Option<&'static Spelling> {
    let bare = name.strip_prefix(BRIDGE_PREFIX).unwrap_or(name);
    SPELLINGS.iter().find(|s| s.name == bare)
}

/// The README's list of spellings, generated from the table.
pub fn markdown() -> String {
    let mut out = String::from(
        "| Name (also `functions.<name>`, `mcp__<server>__<name>`) | Kind | Read from | Where the name comes from |\n|---|---|---|---|\n",
    );
    for s in SPELLINGS {
        let (kind, fields) = match s.reads {
            Command(f) => ("shell", quoted(f)),
            Paths(f) => ("write", quoted(f)),
            Device(f) => (
                "write, or lookup for `xd://lsp`",
                format!("{}, `content` of `xd://lsp`", quoted(f)),
            ),
            Edit { paths, patches } => {
                let mut fields = quoted(paths);
                if !patches.is_empty() {
                    let sep = if fields.is_empty() { "" } else { "; " };
                    fields = format!("{fields}{sep}file headers in {}", quoted(patches));
                }
                ("write", fields)
            }
            Editor {
                field,
                writes,
                paths,
            } => (
                "write",
                format!("{} when `{field}` is {}", quoted(paths), quoted(writes)),
            ),
            Launch if s.name == "debug" => (
                "shell, or other",
                "`program`, `args` and `cwd` of `action` `launch`".to_owned(),
            ),
            Launch => (
                "shell, or other",
                "`application`, `args`, `env` and `cwd` of `op` `start`; `text` of `op` `send`"
                    .to_owned(),
            ),
            Code { language, code } => (
                "shell",
                format!(
                    "`{code}` as `python3 -c` (its `!`, `%` and `%%` lines as the shell lines they run) or `node -e`, by `{language}`"
                ),
            ),
        };
        out.push_str(&format!(
            "| `{}` | {kind} | {fields} | {} |\n",
            s.name, s.source
        ));
    }
    out
}

fn quoted(fields: &[&str]) -> String {
    fields
        .iter()
        .map(|f| format!("`{f}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classify::classify;
    use crate::exports::tama::gate::declaration::ToolKind;

    /// Every row's example reads to what the row expects, under its name,
    /// its upper-cased name and its bridged name.
    #[test]
    fn every_row_reads_its_example() {
        for s in SPELLINGS {
            for name in [
                s.name.to_string(),
                s.name.to_uppercase(),
                format!("{BRIDGE_PREFIX}{}", s.name),
            ] {
                let call = classify(&name, s.example).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(call.name, name.to_lowercase());
                let read: Vec<String> = match call.kind {
                    ToolKind::Shell => call.command.into_iter().collect(),
                    ToolKind::Write => call.targets.into_iter().map(|t| t.path).collect(),
                    other => panic!("{name} read as {other:?}"),
                };
                assert_eq!(read, s.expect, "{name} {}", s.example);
            }
        }
    }

    #[test]
    fn names_are_lower_case_unique_and_unprefixed() {
        for (i, s) in SPELLINGS.iter().enumerate() {
            assert_eq!(s.name, s.name.to_lowercase());
            assert!(!s.name.starts_with(BRIDGE_PREFIX));
            assert!(
                SPELLINGS[..i].iter().all(|o| o.name != s.name),
                "{} twice",
                s.name
            );
            assert!(!s.source.is_empty());
        }
    }

    /// The README's list is this table: regenerate it with
    /// `TAMA_WRITE_README=1 cargo nextest run ... -E 'test(readme)'`.
    #[test]
    fn readme_lists_the_table() {
        const BEGIN: &str =
            "<!-- tool spellings: generated from plugins/tool-declaration/src/spellings.rs -->\n";
        const END: &str = "<!-- end of tool spellings -->";
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md");
        let readme = std::fs::read_to_string(path).expect("README.md is readable");
        let start = readme
            .find(BEGIN)
            .expect("README.md has the spellings marker")
            + BEGIN.len();
        let end = start
            + readme[start..]
                .find(END)
                .expect("README.md has the end marker");
        let generated = markdown();
        if std::env::var_os("TAMA_WRITE_README").is_some() {
            std::fs::write(
                path,
                format!("{}{generated}{}", &readme[..start], &readme[end..]),
            )
            .expect("README.md is writable");
            return;
        }
        assert_eq!(
            readme[start..end],
            generated,
            "README.md's spellings differ from the table; see this test's doc"
        );
    }
}
