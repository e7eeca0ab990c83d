//! Tools other than the shell that run git: an MCP server's `git_commit`
//! asked for `no_verify`, or a `git` tool handed git's arguments as a list
//! (`{"args": ["commit", "--no-verify"]}`), which is read as the command
//! it runs.

use crate::prelude::*;

use serde_json::Value;

/// Input keys that ask a tool to skip git's hooks, lower-cased without `_` or `-`.
const SKIP_KEYS: &[&str] = &[
    "noverify",
    "skiphooks",
    "skiphook",
    "nohooks",
    "bypasshooks",
    "skipverify",
    "skipverification",
];

/// Why a tool call of `tool_name` that is neither a shell nor a write runs
/// git past its hooks, when it does.
pub fn git_tool_bypass(tool_name: &str, tool_input: &str) -> Option<String> {
    let name = tool_name.to_ascii_lowercase();
    if !name.contains("git")
        && !["commit", "push", "merge", "rebase"]
            .iter()
            .any(|verb| name.contains(verb))
    {
        return None;
    }
    let input: Value = serde_json::from_str(tool_input).ok()?;
    let object = input.as_object()?;
    if let Some(key) = object.iter().find_map(|(key, value)| {
        let normal: String = key.chars().filter(|c| !matches!(c, '_' | '-')).collect();
        let asked = matches!(value, Value::Bool(true))
            || value
                .as_str()
                .is_some_and(|text| text.eq_ignore_ascii_case("true"));
        (asked && SKIP_KEYS.contains(&normal.to_ascii_lowercase().as_str())).then_some(key)
    }) {
        return Some(format!(
            "`{tool_name}` is asked for `{key}`, which skips the repository's git hooks (block-git-hook-bypass). Commit without it and fix what the hooks report."
        ));
    }
    // A list of words handed to a git tool is git's command line.
    for value in object.values() {
        let Some(words) = value.as_array() else {
            continue;
        };
        let words: Option<Vec<&str>> = words.iter().map(Value::as_str).collect();
        let Some(words) = words.filter(|words| !words.is_empty()) else {
            continue;
        };
        let mut command = String::from("git");
        for word in words.iter().skip(usize::from(words[0] == "git")) {
            command.push(' ');
            command.push_str(&shell_quoted(word));
        }
        if let Some(reason) = crate::refusal_reason(&command) {
            return Some(format!("`{tool_name}` runs git with these words: {reason}"));
        }
    }
    None
}

/// `word` single-quoted for the shell.
fn shell_quoted(word: &str) -> String {
    format!("'{}'", word.replace('\'', "'\\''"))
}

#[cfg(test)]
mod tests {
    use super::git_tool_bypass as bypass;

    #[test]
    fn a_git_tool_asked_to_skip_hooks_is_refused() {
        for (tool, input) in [
            (
                "mcp__git__git_commit",
                r#"{"message": "x", "no_verify": true}"#,
            ),
            (
                "mcp__git__git_commit",
                r#"{"message": "x", "noVerify": true}"#,
            ),
            ("mcp__repo__push", r#"{"skip-hooks": "true"}"#),
            (
                "mcp__git__git",
                r#"{"args": ["commit", "--no-verify", "-m", "x"]}"#,
            ),
            (
                "mcp__git__run",
                r#"{"command": ["git", "commit", "-n", "-m", "x"]}"#,
            ),
            (
                "mcp__git__git",
                r#"{"args": ["-c", "core.hooksPath=/dev/null", "commit"]}"#,
            ),
        ] {
            assert!(bypass(tool, input).is_some(), "{tool} {input}");
        }
    }

    #[test]
    fn other_git_tools_and_other_tools_pass() {
        for (tool, input) in [
            (
                "mcp__git__git_commit",
                r#"{"message": "fix --no-verify handling"}"#,
            ),
            (
                "mcp__git__git_commit",
                r#"{"message": "x", "no_verify": false}"#,
            ),
            ("mcp__git__git_add", r#"{"files": ["a.txt", "b.txt"]}"#),
            ("mcp__github__create_pull_request", r#"{"labels": ["bug"]}"#),
            ("mcp__notes__save", r#"{"no_verify": true}"#),
            ("mcp__git__git_status", "not json"),
        ] {
            assert_eq!(bypass(tool, input), None, "{tool} {input}");
        }
    }
}
