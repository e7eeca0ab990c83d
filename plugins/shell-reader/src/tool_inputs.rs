//! The input of a tool other than the shell that runs what it is given (an
//! MCP server's `run_command`, `execute_code`, `run_cell`, `send_keys`):
//! its strings, and the command lines its lists of words spell.

use crate::prelude::*;

use serde_json::Value;

/// Words in a tool's name that say it runs what it is given.
const RUNNING_TOOL_WORDS: &[&str] = &[
    "run", "exec", "spawn", "shell", "command", "terminal", "bash", "eval", "cell", "code",
    "python", "script", "process", "keys",
];

/// Words in a tool's name that say it only looks things up
/// (`search_code`, `list_workflow_runs`), whatever else the name holds.
const LOOKUP_TOOL_WORDS: &[&str] = &["search", "list", "get", "read", "find", "query", "fetch"];

/// Whether `tool_name` says the tool runs what it is given.
pub fn runs_what_it_is_given(tool_name: &str) -> bool {
    let name = tool_name.to_ascii_lowercase();
    RUNNING_TOOL_WORDS.iter().any(|word| name.contains(word))
        && !LOOKUP_TOOL_WORDS.iter().any(|word| name.contains(word))
}

/// Every string of `tool_input`, JSON text; `None` when it is not JSON.
pub fn input_strings(tool_input: &str) -> Option<Vec<String>> {
    let value: Value = serde_json::from_str(tool_input).ok()?;
    let mut out = Vec::new();
    strings(&value, &mut out);
    Some(out)
}

/// Every string in `value`, however deep.
pub fn strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(text) => out.push(text.clone()),
        Value::Array(items) => items.iter().for_each(|item| strings(item, out)),
        Value::Object(map) => map.values().for_each(|item| strings(item, out)),
        _ => {}
    }
}

/// The paths a tool's input names under keys that name files or folders
/// (`path`, `relative_path`, `file`, `target_dir`, …), relative ones
/// included, and each folder joined to the file given beside it (`{"dir":
/// "~/.claude", "file": "settings.json"}`).
pub fn named_paths(value: &Value, out: &mut Vec<String>) {
    const FOLDER_KEYS: &[&str] = &["dir", "directory", "folder", "path", "root", "cwd"];
    const FILE_KEYS: &[&str] = &["file", "filename", "file_name", "name", "relative_path"];
    let names_path = |key: &str| {
        let key = key.to_ascii_lowercase();
        ["path", "file", "dir", "folder", "target", "dest", "source"]
            .iter()
            .any(|part| key.contains(part))
    };
    let path_like = |text: &str| !text.is_empty() && !text.contains(['\n', ' ']);
    match value {
        Value::Array(items) => items.iter().for_each(|item| named_paths(item, out)),
        Value::Object(map) => {
            for (key, item) in map {
                match item.as_str() {
                    Some(text) if names_path(key) && path_like(text) => out.push(text.to_owned()),
                    Some(_) => {}
                    None => named_paths(item, out),
                }
            }
            let text_of = |keys: &[&str]| keys.iter().find_map(|key| map.get(*key)?.as_str());
            if let (Some(folder), Some(file)) = (text_of(FOLDER_KEYS), text_of(FILE_KEYS))
                && path_like(folder)
                && path_like(file)
            {
                out.push(format!("{}/{file}", folder.trim_end_matches('/')));
            }
        }
        _ => {}
    }
}

/// Each list of strings in `value` as a command line, its words quoted,
/// and a program given apart from its arguments (`{"program": "rm",
/// "args": […]}`) put before them.
pub fn command_lines(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Array(items) => {
            let words: Option<Vec<&str>> = items.iter().map(Value::as_str).collect();
            match words {
                Some(words) if !words.is_empty() => out.push(quoted_line(&words)),
                _ => items.iter().for_each(|item| command_lines(item, out)),
            }
        }
        Value::Object(map) => {
            let program = ["program", "command", "cmd", "executable", "file"]
                .iter()
                .find_map(|key| map.get(*key)?.as_str());
            let args = ["args", "argv", "arguments"]
                .iter()
                .find_map(|key| map.get(*key)?.as_array());
            if let (Some(program), Some(args)) = (program, args) {
                let args: Option<Vec<&str>> = args.iter().map(Value::as_str).collect();
                if let Some(args) = args {
                    let mut words = vec![program];
                    words.extend(args);
                    out.push(quoted_line(&words));
                }
            }
            map.values().for_each(|item| command_lines(item, out));
        }
        _ => {}
    }
}

/// The lines of a notebook cell it runs in the shell (`!pip install x`).
pub fn notebook_shell_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .filter_map(|line| line.trim_start().strip_prefix('!'))
}

/// `words` single-quoted for the shell and joined.
pub fn quoted_line(words: &[&str]) -> String {
    words
        .iter()
        .copied()
        .map(crate::interpreters::quoted)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_of_words_and_programs_with_their_arguments_are_command_lines() {
        let input = serde_json::json!({
            "command": ["rm", "-rf", "it's"],
            "spawn": {"program": "git", "args": ["commit", "-n"]},
            "mixed": ["a", 1],
        });
        let mut lines = Vec::new();
        command_lines(&input, &mut lines);
        lines.sort();
        assert_eq!(
            lines,
            [
                "'commit' '-n'",
                "'git' 'commit' '-n'",
                r"'rm' '-rf' 'it'\''s'"
            ]
        );
    }

    #[test]
    fn names_that_run_what_they_are_given() {
        assert!(runs_what_it_is_given("mcp__shell__run_command"));
        assert!(runs_what_it_is_given("mcp__jupyter__Execute_Cell"));
        assert!(!runs_what_it_is_given("mcp__linear__update_issue"));
        assert!(!runs_what_it_is_given("mcp__github__search_code"));
    }
}
