//! Whether Codex trusts Tama's hooks. Codex runs a hook only after a person
//! trusted it (in `/hooks`), and skips an untrusted one without a word, so an
//! untrusted Tama hook is a Tama that silently decides nothing.
//!
//! Codex alone knows the hash it trusts a hook by, so Tama asks Codex: its
//! `app-server` answers `hooks/list` with each hook's key, current hash and
//! trust status. `tama setup codex --trust` records Codex's own current hash
//! for Tama's hooks under `[hooks.state."<key>"]` in `~/.codex/config.toml`,
//! the way `/hooks` does.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};
use tama_adapters::codex_env;

use super::{Finding, Scope};

/// How long Codex's app-server may take to list its hooks.
const LIST_TIMEOUT: Duration = Duration::from_secs(20);

/// One of Tama's hooks as Codex sees it.
#[derive(Debug, Clone)]
pub struct CodexHook {
    pub key: String,
    pub current_hash: String,
    pub trusted: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum TrustError {
    #[error("cannot start {program} app-server: {source}")]
    Start {
        program: String,
        source: std::io::Error,
    },
    #[error("{program} app-server did not list its hooks within {} s", LIST_TIMEOUT.as_secs())]
    Timeout { program: String },
    #[error("{program} app-server answered hooks/list with {answer}")]
    Answer { program: String, answer: String },
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} is not TOML: {source}; it was left untouched", path.display())]
    NotToml {
        path: PathBuf,
        source: toml_edit::TomlError,
    },
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The finding for Codex's trust, when Codex's config holds Tama's hooks.
pub fn finding(scope: &Scope) -> Option<Finding> {
    let installed = super::Installed::find(&scope.home);
    if !installed
        .iter()
        .any(|i| i.harness == tama_adapters::setup::Harness(&tama_adapters::codex::Codex))
    {
        return None;
    }
    let check = "codex trust";
    let Some(codex) = scope.codex.clone().or_else(|| on_path("codex")) else {
        return Some(Finding::fail(
            check,
            "codex is not on PATH, so its trust in Tama's hooks cannot be read",
            "tama doctor --codex <path to codex>",
        ));
    };
    Some(match tama_hooks(&codex, &scope.home) {
        Err(err) => Finding::fail(
            check,
            err.to_string(),
            "start codex once, then tama doctor again",
        ),
        Ok(hooks) if hooks.is_empty() => Finding::fail(
            check,
            "codex lists none of Tama's hooks",
            "tama setup codex",
        ),
        Ok(hooks) => match hooks
            .iter()
            .filter(|h| !h.trusted)
            .map(|h| h.key.as_str())
            .collect::<Vec<_>>()
        {
            untrusted if untrusted.is_empty() => Finding::ok(
                check,
                format!("codex trusts all {} of Tama's hooks", hooks.len()),
            ),
            untrusted => Finding::fail(
                check,
                format!("codex skips {}, which nobody trusted", untrusted.join(", ")),
                "tama setup codex --trust (or trust them in codex's /hooks)",
            ),
        },
    })
}

/// Tama's hooks as the Codex at `codex` lists them for `home`.
pub fn tama_hooks(codex: &Path, home: &Path) -> Result<Vec<CodexHook>, TrustError> {
    let program = codex.display().to_string();
    let mut child = Command::new(codex)
        .arg("app-server")
        .env("HOME", home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|source| TrustError::Start {
            program: program.clone(),
            source,
        })?;
    let requests = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"clientInfo": {"name": "tama", "version": env!("CARGO_PKG_VERSION")}}}),
        json!({"jsonrpc": "2.0", "method": "initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "hooks/list", "params": {}}),
    ];
    let (send, answer) = mpsc::channel();
    if let Some(stdout) = child.stdout.take() {
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Ok(frame) = serde_json::from_str::<Value>(&line)
                    && frame.get("id") == Some(&json!(2))
                {
                    let _ = send.send(frame);
                    return;
                }
            }
        });
    }
    if let Some(mut stdin) = child.stdin.take() {
        for request in requests {
            let _ = writeln!(stdin, "{request}");
        }
        let reply = answer.recv_timeout(LIST_TIMEOUT);
        drop(stdin);
        let _ = child.kill();
        let _ = child.wait();
        let reply = reply.map_err(|_| TrustError::Timeout {
            program: program.clone(),
        })?;
        return hooks_of(&reply).ok_or_else(|| TrustError::Answer {
            program,
            answer: reply.to_string(),
        });
    }
    let _ = child.kill();
    Err(TrustError::Timeout { program })
}

fn hooks_of(reply: &Value) -> Option<Vec<CodexHook>> {
    let groups = reply.pointer("/result/data")?.as_array()?;
    let mut hooks = Vec::new();
    for hook in groups
        .iter()
        .filter_map(|g| g.get("hooks")?.as_array())
        .flatten()
    {
        if !tama_adapters::setup::runs_tama(hook, Path::new("/"), "run-hook") {
            continue;
        }
        hooks.push(CodexHook {
            key: hook.get("key")?.as_str()?.to_string(),
            current_hash: hook.get("currentHash")?.as_str()?.to_string(),
            trusted: hook.get("trustStatus").and_then(Value::as_str) == Some("trusted"),
        });
    }
    Some(hooks)
}

/// Records Codex's current hash of each of `hooks` as trusted in
/// `~/.codex/config.toml`, keeping everything else in the file.
pub fn record_trust(home: &Path, hooks: &[CodexHook]) -> Result<PathBuf, TrustError> {
    let path = codex_env::config_path(home);
    let text = match codex_env::read_config(&path) {
        Ok(text) => text,
        Err(source) => return Err(TrustError::Read { path, source }),
    };
    let mut doc: toml_edit::DocumentMut = text.parse().map_err(|source| TrustError::NotToml {
        path: path.clone(),
        source,
    })?;
    let hooks_table = doc
        .entry("hooks")
        .or_insert(toml_edit::table())
        .as_table_mut();
    let state = hooks_table.map(|t| {
        t.set_implicit(true);
        t.entry("state").or_insert(toml_edit::table())
    });
    if let Some(state) = state.and_then(toml_edit::Item::as_table_mut) {
        state.set_implicit(true);
        for hook in hooks {
            let entry = state.entry(&hook.key).or_insert(toml_edit::table());
            if let Some(entry) = entry.as_table_mut() {
                entry.insert("trusted_hash", toml_edit::value(hook.current_hash.clone()));
            }
        }
    }
    codex_env::write_config(&path, &doc.to_string()).map_err(|source| TrustError::Write {
        path: path.clone(),
        source,
    })?;
    Ok(path)
}

/// The first `name` on PATH.
pub fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}
