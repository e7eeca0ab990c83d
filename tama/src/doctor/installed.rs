//! Tama's entries in a harness config, each run as the harness would run it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{Finding, Scope};
use tama_adapters::setup::Harness;

/// One handler of Tama's in a harness config.
pub struct Installed {
    pub harness: Harness,
    pub config: PathBuf,
    /// The harness's event, e.g. `PreToolUse`.
    pub event: String,
    pub command: String,
    pub timeout: Duration,
}

/// What a harness made of one answer.
#[derive(Debug, PartialEq, Eq)]
enum Reading {
    Block,
    Pass,
    /// Neither: the harness reports a failed hook and carries on.
    FailedHook(String),
}

impl Installed {
    /// Tama's handlers in every harness config under `home`.
    pub fn find(home: &Path) -> Vec<Installed> {
        let mut found = Vec::new();
        for harness in tama_adapters::ALL.iter().copied().filter(|h| !h.served()) {
            let config = harness.config_path(home);
            let Ok(text) = std::fs::read_to_string(&config) else {
                continue;
            };
            let Ok(root) = serde_json::from_str::<Value>(&text) else {
                continue;
            };
            let Some(events) = root.get("hooks").and_then(Value::as_object) else {
                continue;
            };
            for (event, groups) in events {
                for handler in groups
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|g| g.get("hooks")?.as_array())
                    .flatten()
                {
                    if !tama_adapters::setup::runs_tama(handler, Path::new("/"), "run-hook") {
                        continue;
                    }
                    let Some(command) = handler.get("command").and_then(Value::as_str) else {
                        continue;
                    };
                    let timeout = handler
                        .get("timeout")
                        .and_then(Value::as_f64)
                        .filter(|t| *t > 0.0)
                        .unwrap_or(60.0);
                    found.push(Installed {
                        harness,
                        config: config.clone(),
                        event: event.clone(),
                        command: command.to_string(),
                        timeout: Duration::from_secs_f64(timeout),
                    });
                }
            }
        }
        found
    }

    pub fn findings(&self, scope: &Scope) -> Vec<Finding> {
        let name = self.harness.name();
        let check = format!("{name} hook {}", self.event);
        let mut findings = vec![self.program_finding(&check, &scope.tama)];
        // A call Tama lets through, and one it refuses, on this event.
        let (ordinary, refused) = match self.event.as_str() {
            "PreToolUse" => (
                Some(("an ordinary command", self.payload("ls -la"))),
                refuses_bypass(scope.registry.as_deref()).then(|| {
                    (
                        "a --no-verify commit",
                        self.payload("git commit --no-verify -m doctor"),
                    )
                }),
            ),
            "Stop" => (
                Some(("a stop with no open work", self.stop_payload())),
                None,
            ),
            _ => (None, None),
        };
        let mut probes: Vec<(String, String, Value, bool)> = Vec::new();
        if let Some((what, payload)) = &ordinary {
            probes.push((
                what.to_string(),
                self.command.clone(),
                payload.clone(),
                false,
            ));
        }
        if let Some((what, payload)) = refused {
            probes.push((what.to_string(), self.command.clone(), payload, true));
        }
        // The same call is refused when `tama` ends without an answer.
        if let (Some((what, payload)), Some(command)) = (ordinary, self.without_tama()) {
            let what = format!("{what} when tama ends without an answer");
            probes.push((what, command, payload, true));
        }
        for (what, command, payload, refuse) in probes {
            findings.push(match self.probe(&command, &payload) {
                Err(why) => Finding::fail(
                    &check,
                    format!("running `{}` failed: {why}", self.command),
                    format!("tama setup {name}"),
                ),
                Ok(reading) => match (reading, refuse) {
                    (Reading::Block, true) => Finding::ok(
                        &check,
                        format!("{name} reads the answer to {what} as a block"),
                    ),
                    (Reading::Pass, false) => Finding::ok(
                        &check,
                        format!("{name} reads the answer to {what} as a pass"),
                    ),
                    (reading, _) => Finding::fail(
                        &check,
                        format!(
                            "{name} would read the answer to {what} as {reading:?}, not as a {}",
                            if refuse { "block" } else { "pass" }
                        ),
                        format!("tama setup {name}; then tama doctor again"),
                    ),
                },
            });
        }
        findings
    }

    /// The `tama` the entry runs is this one.
    fn program_finding(&self, check: &str, tama: &Path) -> Finding {
        let program = tama_adapters::setup::command_words(&self.command)
            .into_iter()
            .next()
            .unwrap_or_default();
        let resolved = std::fs::canonicalize(&program).unwrap_or_else(|_| PathBuf::from(&program));
        let name = self.harness.name();
        if resolved == tama {
            return Finding::ok(check, format!("{} runs this tama", self.config.display()));
        }
        let which = match Command::new(&resolved).arg("--version").output() {
            Ok(out) if out.status.success() => {
                String::from_utf8_lossy(&out.stdout).trim().to_string()
            }
            _ => "a program that does not start".into(),
        };
        Finding::fail(
            check,
            format!(
                "{} runs {} ({which}), not this tama ({})",
                self.config.display(),
                resolved.display(),
                tama.display()
            ),
            format!("{} setup {name}", tama.display()),
        )
    }

    fn payload(&self, command: &str) -> Value {
        let mut payload = json!({
            "session_id": "tama-doctor",
            "transcript_path": "",
            "cwd": std::env::temp_dir(),
            "hook_event_name": "PreToolUse",
            "permission_mode": "default",
            "tool_name": "Bash",
            "tool_input": {"command": command},
        });
        if self.harness == codex() {
            payload["turn_id"] = "tama-doctor".into();
            payload["model"] = "tama-doctor".into();
            payload["tool_use_id"] = "tama-doctor".into();
        }
        payload
    }

    fn stop_payload(&self) -> Value {
        json!({
            "session_id": "tama-doctor",
            "transcript_path": "",
            "cwd": std::env::temp_dir(),
            "hook_event_name": "Stop",
            "stop_hook_active": false,
        })
    }

    /// The entry's command with its `tama` swapped for a program that does
    /// not exist, as when `tama` ends without an answer; `None` when the
    /// command does not spell its `tama` as `tama setup` quotes it.
    fn without_tama(&self) -> Option<String> {
        let program = tama_adapters::setup::command_words(&self.command)
            .into_iter()
            .next()?;
        let quoted = tama_core::command::shell_quote(&program);
        let missing = tama_core::command::shell_quote("/nonexistent/tama-doctor/tama");
        self.command
            .contains(&quoted)
            .then(|| self.command.replace(&quoted, &missing))
    }

    /// Runs `command` as the harness would, in a scratch Tama and Oko
    /// home so the probe leaves no record and reads no real work.
    fn probe(&self, command: &str, payload: &Value) -> Result<Reading, String> {
        let scratch = tempdir().map_err(|e| format!("cannot make a scratch folder: {e}"))?;
        let mut child = Command::new("/bin/sh")
            .arg("-c")
            .arg(command)
            .env("TAMA_HOME", scratch.join("tama"))
            .env("OKO_HOME", scratch.join("oko"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| e.to_string())?;
        if let Some(mut stdin) = child.stdin.take() {
            let _ = stdin.write_all(payload.to_string().as_bytes());
        }
        let deadline = Instant::now() + self.timeout;
        while child.try_wait().map_err(|e| e.to_string())?.is_none() {
            if Instant::now() > deadline {
                let _ = child.kill();
                let _ = std::fs::remove_dir_all(&scratch);
                return Ok(Reading::FailedHook(format!(
                    "ran past the harness's {} s",
                    self.timeout.as_secs()
                )));
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let out = child.wait_with_output().map_err(|e| e.to_string())?;
        let _ = std::fs::remove_dir_all(&scratch);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        Ok(read_answer(
            self.harness,
            out.status.code(),
            &stdout,
            &stderr,
        ))
    }
}

/// How the harness reads an answer (see harness-protocols: Claude Code
/// §1.7, Codex §2.7): exit 2 with a reason on stderr blocks in both; exit 0
/// blocks only with a block JSON; Codex fails open on anything else.
fn read_answer(harness: Harness, code: Option<i32>, stdout: &str, stderr: &str) -> Reading {
    let json: Option<Value> = serde_json::from_str(stdout.trim()).ok();
    let text = |v: Option<&Value>| {
        v.and_then(Value::as_str)
            .is_some_and(|s| !s.trim().is_empty())
    };
    let blocks = json.as_ref().is_some_and(|v| {
        (v.get("decision").and_then(Value::as_str) == Some("block") && text(v.get("reason")))
            || (v
                .pointer("/hookSpecificOutput/permissionDecision")
                .and_then(Value::as_str)
                == Some("deny")
                && text(v.pointer("/hookSpecificOutput/permissionDecisionReason")))
            || v.get("continue") == Some(&Value::Bool(false))
    });
    match code {
        Some(2) if !stderr.trim().is_empty() => Reading::Block,
        Some(2) => Reading::FailedHook("exit 2 with nothing on stderr".into()),
        Some(0) if blocks => Reading::Block,
        Some(0) if harness == codex() && !stdout.trim().is_empty() && json.is_none() => {
            Reading::FailedHook("exit 0 with output that is not JSON".into())
        }
        Some(0) => Reading::Pass,
        Some(code) => Reading::FailedHook(format!(
            "exit {code}, which {} reads as a failed hook and runs the tool",
            harness.name()
        )),
        None => Reading::FailedHook("ended by a signal".into()),
    }
}

/// Codex, whose strict reading of a hook's answer the doctor mirrors.
fn codex() -> Harness {
    Harness(&tama_adapters::codex::Codex)
}

/// Whether the registry in use refuses a `--no-verify` commit.
pub(super) fn refuses_bypass(explicit: Option<&Path>) -> bool {
    tama_core::registry::Loaded::select(explicit).is_ok_and(|loaded| {
        loaded.registry.events.iter().any(|(key, hooks)| {
            key.starts_with("pre_tool_use")
                && hooks.hooks.iter().any(|h| h.id == "block-git-hook-bypass")
        })
    })
}

fn tempdir() -> std::io::Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!(
        "tama-doctor-{}-{}",
        std::process::id(),
        tama_core::clock::now_ms()
    ));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codex_reads_exit_one_as_a_failed_hook() {
        let block = r#"{"decision":"block","reason":"no"}"#;
        assert_eq!(read_answer(codex(), Some(0), block, ""), Reading::Block);
        assert!(matches!(
            read_answer(codex(), Some(1), block, "why"),
            Reading::FailedHook(_)
        ));
        assert_eq!(
            read_answer(Harness::named("claude").unwrap(), Some(2), block, "why"),
            Reading::Block
        );
        assert_eq!(read_answer(codex(), Some(0), "", ""), Reading::Pass);
        assert!(matches!(
            read_answer(codex(), Some(2), "", ""),
            Reading::FailedHook(_)
        ));
    }
}
