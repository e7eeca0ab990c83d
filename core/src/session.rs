//! The session record a one-event run publishes, so other tools can see
//! which agents and sessions Tama decides for and what it decided last; and
//! the session's override, which only the operator's `tama sessions
//! override` writes.

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

use std::fs::{File, OpenOptions};
use std::os::unix::fs::OpenOptionsExt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::control_key::{ControlKey, Purpose};
use crate::dispatch::Decision;
use crate::registry::Loaded;

pub const SCHEMA: &str = "ai.wisent.tama.session-control.v2";
/// How many recent decisions a record keeps.
const RECENT: usize = 20;
/// Longest a run waits for another to finish with a session's record.
const LOCK_WAIT: Duration = Duration::from_secs(2);

/// The session-control folder: `$TAMA_HOME/session-control`.
pub fn control_dir() -> PathBuf {
    crate::paths::tama_home().join("session-control")
}

/// The key that names a session's files: sha256 of agent and session.
pub fn control_key(agent: &str, session: &str) -> String {
    crate::registry::checksum::sha256_hex(format!("{agent}\0{session}").as_bytes())
}

/// `<controlKey>.session.json`.
pub fn record_path(key: &str) -> PathBuf {
    control_dir().join(format!("{key}.session.json"))
}

/// `<controlKey>.override.json`.
pub fn override_path(key: &str) -> PathBuf {
    control_dir().join(format!("{key}.override.json"))
}

/// Held while a session's record is read and rewritten: a run publishing
/// its decision, a capability counted down, the operator's grant. An
/// advisory lock on `$TAMA_HOME/locks/<controlKey>.lock`, released when dropped.
pub struct RecordLock(#[allow(dead_code)] File);

/// Takes the lock of the session with control key `key`, waiting at most
/// [`LOCK_WAIT`] for whoever holds it.
pub fn lock(key: &str) -> Result<RecordLock, String> {
    let dir = crate::paths::tama_home().join("locks");
    let path = dir.join(format!("{key}.lock"));
    crate::files::create_private_dir(&dir)
        .map_err(|e| format!("creating {}: {e}", dir.display()))?;
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .mode(0o600)
        .custom_flags(nix::libc::O_NOFOLLOW)
        .open(&path)
        .map_err(|e| format!("opening {}: {e}", path.display()))?;
    let until = Instant::now() + LOCK_WAIT;
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(RecordLock(file)),
            Err(std::fs::TryLockError::WouldBlock) if Instant::now() < until => {
                std::thread::sleep(Duration::from_millis(2))
            }
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(format!(
                    "{} stayed locked for {} s",
                    path.display(),
                    LOCK_WAIT.as_secs()
                ));
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(format!("locking {}: {e}", path.display()));
            }
        }
    }
}

/// The session record at `path` as JSON; `Null` when there is none.
pub fn read_record(path: &std::path::Path) -> Result<Value, String> {
    match crate::files::read_regular_to_string(path) {
        Ok(text) => serde_json::from_str(&text)
            .map_err(|e| format!("its record {} cannot be read: {e}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Value::Null),
        Err(e) => Err(format!("its record {} cannot be read: {e}", path.display())),
    }
}

/// Writes or updates `<controlKey>.session.json` for the decision's agent
/// and session. A run without a session id publishes nothing.
pub fn publish(registry: &Loaded, decision: &Decision, cwd: Option<&str>) -> std::io::Result<()> {
    let (Some(agent), Some(session)) =
        (decision.agent_id.as_deref(), decision.session_id.as_deref())
    else {
        return Ok(());
    };
    let key = control_key(agent, session);
    let _lock = lock(&key).map_err(std::io::Error::other)?;
    let path = record_path(&key);
    let previous = read_record(&path).unwrap_or(Value::Null);
    let now = humantime::format_rfc3339_millis(std::time::SystemTime::now()).to_string();
    let mut recent: Vec<Value> = previous
        .pointer("/semanticRuntime/recentEvents")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    recent.push(json!({
        "event": decision.event,
        "timestamp": now,
        "decision": decision.word(),
        "blockedHookId": decision.hook_id(),
        "reason": decision.reason(),
    }));
    let skip = recent.len().saturating_sub(RECENT);
    let record = json!({
        "schema": SCHEMA,
        "agentId": agent,
        "sessionId": session,
        "controlKey": key,
        "pid": std::os::unix::process::parent_id(),
        "cwd": cwd.unwrap_or_default(),
        "livenessMode": "process",
        "globallyDisabled": previous.get("globallyDisabled").and_then(Value::as_bool).unwrap_or(false),
        "disabledHookIds": previous.get("disabledHookIds").cloned().unwrap_or(json!([])),
        "enabledHookIds": previous.get("enabledHookIds").cloned().unwrap_or(json!([])),
        "runtime": {
            "loadedReleaseId": registry.registry.release_id,
            "catalogChecksum": registry.registry.catalog_checksum,
            "registeredHookCount": registry.registry.hook_ids().len(),
        },
        "semanticRuntime": {"recentEvents": recent.split_off(skip)},
        "updatedAt": now,
    });
    let mut record = record;
    if let (Some(capability), Some(fields)) = (
        previous.get("capability").filter(|c| !c.is_null()),
        record.as_object_mut(),
    ) {
        // The operator's grant, as it stands under the lock: a run keeps it as it is.
        fields.insert("capability".into(), capability.clone());
    }
    crate::files::write_whole(&path, record.to_string().as_bytes())
}

/// A session's override of which hooks run, as `tama sessions override`
/// writes it: bound to the session by its control key and tagged with the
/// control key, so a file anything else wrote or edited counts for nothing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Override {
    pub agent_id: String,
    pub session_id: String,
    pub control_key: String,
    /// When true only `enabledHookIds` run.
    pub globally_disabled: bool,
    pub disabled_hook_ids: Vec<String>,
    pub enabled_hook_ids: Vec<String>,
    pub issued_at: String,
    /// HMAC-SHA256, with the control key, over the record without this field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
}

impl Override {
    /// The record tagged with `key`.
    pub fn sealed(mut self, key: &ControlKey) -> Override {
        self.tag = Some(key.tag_hex(Purpose::Override, &[&self.untagged()]));
        self
    }

    #[allow(
        clippy::expect_used,
        reason = "a record of strings and numbers always serializes"
    )]
    fn untagged(&self) -> Vec<u8> {
        serde_json::to_vec(&Override {
            tag: None,
            ..self.clone()
        })
        .expect("an override serializes")
    }

    /// Why the record at `path` does not count for `agent`'s `session`, if it does not.
    fn refusal(&self, agent: &str, session: &str) -> Option<String> {
        let key = match ControlKey::read() {
            Ok(key) => key,
            Err(err) => return Some(format!("it cannot be authenticated: {err}")),
        };
        let authentic = self
            .tag
            .as_deref()
            .is_some_and(|tag| key.verifies_hex(Purpose::Override, &[&self.untagged()], tag));
        if !authentic {
            return Some(
                "it was not written by `tama sessions override`: its tag does not verify".into(),
            );
        }
        if self.agent_id != agent
            || self.session_id != session
            || self.control_key != control_key(agent, session)
        {
            return Some(format!(
                "it was written for agent {} session {}",
                self.agent_id, self.session_id
            ));
        }
        None
    }
}

/// The session's override when there is one that counts; `Err` says why the file there does not.
pub fn read_override(agent: &str, session: &str) -> Result<Option<Override>, String> {
    let path = override_path(&control_key(agent, session));
    let text = match crate::files::read_regular_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(format!(
                "the session's override {} was refused: it cannot be read: {e}",
                path.display()
            ));
        }
    };
    let refused = |why: String| {
        format!(
            "the session's override {} was refused: {why}",
            path.display()
        )
    };
    let record: Override = serde_json::from_str(&text)
        .map_err(|e| refused(format!("it is not an override record: {e}")))?;
    match record.refusal(agent, session) {
        None => Ok(Some(record)),
        Some(why) => Err(refused(why)),
    }
}

/// `base` with the session's override, `<controlKey>.override.json`, read
/// for each event. One that does not count changes nothing; why it does not
/// goes to `tama.log` and into the selection's refused records, which a
/// refusal of the event names.
pub fn selection_for(
    base: &crate::dispatch::Selection,
    agent: &str,
    session: Option<&str>,
) -> crate::dispatch::Selection {
    match session {
        None => base.clone(),
        Some(session) => with_override(base, session, read_override(agent, session)),
    }
}

/// `base` with `session`'s override as [`read_override`] read it, as
/// [`selection_for`] makes it.
pub fn with_override(
    base: &crate::dispatch::Selection,
    session: &str,
    read: Result<Option<Override>, String>,
) -> crate::dispatch::Selection {
    let mut selection = base.clone();
    match read {
        Ok(None) => {}
        Ok(Some(chosen)) => {
            selection.disabled.extend(chosen.disabled_hook_ids);
            if chosen.globally_disabled {
                selection.enabled = Some(chosen.enabled_hook_ids);
            }
        }
        Err(why) => {
            crate::log::write("session", &format!("session {session}: {why}"));
            selection.refused.push(why);
        }
    }
    selection
}
