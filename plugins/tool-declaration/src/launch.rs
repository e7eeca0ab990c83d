//! oh-my-pi's tools that start programs: `hub`'s `start` runs one
//! (`application`, `args`, `env`, `cwd`) and its `send` types text into one
//! it started (`src/tools/hub/index.ts`); `debug`'s `launch` runs `program`
//! with `args` in `cwd` under a debugger (`src/tools/debug.ts`). Each is read
//! as the shell command that does the same; their other operations run
//! nothing.

use crate::classify::quote;
use crate::prelude::*;
use serde_json::{Map, Value};

/// What a call of the tool `name` runs, as shell text; `Ok(None)` when it
/// runs nothing.
pub fn command(name: &str, fields: &Map<String, Value>) -> Result<Option<String>, String> {
    let text = |key: &str| fields.get(key).and_then(Value::as_str);
    let (operation, program) = match name {
        "debug" => (text("action"), "program"),
        _ => (text("op"), "application"),
    };
    match operation {
        Some("start" | "launch") => {
            let application = text(program)
                .filter(|application| !application.is_empty())
                .ok_or_else(|| format!("`{name}` starts no program: `{program}` is missing"))?;
            let mut words = Vec::new();
            if let Some(folder) = text("cwd").filter(|folder| !folder.is_empty()) {
                words.push(format!("cd {} &&", quote(folder)));
            }
            if let Some(Value::Object(env)) = fields.get("env") {
                words.push("env".to_owned());
                for (variable, value) in env {
                    let value = value
                        .as_str()
                        .ok_or_else(|| format!("`{name}` has an env value that is not a string"))?;
                    words.push(quote(&format!("{variable}={value}")));
                }
            }
            words.push(quote(application));
            match fields.get("args") {
                None => {}
                Some(Value::Array(args)) => {
                    for arg in args {
                        let arg = arg.as_str().ok_or_else(|| {
                            format!("`{name}` has an argument that is not a string")
                        })?;
                        words.push(quote(arg));
                    }
                }
                Some(_) => return Err(format!("`{name}` has `args` that are not a list")),
            }
            Ok(Some(words.join(" ")))
        }
        // Typed into the program, which may be a shell.
        Some("send") if name == "hub" && fields.contains_key("name") => {
            Ok(text("text").map(str::to_owned))
        }
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::command;
    use serde_json::{Value, json};

    fn read(input: Value) -> Result<Option<String>, String> {
        command("hub", input.as_object().unwrap())
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
        let debug = json!({"action": "launch", "program": "./x", "args": ["-n"], "cwd": "/r"});
        assert_eq!(
            command("debug", debug.as_object().unwrap())
                .unwrap()
                .unwrap(),
            "cd '/r' && './x' '-n'"
        );
        let breakpoint = json!({"action": "set_breakpoint", "file": "a.rs", "line": 3});
        assert_eq!(
            command("debug", breakpoint.as_object().unwrap()).unwrap(),
            None
        );
        assert!(read(json!({"op": "start", "application": "x", "args": [1]})).is_err());
        let why =
            read(json!({"op": "start", "application": "x", "env": {"PORT": 80}})).unwrap_err();
        assert!(why.starts_with("`hub` has an env value"), "{why}");
    }
}
