//! oh-my-pi's `hub`: its `start` runs a program (`application`, `args`,
//! `env`, `cwd`) and its `send` types text into one it started
//! (`src/tools/hub/index.ts`). Each is read as the shell command that does
//! the same; its other operations run nothing.

use crate::prelude::*;
use serde_json::{Map, Value};

/// What a `hub` call runs, as shell text; `Ok(None)` when it runs nothing.
pub fn command(fields: &Map<String, Value>) -> Result<Option<String>, String> {
    let text = |key: &str| fields.get(key).and_then(Value::as_str);
    match text("op") {
        Some("start") => {
            let application = text("application")
                .filter(|application| !application.is_empty())
                .ok_or("hub `start` names no application")?;
            let mut words = Vec::new();
            if let Some(folder) = text("cwd").filter(|folder| !folder.is_empty()) {
                words.push(format!("cd {} &&", quote(folder)));
            }
            if let Some(Value::Object(env)) = fields.get("env") {
                words.push("env".to_owned());
                for (name, value) in env {
                    let value = value
                        .as_str()
                        .ok_or("hub `start` has an env value that is not a string")?;
                    words.push(quote(&format!("{name}={value}")));
                }
            }
            words.push(quote(application));
            match fields.get("args") {
                None => {}
                Some(Value::Array(args)) => {
                    for arg in args {
                        let arg = arg
                            .as_str()
                            .ok_or("hub `start` has an argument that is not a string")?;
                        words.push(quote(arg));
                    }
                }
                Some(_) => return Err("hub `start` has `args` that are not a list".to_owned()),
            }
            Ok(Some(words.join(" ")))
        }
        // Typed into the program, which may be a shell.
        Some("send") if fields.contains_key("name") => Ok(text("text").map(str::to_owned)),
        _ => Ok(None),
    }
}

fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', "'\\''"))
}

#[cfg(test)]
mod tests {
    use super::command;
    use serde_json::{Value, json};

    fn read(input: Value) -> Result<Option<String>, String> {
        command(input.as_object().unwrap())
    }

    #[test]
    fn a_started_program_and_sent_text_are_commands() {
        assert_eq!(
            read(json!({"op": "start", "name": "w", "application": "bash", "args": ["-c", "rm -rf ~/.tama"], "env": {"A": "1"}, "cwd": "/r"})).unwrap().unwrap(),
            "cd '/r' && env 'A=1' 'bash' '-c' 'rm -rf ~/.tama'"
        );
        assert_eq!(
            read(json!({"op": "send", "name": "w", "text": "git commit -n\n"}))
                .unwrap()
                .unwrap(),
            "git commit -n\n"
        );
        assert_eq!(
            read(json!({"op": "send", "to": "all", "message": "hi"})).unwrap(),
            None
        );
        assert_eq!(read(json!({"op": "logs", "name": "w"})).unwrap(), None);
        assert!(read(json!({"op": "start", "name": "w"})).is_err());
        assert!(read(json!({"op": "start", "application": "x", "args": [1]})).is_err());
    }
}
