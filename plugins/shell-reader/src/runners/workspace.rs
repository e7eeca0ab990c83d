//! Files an editor or a development environment runs commands from when a
//! folder is opened or its container is made, with no one asking: VS Code's
//! tasks (`"runOn": "folderOpen"`), a dev container's lifecycle commands
//! (`initializeCommand` runs on the machine itself) and Gitpod's tasks.

use crate::interpreters::quoted;
use crate::prelude::*;
use serde_json::Value;

/// The shell commands of the file at `path` (named `name`), or `None` when
/// it is none of these files.
pub fn commands(path: &str, name: &str, content: &str) -> Option<Vec<String>> {
    let folder = path
        .strip_suffix(name)
        .map(|folder| folder.trim_end_matches('/'))
        .map(|folder| folder.rsplit_once('/').map_or(folder, |(_, last)| last));
    match (folder, name) {
        (Some(".vscode"), "tasks.json") => Some(json_commands(content, vscode_tasks)),
        (Some(".devcontainer"), "devcontainer.json") | (_, ".devcontainer.json") => {
            Some(json_commands(content, lifecycle_commands))
        }
        (_, ".gitpod.yml" | ".gitpod.yaml") => Some(gitpod_tasks(content)),
        _ => None,
    }
}

/// `read`'s commands of `content` read as JSON with comments and trailing
/// commas, as both files allow; every string of a text that still is not
/// JSON (an edit's new text), as a command.
fn json_commands(content: &str, read: fn(&Value, &mut Vec<String>)) -> Vec<String> {
    let mut found = Vec::new();
    match serde_json::from_str::<Value>(&plain_json(content)) {
        Ok(value) => read(&value, &mut found),
        Err(_) => found = super::task_files::value_strings(content),
    }
    found
}

/// Each task's `command` with its `args`, also in a task's `linux`, `osx`
/// or `windows` part and at the top of the file.
fn vscode_tasks(file: &Value, found: &mut Vec<String>) {
    let tasks = file.get("tasks").and_then(Value::as_array);
    for task in core::iter::once(file).chain(tasks.into_iter().flatten()) {
        for part in ["linux", "osx", "windows"]
            .iter()
            .filter_map(|os| task.get(os))
            .chain(core::iter::once(task))
        {
            let Some(command) = part.get("command").and_then(Value::as_str) else {
                continue;
            };
            let args = part.get("args").and_then(Value::as_array);
            let words = args.into_iter().flatten().filter_map(|arg| {
                arg.as_str()
                    .or_else(|| arg.get("value").and_then(Value::as_str))
            });
            let mut text = command.to_owned();
            for word in words {
                text.push(' ');
                text.push_str(&quoted(word));
            }
            found.push(text);
        }
    }
}

/// A dev container's `…Command` entries: a string is shell text, a list
/// a program and its arguments, an object several commands run side by
/// side.
fn lifecycle_commands(file: &Value, found: &mut Vec<String>) {
    const KEYS: &[&str] = &[
        "initializeCommand",
        "onCreateCommand",
        "updateContentCommand",
        "postCreateCommand",
        "postStartCommand",
        "postAttachCommand",
    ];
    fn command(value: &Value, found: &mut Vec<String>) {
        match value {
            Value::String(text) => found.push(text.clone()),
            Value::Array(words) => found.push(
                words
                    .iter()
                    .filter_map(Value::as_str)
                    .map(quoted)
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            Value::Object(commands) => commands.values().for_each(|c| command(c, found)),
            _ => {}
        }
    }
    for key in KEYS {
        if let Some(value) = file.get(key) {
            command(value, found);
        }
    }
}

/// Gitpod's tasks: `before`, `init` and `command`, each a line or a block.
fn gitpod_tasks(yaml: &str) -> Vec<String> {
    ["before", "init", "command"]
        .iter()
        .flat_map(|key| super::task_files::yaml_commands(yaml, key, false))
        .collect()
}

/// `text` without `//` and `/* */` comments and without a comma before a
/// closing bracket, outside strings: JSON with comments, which VS Code and
/// dev containers read. Written here because the crates that read it need
/// `std`, which the gates are built without.
fn plain_json(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                '\\' => out.extend(chars.next()),
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match (c, chars.peek()) {
            ('"', _) => {
                in_string = true;
                out.push(c);
            }
            ('/', Some('/')) => while chars.next_if(|c| *c != '\n').is_some() {},
            ('/', Some('*')) => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            (']' | '}', _) => {
                let kept = out.trim_end().len();
                if out[..kept].ends_with(',') {
                    out.truncate(kept - 1);
                }
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::commands;

    #[test]
    fn vscode_tasks_dev_containers_and_gitpod() {
        let tasks = r#"{
            // Runs when the folder opens.
            "version": "2.0.0",
            "tasks": [
                {"label": "a", "type": "shell", "command": "rm", "args": ["-rf", {"value": "~/.t x"}],
                 "runOptions": {"runOn": "folderOpen"},},
                {"label": "b", "command": "make", "linux": {"command": "ls /*x*/"}},
            ],
        }"#;
        assert_eq!(
            commands("/p/.vscode/tasks.json", "tasks.json", tasks).unwrap(),
            ["rm '-rf' '~/.t x'", "ls /*x*/", "make"]
        );
        assert_eq!(commands("/p/tasks.json", "tasks.json", tasks), None);
        let container = r#"{"image": "x", /* c */ "postCreateCommand": ["npm", "ci"],
            "postStartCommand": {"a": "make", "b": ["ls", "-l"]}, "initializeCommand": "id"}"#;
        assert_eq!(
            commands(
                "/p/.devcontainer/devcontainer.json",
                "devcontainer.json",
                container
            )
            .unwrap(),
            ["id", "'npm' 'ci'", "make", "'ls' '-l'"]
        );
        let gitpod = "tasks:\n  - init: npm ci\n    command: |\n      npm start\n";
        assert_eq!(
            commands("/p/.gitpod.yml", ".gitpod.yml", gitpod).unwrap(),
            ["npm ci", "npm start"]
        );
    }
}
