//! Tool spellings of every harness, and what each kind of call carries.

use serde_json::{Map, Value};

use crate::exports::tama::gate::declaration::{ToolCall, ToolKind, WriteTarget};
use crate::patch::patch_targets;

/// Shell spellings, lower-cased: Claude Code `Bash` (also Codex's hooks),
/// oh-my-pi `bash`, Codex `exec_command`, the function bridge's `functions.` forms.
const SHELL: &[&str] = &[
    "bash",
    "functions.bash",
    "exec_command",
    "functions.exec_command",
    "shell",
    "exec",
    "run_command",
    "run_package_script",
];

/// Tools that write a whole file from `content`.
const WHOLE_FILE_WRITES: &[&str] = &["write", "functions.write"];

/// Notebook tools: the target is the notebook.
const NOTEBOOK_EDITS: &[&str] = &["notebookedit", "functions.notebookedit", "notebook", "functions.notebook"];

/// Edits and patches: a target path, or patch text whose headers name the files.
const EDITS: &[&str] = &[
    "edit",
    "functions.edit",
    "multiedit",
    "functions.multiedit",
    "apply_patch",
    "functions.apply_patch",
];

/// Fields that hold a path written to.
const PATH_FIELDS: &[&str] = &["file_path", "notebook_path", "path"];

/// Fields that hold patch text. Codex's `apply_patch` carries it in `command`.
const PATCH_FIELDS: &[&str] = &["patch", "input", "raw_input", "content", "command"];

/// Device actions of `xd://lsp` that only read.
const LSP_READ_ONLY: &[&str] = &[
    "status",
    "capabilities",
    "diagnostics",
    "definition",
    "references",
    "hover",
    "symbols",
    "type_definition",
    "implementation",
];

const DEVICE_SCHEME: &str = "xd://";

pub fn classify(tool_name: &str, tool_input: &str) -> Result<ToolCall, String> {
    let name = tool_name.to_lowercase();
    let input: Value = serde_json::from_str(tool_input)
        .map_err(|e| format!("the input of tool `{tool_name}` is not JSON: {e}"))?;
    let empty = Map::new();
    let fields = input.as_object().unwrap_or(&empty);
    let call = |kind, command, targets| ToolCall { name: name.clone(), kind, command, targets };

    if SHELL.contains(&name.as_str()) {
        let command = shell_command(tool_name, fields)?;
        return Ok(call(ToolKind::Shell, Some(command), Vec::new()));
    }
    let is_whole_file = WHOLE_FILE_WRITES.contains(&name.as_str());
    if is_whole_file {
        if let Some(path) = string_field(fields, "path").filter(|p| p.starts_with(DEVICE_SCHEME)) {
            return device_request(&name, path, fields);
        }
    }
    let is_notebook = NOTEBOOK_EDITS.contains(&name.as_str());
    if !(is_whole_file || is_notebook || EDITS.contains(&name.as_str())) {
        return Ok(call(ToolKind::Other, None, Vec::new()));
    }
    let mut paths: Vec<String> = PATH_FIELDS
        .iter()
        .filter_map(|f| string_field(fields, f))
        .map(str::to_string)
        .collect();
    if !(is_whole_file || is_notebook) {
        paths.extend(edit_targets(fields));
    }
    paths.dedup();
    if paths.is_empty() {
        return Err(format!(
            "write tool `{tool_name}` names no file: none of {} holds a path and no patch header names one",
            PATH_FIELDS.join(", ")
        ));
    }
    let targets = paths.into_iter().map(|path| WriteTarget { path, device_action: None }).collect();
    Ok(call(ToolKind::Write, None, targets))
}

/// `command` or Codex's `cmd`, as a string, or an argument vector joined as
/// a shell would read it. Both given and different is refused: which one the
/// harness runs is not Tama's to guess.
fn shell_command(tool_name: &str, fields: &Map<String, Value>) -> Result<String, String> {
    let no_command = || format!("shell tool `{tool_name}` has no command string in its input");
    let read = |key: &str| fields.get(key).map(|value| command_text(value).ok_or_else(no_command)).transpose();
    match (read("command")?, read("cmd")?) {
        (Some(command), Some(cmd)) if command != cmd => Err(format!(
            "shell tool `{tool_name}` holds two commands that disagree: `command` is {command:?} and `cmd` is {cmd:?}"
        )),
        (Some(command), _) | (None, Some(command)) => Ok(command),
        (None, None) => Err(no_command()),
    }
}

fn command_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Array(argv) => {
            let words: Option<Vec<String>> = argv.iter().map(|w| w.as_str().map(shell_quote)).collect();
            words.map(|w| w.join(" "))
        }
        _ => None,
    }
}

/// Quotes one word so a shell reads it back unchanged.
fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,@%+".contains(c));
    if plain { word.to_string() } else { format!("'{}'", word.replace('\'', "'\\''")) }
}

/// Files named by an edit's patch text, by oh-my-pi's patch-mode `edits[].rename`.
fn edit_targets(fields: &Map<String, Value>) -> Vec<String> {
    let mut targets: Vec<String> = PATCH_FIELDS
        .iter()
        .filter_map(|f| string_field(fields, f))
        .flat_map(patch_targets)
        .collect();
    if let Some(Value::Array(edits)) = fields.get("edits") {
        targets.extend(edits.iter().filter_map(|e| e.get("rename")?.as_str().map(str::to_string)));
    }
    targets
}

/// An oh-my-pi `write` to `xd://<device>`: `content` is the device's JSON arguments.
fn device_request(name: &str, path: &str, fields: &Map<String, Value>) -> Result<ToolCall, String> {
    let arguments: Value = match fields.get("content") {
        Some(Value::String(text)) => serde_json::from_str(text)
            .map_err(|e| format!("device request to {path}: content is not JSON: {e}"))?,
        Some(object @ Value::Object(_)) => object.clone(),
        _ => return Err(format!("device request to {path}: content holds no JSON arguments")),
    };
    let action = arguments
        .get("action")
        .and_then(Value::as_str)
        .ok_or_else(|| format!("device request to {path}: its arguments have no string action"))?;
    let device = path.trim_start_matches(DEVICE_SCHEME).trim_end_matches('/');
    let read_only = device == "lsp" && LSP_READ_ONLY.contains(&action.to_lowercase().replace('-', "_").as_str());
    Ok(ToolCall {
        name: name.to_string(),
        kind: if read_only { ToolKind::Lookup } else { ToolKind::Write },
        command: None,
        targets: vec![WriteTarget { path: path.to_string(), device_action: Some(action.to_string()) }],
    })
}

fn string_field<'a>(fields: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    fields.get(key).and_then(Value::as_str).filter(|s| !s.is_empty())
}
