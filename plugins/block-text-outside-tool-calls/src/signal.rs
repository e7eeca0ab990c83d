//! The decision, apart from the bindings so it is tested natively.

use serde_json::Value;

/// Whether work is open is read exactly as `block-supervisor-stop` reads it.
#[allow(dead_code)]
#[path = "../../block-supervisor-stop/src/policy.rs"]
mod open_work;

pub use open_work::{ROLE_KEY, WORK_KEY};

pub fn check_config(config: &str) -> Result<(), String> {
    match serde_json::from_str::<Value>(config) {
        Ok(Value::Null) => Ok(()),
        Ok(Value::Object(fields)) if fields.is_empty() => Ok(()),
        Ok(other) => Err(format!(
            "block-text-outside-tool-calls takes no configuration, got {other}"
        )),
        Err(e) => Err(format!("configuration is not JSON: {e}")),
    }
}

/// Whether the payload's `assistant_turn` is prose with no tool call. No
/// answer yet (`null` or absent) is not prose.
pub fn answered_in_prose(payload: &str) -> Result<bool, String> {
    let payload: Value =
        serde_json::from_str(payload).map_err(|e| format!("the payload is not JSON: {e}"))?;
    let turn = match payload.get("assistant_turn") {
        None | Some(Value::Null) => return Ok(false),
        Some(Value::Object(turn)) => turn,
        Some(other) => return Err(format!("`assistant_turn` is not an object: {other}")),
    };
    let calls = match turn.get("toolCalls") {
        None | Some(Value::Null) => 0,
        Some(value) => value
            .as_u64()
            .ok_or_else(|| format!("`assistant_turn.toolCalls` is not a count: {value}"))?,
    };
    let text = match turn.get("text") {
        None | Some(Value::Null) => "",
        Some(value) => value
            .as_str()
            .ok_or_else(|| format!("`assistant_turn.text` is not text: {value}"))?,
    };
    Ok(calls == 0 && !text.trim().is_empty())
}

/// `Ok(Some(reason))` when the agent's work is open.
pub fn decide(
    agent: &str,
    role: Option<&str>,
    work: Option<&str>,
) -> Result<Option<String>, String> {
    Ok(open_work::decide(agent, role, work)?.map(|open| {
        format!("the model answered in prose instead of calling a tool while its work is open, so the next model request requires a tool call ({open})")
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SUPERVISOR: &str = r#"{"source":"role.json","value":{"role":"supervisor"}}"#;
    const OPEN: &str =
        r#"{"source":"work.json","value":{"handedOut":[{"id":"T-1","status":"open"}]}}"#;
    const DONE: &str =
        r#"{"source":"work.json","value":{"handedOut":[{"id":"T-1","status":"done"}]}}"#;

    #[test]
    fn prose_without_a_tool_call_is_the_signal() {
        assert!(
            answered_in_prose(r#"{"assistant_turn":{"text":"All done.","toolCalls":0}}"#).unwrap()
        );
        assert!(
            !answered_in_prose(r#"{"assistant_turn":{"text":"Running it.","toolCalls":1}}"#)
                .unwrap()
        );
        assert!(!answered_in_prose(r#"{"assistant_turn":{"text":"  ","toolCalls":0}}"#).unwrap());
        assert!(!answered_in_prose(r#"{"assistant_turn":null}"#).unwrap());
        assert!(!answered_in_prose("{}").unwrap());
        assert!(answered_in_prose(r#"{"assistant_turn":"x"}"#).is_err());
        assert!(answered_in_prose(r#"{"assistant_turn":{"text":"x","toolCalls":-1}}"#).is_err());
    }

    #[test]
    fn open_work_refuses_and_finished_work_passes() {
        let reason = decide("omp", Some(SUPERVISOR), Some(OPEN))
            .unwrap()
            .unwrap();
        assert!(
            reason.contains("prose instead of calling a tool") && reason.contains("T-1"),
            "{reason}"
        );
        assert_eq!(decide("omp", Some(SUPERVISOR), Some(DONE)).unwrap(), None);
        assert_eq!(decide("omp", None, None).unwrap(), None);
        assert!(decide("omp", Some("{"), Some(OPEN)).is_err());
    }
}
