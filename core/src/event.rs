//! One event as every harness sends it, decoded into the one shape gates see.

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

use serde_json::{Map, Value};

/// An event Tama decides, whatever harness names it; serialized in the
/// registry's spelling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventName {
    PreToolUse,
    PostToolUse,
    PostToolUseFailure,
    UserPromptSubmit,
    Stop,
    SubagentStop,
    SessionStart,
    SessionEnd,
    PreCompact,
    Notification,
    PermissionRequest,
    BeforeProviderRequest,
}

impl EventName {
    pub const ALL: [EventName; 12] = [
        EventName::PreToolUse,
        EventName::PostToolUse,
        EventName::PostToolUseFailure,
        EventName::UserPromptSubmit,
        EventName::Stop,
        EventName::SubagentStop,
        EventName::SessionStart,
        EventName::SessionEnd,
        EventName::PreCompact,
        EventName::Notification,
        EventName::PermissionRequest,
        EventName::BeforeProviderRequest,
    ];

    /// The registry's spelling, e.g. `pre_tool_use`.
    pub fn as_str(self) -> &'static str {
        match self {
            EventName::PreToolUse => "pre_tool_use",
            EventName::PostToolUse => "post_tool_use",
            EventName::PostToolUseFailure => "post_tool_use_failure",
            EventName::UserPromptSubmit => "user_prompt_submit",
            EventName::Stop => "stop",
            EventName::SubagentStop => "subagent_stop",
            EventName::SessionStart => "session_start",
            EventName::SessionEnd => "session_end",
            EventName::PreCompact => "pre_compact",
            EventName::Notification => "notification",
            EventName::PermissionRequest => "permission_request",
            EventName::BeforeProviderRequest => "before_provider_request",
        }
    }

    /// Claude Code's and Codex's spelling, e.g. `PreToolUse`; oh-my-pi's own
    /// names are [`EventName::omp_name`].
    pub fn harness_name(self) -> &'static str {
        match self {
            EventName::PreToolUse => "PreToolUse",
            EventName::PostToolUse => "PostToolUse",
            EventName::PostToolUseFailure => "PostToolUseFailure",
            EventName::UserPromptSubmit => "UserPromptSubmit",
            EventName::Stop => "Stop",
            EventName::SubagentStop => "SubagentStop",
            EventName::SessionStart => "SessionStart",
            EventName::SessionEnd => "SessionEnd",
            EventName::PreCompact => "PreCompact",
            EventName::Notification => "Notification",
            EventName::PermissionRequest => "PermissionRequest",
            EventName::BeforeProviderRequest => "BeforeProviderRequest",
        }
    }

    /// oh-my-pi's name for the event, where it has one, e.g. `tool_call`.
    pub fn omp_name(self) -> Option<&'static str> {
        match self {
            EventName::PreToolUse => Some("tool_call"),
            EventName::PostToolUse => Some("tool_result"),
            EventName::Stop => Some("session_stop"),
            EventName::SessionEnd => Some("session_shutdown"),
            EventName::UserPromptSubmit => Some("input"),
            _ => None,
        }
    }

    /// The event named in any harness's spelling, with any `:<tool>` suffix
    /// dropped; `None` for an event Tama does not know.
    pub fn parse(name: &str) -> Option<EventName> {
        let phase = name.split(':').next().unwrap_or(name);
        // Registry keys, looked up on every dispatch, are already snake case.
        let snake = if phase.bytes().any(|b| b.is_ascii_uppercase()) {
            std::borrow::Cow::Owned(snake_case(phase))
        } else {
            std::borrow::Cow::Borrowed(phase)
        };
        EventName::ALL
            .into_iter()
            .find(|e| e.as_str() == snake)
            .or_else(|| {
                EventName::ALL
                    .into_iter()
                    .find(|e| e.omp_name() == Some(&*snake))
            })
    }

    /// Whether the event is about one tool call, whose input Tama must read.
    pub fn is_tool_call(self) -> bool {
        matches!(
            self,
            EventName::PreToolUse
                | EventName::PostToolUse
                | EventName::PostToolUseFailure
                | EventName::PermissionRequest
        )
    }
}

impl std::fmt::Display for EventName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Every event in registry spelling, for messages.
fn event_list() -> String {
    EventName::ALL.map(EventName::as_str).join(", ")
}

#[derive(Debug, thiserror::Error)]
pub enum PayloadError {
    #[error("the payload is not UTF-8 text: {0}")]
    NotUtf8(#[source] std::str::Utf8Error),
    #[error("the payload is not JSON: {0}")]
    NotJson(#[source] serde_json::Error),
    #[error("the payload is not a JSON object")]
    NotObject,
    #[error("unknown event `{0}`: expected one of {list}", list = event_list())]
    UnknownEvent(String),
    #[error("the payload names no event (`hook_event_name` or `type`) and no tool")]
    NoEvent,
    #[error("the payload's `{0}` is not a string")]
    NotText(&'static str),
}

/// One event, whichever harness sent it.
#[derive(Debug, Clone)]
pub struct Event {
    pub name: EventName,
    pub session_id: Option<String>,
    pub agent_id: Option<String>,
    pub tool_name: Option<String>,
    /// The payload as the harness sent it, kept as evidence.
    pub payload: Value,
    /// The session's capability grant (JSON) when it binds to the loaded
    /// policy, for hook commands; see [`crate::capability`].
    pub capability: Option<String>,
}

/// Keys a tool call's input is read from, in Claude Code's and Codex's
/// shape (`tool_input`) and oh-my-pi's (`input`, `arguments`).
pub const TOOL_INPUT_KEYS: [&str; 3] = ["tool_input", "input", "arguments"];

impl Event {
    /// Decodes a payload in Claude Code's, Codex's or oh-my-pi's shape. The
    /// event is `event` when given, else the payload's own
    /// `hook_event_name` or `type`, else `pre_tool_use` for a tool call.
    pub fn decode(text: &str, event: Option<&str>) -> Result<Event, PayloadError> {
        Event::from_payload(
            serde_json::from_str(text).map_err(PayloadError::NotJson)?,
            event,
        )
    }

    /// The tool call's input: the payload's first of [`TOOL_INPUT_KEYS`]
    /// that holds something.
    pub fn tool_input(&self) -> Option<&Value> {
        let fields = self.payload.as_object()?;
        TOOL_INPUT_KEYS
            .iter()
            .find_map(|k| fields.get(*k).filter(|v| !v.is_null()))
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
            Some(name) => EventName::parse(&name).ok_or(PayloadError::UnknownEvent(name))?,
            None if tool_name.is_some() => EventName::PreToolUse,
            None => return Err(PayloadError::NoEvent),
        };
        Ok(Event {
            name,
            session_id: text_field(fields, &["session_id", "sessionId"])?,
            agent_id: None,
            tool_name,
            payload,
            capability: None,
        })
    }
}

/// `value` as compact JSON text, serialized straight into its buffer: a
/// `Value`'s `Display` writes it through `fmt`, piece by piece, at three times the cost.
pub fn json_text(value: &Value) -> String {
    // A `Value` always serializes: its keys are strings.
    serde_json::to_string(value).unwrap_or_default()
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

fn text_field(
    fields: &Map<String, Value>,
    keys: &[&'static str],
) -> Result<Option<String>, PayloadError> {
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
    fn records_spell_every_event_as_the_registry_does() {
        for event in EventName::ALL {
            let written = serde_json::to_value(event).unwrap();
            assert_eq!(written, event.as_str());
            assert_eq!(serde_json::from_value::<EventName>(written).unwrap(), event);
        }
        assert!(serde_json::from_value::<EventName>("PreToolUse".into()).is_err());
    }

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
            assert_eq!(
                EventName::parse(given).map(EventName::as_str),
                Some(expected),
                "{given}"
            );
        }
        assert_eq!(EventName::parse("PreToolUsed"), None);
    }

    #[test]
    fn omp_tool_call_decodes_like_claude() {
        let omp = Event::decode(
            r#"{"type":"tool_call","toolName":"bash","input":{"command":"ls"}}"#,
            None,
        )
        .unwrap();
        assert_eq!(
            (omp.name, omp.tool_name.as_deref()),
            (EventName::PreToolUse, Some("bash"))
        );
        assert_eq!(omp.tool_input().unwrap()["command"], "ls");
    }

    #[test]
    fn malformed_payloads_say_why() {
        assert!(matches!(
            Event::decode("{", None),
            Err(PayloadError::NotJson(_))
        ));
        assert!(matches!(
            Event::decode("[]", None),
            Err(PayloadError::NotObject)
        ));
        assert!(matches!(
            Event::decode("{}", None),
            Err(PayloadError::NoEvent)
        ));
        assert!(matches!(
            Event::decode(r#"{"tool_name":3}"#, None),
            Err(PayloadError::NotText("tool_name"))
        ));
    }
}
