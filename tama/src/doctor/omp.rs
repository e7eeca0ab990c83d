//! Tama's oh-my-pi extension as installed: the shell and adapter are the
//! ones this `tama` installs, the engine they start is this `tama`, and that
//! engine refuses a `--no-verify` commit when asked the way the adapter asks.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

use super::{Finding, Scope};
use tama_adapters::omp::{ADAPTER, Layout, SHELL};

/// How long the installed engine may take to answer one dispatch.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(20);
const FIX: &str = "tama setup omp, then /tama_reload_hook_runtime in every running oh-my-pi";

/// The findings for oh-my-pi, when its extension folder holds Tama's shell.
pub fn findings(scope: &Scope) -> Vec<Finding> {
    let layout = Layout::under(&scope.home);
    let shell = layout.extensions.join(SHELL.0);
    if !shell.exists() {
        return Vec::new();
    }
    let mut findings = vec![same_as_installed("omp extension", &shell, SHELL.1)];
    let stale: Vec<&str> = ADAPTER
        .iter()
        .filter(|(name, text)| {
            std::fs::read(layout.adapter.join(name)).map_or(true, |bytes| bytes != text.as_bytes())
        })
        .map(|(name, _)| *name)
        .collect();
    findings.push(if stale.is_empty() {
        Finding::ok(
            "omp adapter",
            format!(
                "{} holds this tama's adapter {}",
                layout.adapter.display(),
                digest(ADAPTER[0].1)
            ),
        )
    } else {
        Finding::fail(
            "omp adapter",
            format!(
                "{} in {} differ from this tama's (a stale adapter)",
                stale.join(", "),
                layout.adapter.display()
            ),
            FIX,
        )
    });
    let engine = std::fs::canonicalize(&layout.engine).ok();
    findings.push(match engine {
        Some(engine) if engine == scope.tama => Finding::ok(
            "omp engine",
            format!("{} is this tama", layout.engine.display()),
        ),
        Some(engine) => Finding::fail(
            "omp engine",
            format!(
                "{} is {}, not this tama ({})",
                layout.engine.display(),
                engine.display(),
                scope.tama.display()
            ),
            FIX,
        ),
        None => Finding::fail(
            "omp engine",
            format!("{} is missing", layout.engine.display()),
            FIX,
        ),
    });
    if super::installed::refuses_bypass(scope.registry.as_deref()) {
        findings.push(probe(&layout.engine));
    }
    findings
}

fn same_as_installed(check: &str, path: &Path, text: &str) -> Finding {
    match std::fs::read(path) {
        Ok(bytes) if bytes == text.as_bytes() => {
            Finding::ok(check, format!("{} is this tama's", path.display()))
        }
        Ok(_) => Finding::fail(
            check,
            format!("{} differs from this tama's", path.display()),
            FIX,
        ),
        Err(err) => Finding::fail(check, format!("cannot read {}: {err}", path.display()), FIX),
    }
}

fn digest(text: &str) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(text.as_bytes()))
}

/// Asks the installed engine, as the adapter does, to decide a `--no-verify` commit.
fn probe(engine: &Path) -> Finding {
    let check = "omp engine answer";
    let scratch = std::env::temp_dir().join(format!("tama-doctor-omp-{}", std::process::id()));
    let spawned = Command::new(engine)
        .args(["run-hook", "--serve", "omp"])
        .env("TAMA_HOME", scratch.join("tama"))
        .env("OKO_HOME", scratch.join("oko"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let mut child = match spawned {
        Ok(child) => child,
        Err(err) => {
            return Finding::fail(
                check,
                format!("{} does not start: {err}", engine.display()),
                FIX,
            );
        }
    };
    let (send, answer) = mpsc::channel();
    if let Some(stdout) = child.stdout.take() {
        std::thread::spawn(move || {
            for frame in BufReader::new(stdout)
                .lines()
                .map_while(Result::ok)
                .filter_map(|l| serde_json::from_str::<Value>(&l).ok())
            {
                if frame.get("id") == Some(&json!("doctor")) {
                    let _ = send.send(frame);
                    return;
                }
            }
        });
    }
    let request = json!({"id": "doctor", "op": "dispatch", "event": "pre_tool_use:bash", "payload": {
        "session_id": "tama-doctor", "tool_name": "bash", "tool_input": {"command": "git commit --no-verify -m doctor"}}});
    if let Some(mut stdin) = child.stdin.take() {
        let _ = writeln!(stdin, "{request}");
        let reply = answer.recv_timeout(ANSWER_TIMEOUT);
        drop(stdin);
        let _ = child.wait();
        let _ = std::fs::remove_dir_all(&scratch);
        return match reply {
            Ok(reply)
                if reply.pointer("/result/decision").and_then(Value::as_str) == Some("block") =>
            {
                Finding::ok(check, "the installed engine refuses a --no-verify commit")
            }
            Ok(reply) => Finding::fail(
                check,
                format!("the installed engine answered a --no-verify commit with {reply}"),
                FIX,
            ),
            Err(_) => Finding::fail(
                check,
                format!(
                    "the installed engine did not answer within {} s",
                    ANSWER_TIMEOUT.as_secs()
                ),
                FIX,
            ),
        };
    }
    let _ = child.kill();
    Finding::fail(check, "cannot write to the installed engine", FIX)
}
