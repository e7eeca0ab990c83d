//! Tools other than the shell that run git: an MCP server's `git_commit`
//! asked for `no_verify`, a `git` tool handed git's arguments as a list
//! (`{"args": ["commit", "--no-verify"]}`), and a tool whose name says it
//! runs what it is given (`run_command`, `run_cell`), whose strings are
//! read as shell and as code and whose word lists as command lines.

use crate::prelude::*;

use serde_json::Value;
use shell_reader::tool_inputs;

use crate::Finding;

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
    let git_named = name.contains("git")
        || ["commit", "push", "merge", "rebase"]
            .iter()
            .any(|verb| name.contains(verb));
    let running = tool_inputs::runs_what_it_is_given(tool_name);
    if !git_named && !running {
        return None;
    }
    let input: Value = serde_json::from_str(tool_input).ok()?;
    if git_named && let Some(key) = skip_key(&input) {
        return Some(format!(
            "`{tool_name}` is asked for `{key}`, which skips the repository's git hooks (block-git-hook-bypass). Commit without it and fix what the hooks report."
        ));
    }
    let mut lines = Vec::new();
    tool_inputs::command_lines(&input, &mut lines);
    let mut texts = Vec::new();
    if git_named {
        // A git tool's list of words is git's command line.
        let git_lines = lines.iter().filter(|line| !line.starts_with("'git' "));
        texts.extend(git_lines.map(|line| format!("git {line}")));
    }
    texts.extend(lines);
    if running {
        let mut strings = Vec::new();
        tool_inputs::strings(&input, &mut strings);
        for text in &strings {
            texts.extend(tool_inputs::notebook_shell_lines(text).map(str::to_owned));
            // Code is read as python and node read what `-c` or `-e` hands them.
            let quoted = tool_inputs::quoted_line(&[text]);
            texts.push(format!("python3 -c {quoted}"));
            texts.push(format!("node -e {quoted}"));
        }
        texts.extend(strings);
    }
    let finding = texts.iter().find_map(|text| probe(text))?;
    Some(format!("`{tool_name}` runs what it is given: {finding}"))
}

/// The key of `input` set true that asks a tool to skip the hooks.
fn skip_key(input: &Value) -> Option<&str> {
    input.as_object()?.iter().find_map(|(key, value)| {
        let normal: String = key
            .chars()
            .filter(|c| !matches!(c, '_' | '-'))
            .flat_map(char::to_lowercase)
            .collect();
        let asked = matches!(value, Value::Bool(true))
            || value
                .as_str()
                .is_some_and(|text| text.eq_ignore_ascii_case("true"));
        (asked && SKIP_KEYS.contains(&normal.as_str())).then_some(key.as_str())
    })
}

/// The bypass `text`, read as shell, holds; text that is no shell (prose,
/// code) holds none.
fn probe(text: &str) -> Option<String> {
    match crate::find_bypass(text)? {
        Finding::Unreadable { .. } => None,
        finding => Some(finding.to_string()),
    }
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
    fn a_tool_that_runs_what_it_is_given_is_read_as_shell_and_code() {
        for (tool, input) in [
            (
                "mcp__shell__run",
                r#"{"command": ["git", "commit", "--no-verify"]}"#,
            ),
            (
                "mcp__proc__spawn",
                r#"{"program": "git", "args": ["commit", "-n"]}"#,
            ),
            (
                "mcp__jupyter__run_cell",
                r#"{"source": "!git commit --no-verify -m x"}"#,
            ),
            (
                "mcp__code__run_python",
                r#"{"code": "import subprocess; subprocess.run(['git', 'push', '--no-verify'])"}"#,
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
            ("mcp__shell__run_command", r#"{"command": "npm test"}"#),
            (
                "mcp__code__run_python",
                r#"{"code": "print('no shell here')"}"#,
            ),
            (
                "mcp__github__search_code",
                r#"{"q": "git commit --no-verify"}"#,
            ),
        ] {
            assert_eq!(bypass(tool, input), None, "{tool} {input}");
        }
    }
}
