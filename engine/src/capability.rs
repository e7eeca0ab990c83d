//! The session's capability: a grant the operator gave one session, bound
//! to the policy it was given under. Hook commands get it, as JSON in
//! `TAMA_CAPABILITY`, only when its binding (`sessionId`, `controlKey`,
//! `releaseId`, `catalogChecksum`) names this session and the loaded
//! registry, so a grant written for another generation authorizes none of
//! the hooks loaded since. Otherwise hooks get no capability and `tama.log`
//! says why.

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing))]

use serde_json::Value;

use crate::registry::Registry;

/// The variable a hook command reads its capability from. Tama sets or
/// removes it for every hook, so none inherits one from Tama's own environment.
pub const VAR: &str = "TAMA_CAPABILITY";

/// The capability of `agent`'s `session` to hand its hook commands, read
/// from the session record for each event; `None` when there is none or it
/// does not bind to `registry`.
pub fn for_hooks(registry: &Registry, agent: &str, session: Option<&str>) -> Option<String> {
    let session = session?;
    let key = crate::session::control_key(agent, session);
    let path = crate::session::control_dir().join(format!("{key}.session.json"));
    let text = std::fs::read_to_string(&path).ok()?;
    let refuse = |why: String| {
        crate::log::write("capability", &format!("session {session}: no capability handed to its hooks: {why}"));
        None
    };
    let record: Value = match serde_json::from_str(&text) {
        Ok(record) => record,
        Err(err) => return refuse(format!("its record {} cannot be read: {err}", path.display())),
    };
    let capability = match record.get("capability") {
        None | Some(Value::Null) => return None,
        Some(capability) => capability,
    };
    match binds(capability, registry, &key, session) {
        Ok(()) => Some(capability.to_string()),
        Err(why) => refuse(why),
    }
}

/// Whether the grant binds to this session and this loaded policy, and is still in force.
fn binds(capability: &Value, registry: &Registry, key: &str, session: &str) -> Result<(), String> {
    if !capability.is_object() {
        return Err("the grant is not a JSON object".into());
    }
    let field = |name: &str| capability.get(name).cloned().unwrap_or(Value::Null);
    let expected = [
        ("sessionId", Value::from(session)),
        ("controlKey", Value::from(key)),
        ("releaseId", registry.release_id.clone().map_or(Value::Null, Value::from)),
        ("catalogChecksum", registry.catalog_checksum.clone().map_or(Value::Null, Value::from)),
    ];
    for (name, loaded) in expected {
        if loaded.is_null() && name == "catalogChecksum" {
            return Err("the loaded registry has no catalogChecksum to bind a grant to".into());
        }
        if field(name) != loaded {
            return Err(format!("the grant is bound to {name} {}, the loaded policy's is {loaded}", field(name)));
        }
    }
    if let Some(expires) = capability.get("expiresAt").filter(|v| !v.is_null()) {
        let at = expires.as_str().and_then(|t| humantime::parse_rfc3339_weak(t).ok());
        match at {
            None => return Err(format!("its expiresAt {expires} is not an ISO-8601 time")),
            Some(at) if at <= std::time::SystemTime::now() => return Err(format!("it expired at {expires}")),
            Some(_) => {}
        }
    }
    match capability.get("remainingUses") {
        None | Some(Value::Null) => Ok(()),
        Some(uses) if uses.as_u64().is_some_and(|n| n > 0) => Ok(()),
        Some(uses) => Err(format!("it has {uses} remaining uses")),
    }
}
