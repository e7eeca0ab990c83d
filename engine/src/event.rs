//! One event as every harness sends it, decoded into the one shape gates see.

use serde_json::{Map, Value};

/// Events in registry spelling. Claude Code and Codex spell them in
/// PascalCase (`PreToolUse`), oh-my-pi by its own names (`tool_call`).
pub const EVENTS: &[&str] = &[
    "pre_tool_use",
    "post_tool_use",
    "post_tool_use_failure",
    "user_prompt_submit",
    "stop",
    "subagent_stop",
    "session_start",
    "session_end",
    "pre_compact",
    "notification",
    "permission_request",
    "before_provider_request",
];

/// oh-my-pi's names for the same events.
const OMP_EVENTS: &[(&str, &str)] = &[
    ("tool_call", "pre_tool_use"),
    ("tool_result", "post_tool_use"),
    ("session_stop", "stop"),
    ("session_shutdown", "session_end"),
    ("input", "user_prompt_submit"),
];

#[derive(Debug, thiserror::Error)]
pub enum PayloadError {
    #[error("the payload is not JSON: {0}")]
    NotJson(serde_json::Error),
    #[error("the payload is not a JSON object")]
    NotObject,
    #[error("unknown event `{0}`: expected one of {list}", list = EVENTS.join(", "))]
    UnknownEvent(String),
    #[error("the payload names no event (`hook_event_name` or `type`) and no tool")]
    NoEvent,
    #[error("the payload's `{0}` is not a string")]
    NotText(&'static str),
}

/// One event, whichever harness sent it.
#[derive(Debug, Clone)]
pub struct Event {
    /// Registry spelling, e.g. `pre_tool_use`.
    pub name: String,
    pub session_id: Option<String>,
    pub agent_id: Option<String>,
    pub tool_name: Option<String>,
    pub tool_input: Option<Value>,
    /// The payload as the harness sent it, kept as evidence.
    pub payload: Value,
    /// The session's capability grant (JSON) when it binds to the loaded
    /// policy, for hook commands; see [`crate::capability`].
    pub capability: Option<String>,
}

impl Event {
    /// Decodes a payload in Claude Code's, Codex's or oh-my-pi's shape. The
    /// event is `event` when given, else the payload's own
    /// `hook_event_name` or `type`, else `pre_tool_use` for a tool call.
    pub fn decode(text: &str, event: Option<&str>) -> Result<Event, PayloadError> {
        Event::from_payload(serde_json::from_str(text).map_err(PayloadError::NotJson)?, event)
    }

    /// [`Event::decode`] of a payload already parsed.
    pub fn from_payload(payload: Value, event: Option<&str>) -> Result<Event, PayloadError> {
        let fields = payload.as_object().ok_or(PayloadError::NotObject)?;
        let tool_name = text_field(fields, &["tool_name", "toolName"])?;
        let named = match event {
            Some(name) => Some(name.to_string()),
            None => text_field(fields, &["hook_event_name", "type"])?,
        };
        let name = match named {
            Some(name) => registry_event_name(&name).ok_or(PayloadError::UnknownEvent(name))?,
            None if tool_name.is_some() => "pre_tool_use",
            None => return Err(PayloadError::NoEvent),
        };
        Ok(Event {
            name: name.to_string(),
            session_id: text_field(fields, &["session_id", "sessionId"])?,
            agent_id: None,
            tool_input: ["tool_input", "input", "arguments"].iter().find_map(|k| fields.get(*k).cloned()),
            tool_name,
            payload,
            capability: None,
        })
    }
}

/// The registry spelling of an event given in any harness's spelling, with
/// any `:<tool>` suffix dropped; `None` for an event Tama does not know.
pub fn registry_event_name(name: &str) -> Option<&'static str> {
    let phase = name.split(':').next().unwrap_or(name);
    let snake = snake_case(phase);
    EVENTS
        .iter()
        .copied()
        .find(|e| *e == snake)
        .or_else(|| OMP_EVENTS.iter().find(|(omp, _)| *omp == snake).map(|(_, e)| *e))
}

/// `PreToolUse` → `pre_tool_use`; snake case stays as it is.
fn snake_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

fn text_field(fields: &Map<String, Value>, keys: &[&'static str]) -> Result<Option<String>, PayloadError> {
    for key in keys {
        match fields.get(*key) {
            None | Some(Value::Null) => continue,
            Some(Value::String(s)) => return Ok(Some(s.clone())),
            Some(_) => return Err(PayloadError::NotText(key)),
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_harness_spelling_names_one_event() {
        for (given, expected) in [
            ("PreToolUse", "pre_tool_use"),
            ("pre_tool_use:bash", "pre_tool_use"),
            ("tool_call", "pre_tool_use"),
            ("UserPromptSubmit", "user_prompt_submit"),
            ("Stop", "stop"),
            ("session_stop", "stop"),
        ] {
            assert_eq!(registry_event_name(given), Some(expected), "{given}");
        }
        assert_eq!(registry_event_name("PreToolUsed"), None);
    }

    #[test]
    fn omp_tool_call_decodes_like_claude() {
        let omp = Event::decode(r#"{"type":"tool_call","toolName":"bash","input":{"command":"ls"}}"#, None).unwrap();
        assert_eq!((omp.name.as_str(), omp.tool_name.as_deref()), ("pre_tool_use", Some("bash")));
        assert_eq!(omp.tool_input.unwrap()["command"], "ls");
    }

    #[test]
    fn malformed_payloads_say_why() {
        assert!(matches!(Event::decode("{", None), Err(PayloadError::NotJson(_))));
        assert!(matches!(Event::decode("[]", None), Err(PayloadError::NotObject)));
        assert!(matches!(Event::decode("{}", None), Err(PayloadError::NoEvent)));
        assert!(matches!(Event::decode(r#"{"tool_name":3}"#, None), Err(PayloadError::NotText("tool_name"))));
    }
}
