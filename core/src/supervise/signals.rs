//! The harness's signals that prove it stopped waiting for a dispatch, and
//! the sentences Tama says when it ends what nobody waits for. The serving
//! engine and one-event runs say them the same way.

use serde_json::Value;

use crate::event::EventName;

/// `stop` and `user_prompt_submit`: a session sends one at a time.
pub fn is_turn_event(event: EventName) -> bool {
    matches!(event, EventName::Stop | EventName::UserPromptSubmit)
}

pub fn is_tool_event(event: EventName) -> bool {
    matches!(event, EventName::PreToolUse | EventName::PostToolUse)
}

/// The call a payload checks: its tool name and input. Two identical calls
/// of one session are one call.
pub fn call_key(payload: &Value) -> Option<String> {
    let name = ["tool_name", "toolName"]
        .iter()
        .find_map(|k| payload.get(*k))?;
    let input = ["tool_input", "input"]
        .iter()
        .find_map(|k| payload.get(*k))
        .unwrap_or(&Value::Null);
    let mut key = format!("{}\0", name.as_str().unwrap_or_default());
    key.push_str(&crate::event::json_text(input));
    Some(key)
}

/// The tool a call key names.
pub fn call_tool(call: &str) -> &str {
    call.split('\0').next().unwrap_or("?")
}

/// A newer turn event started the hook the previous one still ran.
pub fn superseded(hook: &str, group: &Value, previous_event: EventName, session: &str) -> String {
    format!(
        "tama: ended hook {hook} (process group {group}) still running for the previous {previous_event} of session {session}"
    )
}

pub fn superseded_reason(event: EventName, session: &str) -> String {
    format!("a newer {event} of session {session} superseded it")
}

/// The session's turn ended under a tool hook.
pub fn turn_ended_hook(
    hook: &str,
    group: &Value,
    tool_event: EventName,
    session: &str,
    turn_event: EventName,
) -> String {
    format!(
        "tama: ended hook {hook} (process group {group}) still running for {tool_event} of session {session}: the session's {turn_event} arrived, so that tool call is over and nobody waits for its answer"
    )
}

pub fn turn_ended_reason(turn_event: EventName) -> String {
    format!("the session's {turn_event} arrived")
}

/// The answer of a tool dispatch the turn end ended.
pub fn turn_ended_answer(session: &str, tool_event: EventName) -> String {
    format!(
        "the turn of session {session} ended while {tool_event} was still being checked, so that tool call is over"
    )
}

/// The call's result arrived while its pre-tool check still ran.
pub fn result_arrived(dispatch: &str, tool: &str, session: &str) -> String {
    format!(
        "tama: ended pre-tool dispatch {dispatch} of {tool} in session {session}: {}",
        result_arrived_answer(tool)
    )
}

pub fn result_arrived_reason(tool: &str) -> String {
    format!("the result of the {tool} call already arrived")
}

pub fn result_arrived_answer(tool: &str) -> String {
    format!(
        "{}, so the harness stopped waiting for this check",
        result_arrived_reason(tool)
    )
}

/// An ended dispatch's answer, naming the first hook it did not start.
pub fn not_started(why: String, hook: Option<&str>) -> String {
    match hook {
        Some(hook) => format!("{why} and hook {hook} and the ones after it were not started"),
        None => why,
    }
}
