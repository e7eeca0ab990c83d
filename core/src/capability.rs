//! The session's capability: a grant the operator gave one session with
//! `tama sessions grant`, bound to the policy it was given under. Hook
//! commands get it, as JSON in `TAMA_CAPABILITY`, only when it is the
//! operator's (its tag verifies with the control key and it names the
//! command as its issuer), its binding (`sessionId`, `controlKey`,
//! `releaseId`, `catalogChecksum`) names this session and the loaded
//! registry, and its limits (`lifetime`, `expiresAt`, `remainingUses`) still
//! allow a use. Each event it is handed to uses one, counted down under the
//! session's record lock, so two events racing for the last use get one
//! between them. Otherwise hooks get no capability and `tama.log` says why.

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::control_key::{ControlKey, Purpose};
use crate::registry::Registry;

pub use crate::command::CAPABILITY_VAR as VAR;
/// The `issuedBy` of every grant Tama honours.
pub const ISSUER: &str = "tama sessions grant";
pub const SCHEMA_VERSION: u32 = 1;

/// A capability as the session record holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Capability {
    pub schema_version: u32,
    pub issued_by: String,
    /// Names this grant in records and refusals.
    pub nonce: String,
    pub session_id: String,
    pub control_key: String,
    pub release_id: Option<String>,
    pub catalog_checksum: Option<String>,
    pub lifetime: Lifetime,
    /// RFC 3339; past it the grant authorizes nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
    /// Events the grant may still be handed to; none means no count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remaining_uses: Option<u64>,
    pub grants: Vec<Grant>,
    /// HMAC-SHA256, with the control key, over the capability without this field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
}

/// How long a grant lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lifetime {
    /// One event.
    Invocation,
    /// Until its `expiresAt`, which it must have.
    Expiry,
    /// The session's, within its `expiresAt` and `remainingUses` when it has them.
    Session,
}

/// One tool the grant covers; no `actions` means every action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Grant {
    pub tool: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actions: Option<Vec<String>>,
}

impl Capability {
    /// The capability tagged with `key`.
    pub fn sealed(mut self, key: &ControlKey) -> Capability {
        self.tag = Some(key.tag_hex(Purpose::Capability, &[&self.untagged()]));
        self
    }

    /// The capability as JSON without its tag: what hooks are handed.
    #[allow(
        clippy::expect_used,
        reason = "a record of strings, numbers and lists always serializes"
    )]
    pub fn untagged(&self) -> Vec<u8> {
        serde_json::to_vec(&Capability {
            tag: None,
            ..self.clone()
        })
        .expect("a capability serializes")
    }

    /// Events it may still be handed to, `None` for no count.
    fn uses_left(&self) -> Option<u64> {
        match self.lifetime {
            Lifetime::Invocation => Some(self.remaining_uses.unwrap_or(1).min(1)),
            _ => self.remaining_uses,
        }
    }

    /// Why it may not be handed to this session's hooks now, if it may not.
    fn refusal(
        &self,
        key: &ControlKey,
        registry: &Registry,
        control_key: &str,
        session: &str,
    ) -> Result<(), String> {
        let authentic = self
            .tag
            .as_deref()
            .is_some_and(|tag| key.verifies_hex(Purpose::Capability, &[&self.untagged()], tag));
        if !authentic {
            return Err(format!(
                "capability {} was not written by `{ISSUER}`: its tag does not verify",
                self.nonce
            ));
        }
        if self.issued_by != ISSUER || self.schema_version != SCHEMA_VERSION {
            return Err(format!(
                "capability {} was issued by {:?} (schema {}), not by `{ISSUER}`",
                self.nonce, self.issued_by, self.schema_version
            ));
        }
        let bound = [
            ("sessionId", Some(self.session_id.as_str()), Some(session)),
            (
                "controlKey",
                Some(self.control_key.as_str()),
                Some(control_key),
            ),
            (
                "releaseId",
                self.release_id.as_deref(),
                registry.release_id.as_deref(),
            ),
            (
                "catalogChecksum",
                self.catalog_checksum.as_deref(),
                registry.catalog_checksum.as_deref(),
            ),
        ];
        for (name, granted, loaded) in bound {
            if name == "catalogChecksum" && loaded.is_none() {
                return Err("the loaded registry has no catalogChecksum to bind a grant to".into());
            }
            if granted != loaded {
                return Err(format!(
                    "the grant is bound to {name} {}, the loaded policy's is {}",
                    quoted(granted),
                    quoted(loaded)
                ));
            }
        }
        match (self.lifetime, &self.expires_at) {
            (Lifetime::Expiry, None) => {
                return Err(format!(
                    "capability {} has lifetime expiry but no expiresAt",
                    self.nonce
                ));
            }
            (_, Some(expires)) => match humantime::parse_rfc3339_weak(expires) {
                Err(_) => {
                    return Err(format!(
                        "capability {}: its expiresAt {expires:?} is not an ISO-8601 time",
                        self.nonce
                    ));
                }
                Ok(at) if at <= std::time::SystemTime::now() => {
                    return Err(format!("capability {} expired at {expires:?}", self.nonce));
                }
                Ok(_) => {}
            },
            _ => {}
        }
        if self.uses_left() == Some(0) {
            return Err(format!(
                "capability {} is spent: no uses remain",
                self.nonce
            ));
        }
        Ok(())
    }
}

fn quoted(value: Option<&str>) -> String {
    value.map_or_else(|| "null".into(), |v| Value::from(v).to_string())
}

/// The capability of `agent`'s `session` to hand its hook commands for one
/// event, one use of it counted: `Ok(None)` when the session holds none,
/// `Err` saying why the one it holds may not be handed (also in `tama.log`).
pub fn for_event(
    registry: &Registry,
    agent: &str,
    session: Option<&str>,
) -> Result<Option<String>, String> {
    let Some(session) = session else {
        return Ok(None);
    };
    let key = crate::session::control_key(agent, session);
    let path = crate::session::record_path(&key);
    let refused = |why: String| {
        crate::log::write(
            "capability",
            &format!("session {session}: no capability handed to its hooks: {why}"),
        );
        Err(format!("the session's capability was refused: {why}"))
    };
    // Most records hold no capability: those need no lock.
    match crate::session::read_record(&path) {
        Ok(record) if record.get("capability").is_none_or(Value::is_null) => return Ok(None),
        Ok(_) => {}
        Err(why) => return refused(why),
    }
    let _lock = match crate::session::lock(&key) {
        Ok(lock) => lock,
        Err(why) => return refused(why),
    };
    let mut record = match crate::session::read_record(&path) {
        Ok(record) => record,
        Err(why) => return refused(why),
    };
    let Some(held) = record.get("capability").filter(|c| !c.is_null()) else {
        return Ok(None);
    };
    let capability: Capability = match serde_json::from_value(held.clone()) {
        Ok(capability) => capability,
        Err(err) => return refused(format!("the grant is not a capability record: {err}")),
    };
    let control = match ControlKey::read() {
        Ok(control) => control,
        Err(err) => {
            return refused(format!(
                "capability {} cannot be authenticated: {err}",
                capability.nonce
            ));
        }
    };
    if let Err(why) = capability.refusal(&control, registry, &key, session) {
        return refused(why);
    }
    // JSON is UTF-8: nothing is replaced.
    let handed = String::from_utf8_lossy(&capability.untagged()).into_owned();
    if let Some(left) = capability.uses_left() {
        let counted = Capability {
            remaining_uses: Some(left - 1),
            ..capability
        }
        .sealed(&control);
        let counted = match serde_json::to_value(&counted) {
            Ok(counted) => counted,
            Err(err) => return refused(format!("its use cannot be counted: {err}")),
        };
        let Some(fields) = record.as_object_mut() else {
            return refused("the session record is not a JSON object".into());
        };
        fields.insert("capability".into(), counted);
        if let Err(err) = crate::files::write_whole(&path, record.to_string().as_bytes()) {
            return refused(format!(
                "its use cannot be counted in {}: {err}",
                path.display()
            ));
        }
    }
    Ok(Some(handed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control_key::KEY_LEN;

    fn registry() -> Registry {
        serde_json::from_value(serde_json::json!({"version": 1, "releaseId": "r1", "catalogChecksum": "c1", "events": {}})).unwrap()
    }

    fn capability(issued_by: &str) -> Capability {
        Capability {
            schema_version: SCHEMA_VERSION,
            issued_by: issued_by.into(),
            nonce: "n1".into(),
            session_id: "s1".into(),
            control_key: "k1".into(),
            release_id: Some("r1".into()),
            catalog_checksum: Some("c1".into()),
            lifetime: Lifetime::Session,
            expires_at: None,
            remaining_uses: None,
            grants: vec![Grant {
                tool: "bash".into(),
                actions: None,
            }],
            tag: None,
        }
    }

    #[test]
    fn only_a_tagged_grant_of_the_command_with_uses_left_is_handed() {
        let key = ControlKey::from_bytes([1; KEY_LEN]);
        let check = |c: &Capability| c.refusal(&key, &registry(), "k1", "s1");
        assert_eq!(check(&capability(ISSUER).sealed(&key)), Ok(()));
        assert!(
            check(&capability(ISSUER))
                .unwrap_err()
                .contains("its tag does not verify")
        );
        let other = capability("tama-desktop").sealed(&key);
        assert!(
            check(&other)
                .unwrap_err()
                .contains("was issued by \"tama-desktop\""),
            "{:?}",
            check(&other)
        );
        let spent = Capability {
            remaining_uses: Some(0),
            ..capability(ISSUER)
        }
        .sealed(&key);
        assert_eq!(
            check(&spent),
            Err("capability n1 is spent: no uses remain".into())
        );
        let no_expiry = Capability {
            lifetime: Lifetime::Expiry,
            ..capability(ISSUER)
        }
        .sealed(&key);
        assert!(
            check(&no_expiry)
                .unwrap_err()
                .contains("lifetime expiry but no expiresAt")
        );
        let once = Capability {
            lifetime: Lifetime::Invocation,
            ..capability(ISSUER)
        };
        assert_eq!(once.uses_left(), Some(1));
    }
}
