//! Reads a tool call by its row in the spellings table.

use crate::prelude::*;
use serde_json::{Map, Value};

use crate::device;
use crate::exports::tama::gate::declaration::{ToolCall, ToolKind, WriteTarget};
use crate::new_text;
use crate::patch::{self, Written, merged};
use crate::spellings::{self, Reads};

/// Argument-vector programs that apply a patch instead of running a shell:
/// Codex sends `{"command": ["apply_patch", "<patch>"]}` from `local_shell`
/// and `shell`.
const PATCH_PROGRAMS: &[&str] = &["apply_patch", "applypatch"];

/// Keys any harness sends a shell command under; a shell call's input that
/// holds two of them is read only when they agree.
const COMMAND_KEYS: &[&str] = &["command", "cmd"];

pub fn classify(tool_name: &str, tool_input: &str) -> Result<ToolCall, String> {
    let name = tool_name.to_lowercase();
    let input: Value = serde_json::from_str(tool_input)
        .map_err(|e| format!("the input of tool `{tool_name}` is not JSON: {e}"))?;
    let empty = Map::new();
    let fields = input.as_object().unwrap_or(&empty);
    let (spelling, from_server) = match spellings::find(&name) {
        Some(spelling) => (spelling, false),
        None => match spellings::server_tool(&name).and_then(spellings::find) {
            Some(spelling) => (spelling, true),
            None => return Ok(call(name, ToolKind::Other, None, Vec::new())),
        },
    };
    if !from_server {
        return read(tool_name, name, spelling, fields);
    }
    // A server's tool that shares a harness tool's name but not its input
    // is some other tool: read as other, never as an error that refuses.
    read(tool_name, name.clone(), spelling, fields)
        .or_else(|_| Ok(call(name, ToolKind::Other, None, Vec::new())))
}

/// Reads `fields`, the input of the tool `tool_name` (lower-cased `name`),
/// by its row `spelling`.
fn read(
    tool_name: &str,
    name: String,
    spelling: &spellings::Spelling,
    fields: &Map<String, Value>,
) -> Result<ToolCall, String> {
    let write = |name: String, written: Vec<Written>| -> Result<ToolCall, String> {
        if written.is_empty() {
            return Err(format!(
                "write tool `{tool_name}` names no file: no field holds a path and no patch header names one"
            ));
        }
        let targets = written
            .into_iter()
            .map(|file| WriteTarget {
                path: crate::harness_path::plain(&file.path),
                device_action: None,
                text: (!file.text.is_empty()).then_some(file.text),
            })
            .collect();
        Ok(call(name, ToolKind::Write, None, targets))
    };
    let field_targets = |keys: &[&str]| -> Result<Vec<Written>, String> {
        Ok(with_text(paths(fields, keys)?, fields))
    };
    match spelling.reads {
        Reads::Command(keys) => match shell_command(tool_name, fields, keys)? {
            Command::Line(line) => {
                let line = match working_folder(fields) {
                    Some(folder) => format!("cd {} && {line}", folder_word(folder)),
                    None => line,
                };
                Ok(call(name, ToolKind::Shell, Some(line), Vec::new()))
            }
            Command::Patch { text, folder } => {
                let mut written =
                    patch::targets(&text).map_err(|e| format!("the patch of `{tool_name}` {e}"))?;
                let folder = match (folder, working_folder(fields)) {
                    (Some(cd), Some(base)) if !cd.starts_with(['/', '~']) => {
                        Some(format!("{}/{cd}", base.trim_end_matches('/')))
                    }
                    (Some(cd), _) => Some(cd),
                    (None, base) => base.map(str::to_owned),
                };
                if let Some(folder) = folder {
                    for file in written
                        .iter_mut()
                        .filter(|f| !f.path.starts_with(['/', '~']))
                    {
                        file.path = format!("{}/{}", folder.trim_end_matches('/'), file.path);
                    }
                }
                write(name, written)
            }
            Command::Missing => Err(format!(
                "shell tool `{tool_name}` has no command string in its input"
            )),
        },
        Reads::Code { language, code } => {
            let text = |key: &str| fields.get(key).and_then(Value::as_str);
            let language = text(language).unwrap_or_default();
            let command = text(code)
                .and_then(|code| crate::code_cell::command(language, code))
                .ok_or_else(|| {
                    format!(
                        "code tool `{tool_name}` has no code in a language it runs (`py` or `js`)"
                    )
                })?;
            Ok(call(name, ToolKind::Shell, Some(command), Vec::new()))
        }
        Reads::Launch => match crate::launch::command(spelling.name, fields)? {
            Some(command) => Ok(call(name, ToolKind::Shell, Some(command), Vec::new())),
            None => Ok(call(name, ToolKind::Other, None, Vec::new())),
        },
        Reads::Paths(keys) => write(name, field_targets(keys)?),
        Reads::Device(keys) => match device::address(fields) {
            Some(address) => device::request(&name, address, fields),
            None => write(name, field_targets(keys)?),
        },
        Reads::Edit {
            paths: keys,
            patches,
        } => {
            let mut found = field_targets(keys)?;
            for key in patches {
                if let Some(text) = patch_text(fields, key) {
                    found.extend(
                        patch::targets(&text)
                            .map_err(|e| format!("the `{key}` of `{tool_name}` {e}"))?,
                    );
                }
            }
            // A renamed file holds what the edit wrote.
            found.extend(with_text(renames(fields), fields));
            write(name, merged(found))
        }
        Reads::Editor {
            field,
            writes,
            paths: keys,
        } => {
            let sub = fields
                .get(field)
                .and_then(Value::as_str)
                .unwrap_or_default();
            if writes.contains(&sub) {
                write(name, field_targets(keys)?)
            } else {
                Ok(call(name, ToolKind::Other, None, Vec::new()))
            }
        }
    }
}

fn call(
    name: String,
    kind: ToolKind,
    command: Option<String>,
    targets: Vec<WriteTarget>,
) -> ToolCall {
    ToolCall {
        name,
        kind,
        command,
        targets,
    }
}

#[derive(PartialEq)]
enum Command {
    Line(String),
    /// Patch text `apply_patch` applies, in the folder a `cd` before it names.
    Patch {
        text: String,
        folder: Option<String>,
    },
    Missing,
}

impl Command {
    fn text(&self) -> &str {
        match self {
            Command::Line(text) | Command::Patch { text, .. } => text,
            Command::Missing => "",
        }
    }
}

/// Keys a shell tool's input names the folder its command runs in under:
/// Codex's `workdir` (`working_directory` in a `local_shell` action),
/// oh-my-pi's `cwd`. The command is read as run after a `cd` there.
const WORKING_FOLDER_KEYS: &[&str] = &["workdir", "cwd", "action.working_directory"];

/// The folder a shell call says its command runs in, if it names one.
fn working_folder(fields: &Map<String, Value>) -> Option<&str> {
    WORKING_FOLDER_KEYS
        .iter()
        .find_map(|key| field(fields, key)?.as_str())
        .map(|folder| {
            // oh-my-pi takes `@/x`, `@~/x`, `:/x` and `:~/x` for `/x` and `~/x`.
            match folder.strip_prefix(['@', ':']) {
                Some(rest) if rest.starts_with(['/', '~']) => rest,
                _ => folder,
            }
        })
        .filter(|folder| !folder.is_empty())
}

/// `folder` as a word `cd` reads back unchanged, its leading `~` left bare
/// so that a shell reader expands it to the home folder, as the harness does.
fn folder_word(folder: &str) -> String {
    match folder.strip_prefix('~') {
        Some("") => "~".to_owned(),
        Some(rest) => match rest.strip_prefix('/') {
            Some(under) => format!("~/{}", shell_quote(under)),
            None => format!("~/{}", shell_quote(rest)),
        },
        None => shell_quote(folder),
    }
}

/// The first of `keys` holding a command: a string, or an argument vector
/// joined as a shell would read it back, unless it runs `apply_patch`.
///
/// Two keys holding commands that disagree (`command` and Codex's `cmd`,
/// whichever the spelling reads) are refused, naming both: which one the
/// harness runs is not Tama's to guess.
fn shell_command(
    tool_name: &str,
    fields: &Map<String, Value>,
    keys: &[&str],
) -> Result<Command, String> {
    let mut found: Option<(&str, Command)> = None;
    let others = COMMAND_KEYS.iter().filter(|key| !keys.contains(key));
    for (key, read) in keys
        .iter()
        .map(|k| (k, true))
        .chain(others.map(|k| (k, false)))
    {
        let command = match field(fields, key) {
            Some(Value::String(s)) => match patch::shell_invocation(s) {
                Some((folder, text)) => Command::Patch { text, folder },
                None => Command::Line(s.clone()),
            },
            Some(Value::Array(argv)) => {
                let words = strings(argv).ok_or_else(|| {
                    format!("the argument vector in `{key}` holds a word that is not a string")
                })?;
                match patch_argv(&words) {
                    Some(text) => Command::Patch { text, folder: None },
                    None => Command::Line(
                        words
                            .iter()
                            .map(|w| shell_quote(w))
                            .collect::<Vec<_>>()
                            .join(" "),
                    ),
                }
            }
            _ => continue,
        };
        match &found {
            None if read => found = Some((key, command)),
            Some((first, earlier)) if *earlier != command => {
                return Err(format!(
                    "shell tool `{tool_name}` holds two commands that disagree: `{first}` is {:?} and `{key}` is {:?}",
                    earlier.text(),
                    command.text()
                ));
            }
            _ => {}
        }
    }
    Ok(found.map_or(Command::Missing, |(_, command)| command))
}

/// The patch text of `["apply_patch", "<patch>"]`.
fn patch_argv(words: &[&str]) -> Option<String> {
    let (program, rest) = words.split_first()?;
    let base = program.rsplit('/').next().unwrap_or(program);
    PATCH_PROGRAMS.contains(&base).then(|| rest.join("\n"))
}

/// `a.b`: field `b` of object `a`.
fn field<'a>(fields: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    let mut parts = key.split('.');
    let mut value = fields.get(parts.next()?)?;
    for part in parts {
        value = value.get(part)?;
    }
    Some(value)
}

fn strings(values: &[Value]) -> Option<Vec<&str>> {
    values.iter().map(Value::as_str).collect()
}

/// Quotes one word so a shell reads it back unchanged, only when it must.
fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,@%+".contains(c));
    if plain { word.to_string() } else { quote(word) }
}

/// `text` in single quotes, which a shell reads back as one word unchanged.
pub fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// Every path in `keys`, each a string or a list of strings. An empty string
/// is no path; a list holding anything else is an error, not skipped.
fn paths(fields: &Map<String, Value>, keys: &[&str]) -> Result<Vec<String>, String> {
    let mut found = Vec::new();
    for key in keys {
        match fields.get(*key) {
            Some(Value::String(path)) if !path.is_empty() => found.push(path.clone()),
            Some(Value::Array(list)) => {
                let list = strings(list)
                    .ok_or_else(|| format!("the paths in `{key}` hold one that is not a string"))?;
                found.extend(
                    list.into_iter()
                        .filter(|p| !p.is_empty())
                        .map(str::to_string),
                );
            }
            _ => {}
        }
    }
    dedup(&mut found);
    Ok(found)
}

/// Patch text in `key`: a string, or Codex's argument vector `["apply_patch", "<patch>"]`.
fn patch_text(fields: &Map<String, Value>, key: &str) -> Option<String> {
    match fields.get(key)? {
        Value::String(text) => Some(text.clone()),
        Value::Array(argv) => patch_argv(&strings(argv)?),
        _ => None,
    }
}

/// oh-my-pi's patch-mode `edits[].rename`: each a file the edit creates.
fn renames(fields: &Map<String, Value>) -> Vec<String> {
    let Some(Value::Array(edits)) = fields.get("edits") else {
        return Vec::new();
    };
    edits
        .iter()
        .filter_map(|e| e.get("rename")?.as_str())
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect()
}

/// `paths`, each given the text the input's fields write (`new_text`).
fn with_text(paths: Vec<String>, fields: &Map<String, Value>) -> Vec<Written> {
    let text = new_text::of_fields(fields).unwrap_or_default();
    paths
        .into_iter()
        .map(|path| Written {
            path,
            text: text.clone(),
        })
        .collect()
}

/// Keeps the first of each path, in order.
fn dedup(paths: &mut Vec<String>) {
    let mut seen = alloc::collections::BTreeSet::new();
    paths.retain(|p| seen.insert(p.clone()));
}

#[cfg(test)]
mod tests {
    use super::classify;
    use crate::exports::tama::gate::declaration::ToolKind;

    fn kind(name: &str, input: &str) -> ToolKind {
        classify(name, input)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .kind
    }

    #[test]
    fn near_misses_and_reads_are_other() {
        for name in [
            "bash_output",
            "read",
            "functions.read",
            "read_file",
            "mcp__x__y",
            "mcp__github__create_issue",
            "grep",
            "shellcheck",
            "functions.functions.bash",
            "xbash",
        ] {
            assert_eq!(
                kind(
                    name,
                    r#"{"command":"git commit --no-verify","file_path":"/a"}"#
                ),
                ToolKind::Other,
                "{name}"
            );
        }
        assert_eq!(
            kind(
                "str_replace_editor",
                r#"{"command":"view","path":"/w/a.py"}"#
            ),
            ToolKind::Other
        );
    }

    #[test]
    fn a_servers_tool_is_read_by_its_own_name_when_its_input_fits() {
        let call = classify(
            "mcp__desktop-commander__execute_command",
            r#"{"command":"git commit -n -m x"}"#,
        )
        .unwrap();
        assert_eq!(call.kind, ToolKind::Shell);
        assert_eq!(call.command.as_deref(), Some("git commit -n -m x"));
        let call = classify(
            "mcp__filesystem__write_file",
            r#"{"path":".git/hooks/pre-commit","content":"exit 0"}"#,
        )
        .unwrap();
        assert_eq!(call.kind, ToolKind::Write);
        assert_eq!(call.targets[0].path, ".git/hooks/pre-commit");
        assert_eq!(
            kind("mcp__plugin_p_s__bash", r#"{"command":"ls"}"#),
            ToolKind::Shell
        );
        // The same names with other inputs are other tools.
        assert_eq!(
            kind("mcp__runner__shell", r#"{"script":"ls"}"#),
            ToolKind::Other
        );
        assert_eq!(
            kind("mcp__docs__write_file", r#"{"title":"x"}"#),
            ToolKind::Other
        );
    }

    #[test]
    fn argv_apply_patch_is_a_write_of_its_files() {
        let patch =
            "*** Begin Patch\n*** Update File: a.py\n*** Move to: b.py\n@@\n-x\n+y\n*** End Patch";
        for name in [
            "shell",
            "local_shell",
            "apply_patch",
            "functions.apply_patch",
        ] {
            let input = serde_json::json!({"command": ["apply_patch", patch]}).to_string();
            let call = classify(name, &input).unwrap();
            assert_eq!(call.kind, ToolKind::Write, "{name}");
            let targets: Vec<&str> = call.targets.iter().map(|t| t.path.as_str()).collect();
            assert_eq!(targets, ["a.py", "b.py"], "{name}");
        }
    }

    #[test]
    fn a_patch_header_naming_no_file_makes_the_call_an_error() {
        let input = serde_json::json!({"command": "*** Begin Patch\n*** Add File: ok.txt\n+1\n*** Add File: \n+2\n*** End Patch"});
        let why = classify("apply_patch", &input.to_string()).unwrap_err();
        assert!(why.contains("names no file"), "{why}");
    }

    #[test]
    fn a_shell_without_a_command_and_a_write_without_a_file_are_errors() {
        assert!(
            classify("bash", "{}")
                .unwrap_err()
                .contains("no command string")
        );
        assert!(
            classify("shell", r#"{"command":["git",1]}"#)
                .unwrap_err()
                .contains("not a string")
        );
        assert!(
            classify("write_file", r#"{"content":"x"}"#)
                .unwrap_err()
                .contains("names no file")
        );
        assert!(
            classify("edit", r#"{"input":"no headers here"}"#)
                .unwrap_err()
                .contains("names no file")
        );
        assert!(
            classify("ast_edit", r#"{"paths":["a",2]}"#)
                .unwrap_err()
                .contains("not a string")
        );
    }

    #[test]
    fn a_shell_call_runs_in_the_folder_its_input_names() {
        let command = |input: &str| classify("bash", input).unwrap().command.unwrap();
        assert_eq!(
            command(r#"{"command":"rm -rf .tama","cwd":"/home/u"}"#),
            "cd /home/u && rm -rf .tama"
        );
        assert_eq!(
            classify("exec_command", r#"{"cmd":"ls","workdir":"/a b"}"#)
                .unwrap()
                .command
                .unwrap(),
            "cd '/a b' && ls"
        );
        assert_eq!(command(r#"{"command":"ls","cwd":"~"}"#), "cd ~ && ls");
        assert_eq!(
            command(r#"{"command":"ls","cwd":"@~/x y"}"#),
            "cd ~/'x y' && ls"
        );
        assert_eq!(command(r#"{"command":"ls","cwd":""}"#), "ls");
        let call = classify(
            "shell",
            r#"{"command":["apply_patch","*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch"],"workdir":"/w"}"#,
        )
        .unwrap();
        assert_eq!(call.targets[0].path, "/w/a.txt");
    }
}
