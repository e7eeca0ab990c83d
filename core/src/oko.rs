//! Oko's local state, read by the host for the gates granted it.
//!
//! Oko keeps one folder per agent under `OKO_HOME` (default `~/.oko`):
//!
//! - `agents/<agent-id>/role.json`: `{"role": "supervisor"}` (or `executor`, ...)
//! - `agents/<agent-id>/work.json`: the executor work that agent handed out,
//!   `{"handedOut": [{"id": "T-1", "title": "...", "executor": "codex-2", "status": "open"}]}`;
//!   a status of `closed`, `done`, `cancelled`, `abandoned` or `merged` is
//!   over, any other (or none) is open.
//!
//! A missing file is no state. A file that exists but cannot be read or is
//! not JSON is an error naming the file, which the gate refuses on.

use std::path::PathBuf;

use crate::event::Event;
use crate::wasm::StateSource;

/// The state keys Oko serves, and the file each is read from.
const KEYS: &[(&str, &str)] = &[("oko.role", "role.json"), ("oko.work", "work.json")];

pub struct OkoState {
    home: PathBuf,
}

impl OkoState {
    /// Oko's folder: `OKO_HOME`, else `~/.oko`.
    pub fn from_env() -> Self {
        let home = std::env::var_os("OKO_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .unwrap_or_else(|| crate::paths::home().join(".oko"));
        OkoState { home }
    }
}

impl StateSource for OkoState {
    fn read(&self, key: &str, event: &Event) -> Result<Option<String>, String> {
        let Some((_, file)) = KEYS.iter().find(|(k, _)| *k == key) else {
            return Ok(None);
        };
        let Some(agent) = event.agent_id.as_deref() else {
            return Ok(None);
        };
        if agent.is_empty() || agent.contains('/') || agent == "." || agent == ".." {
            return Err(format!(
                "Oko state of agent {agent:?}: the agent id cannot name a folder"
            ));
        }
        let path = self.home.join("agents").join(agent).join(file);
        let text = match crate::files::read_regular_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("Oko state {} cannot be read: {e}", path.display())),
        };
        let value: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| format!("Oko state {} cannot be read: {e}", path.display()))?;
        Ok(Some(
            serde_json::json!({"source": path.display().to_string(), "value": value}).to_string(),
        ))
    }
}
