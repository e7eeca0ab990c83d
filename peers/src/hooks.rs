//! `tama peer-hook KIND EVENT`: one peer hook, with the harness's hook
//! input on stdin. A peer hook never breaks the agent: any failure is
//! written to `hooks.log` and the hook exits 0 with no output. Only the
//! waiter exits 2, when it has messages.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::delivery::take_rendered;
pub use super::delivery::{Outcome, record_delivery};
use super::sessions::{self, Registration};
use super::{
    Adapter, PeerError, Result, guard, inbox, journal, session_key, text, together, waiter,
};

/// The peer hook events.
pub const EVENTS: &[&str] = &[
    "session-start",
    "prompt",
    "pre-tool",
    "stop",
    "wait",
    "session-end",
];

/// Runs peer hook `event` for agent `kind` on the hook input `input`.
pub fn peer_hook(dir: &Path, kind: &str, event: &str, input: &str) -> Outcome {
    let mut key = None;
    match run(dir, kind, event, input, &mut key) {
        Ok(outcome) => outcome,
        Err(err) => {
            journal::hook_error(dir, event, key.as_deref(), &err);
            Outcome::default()
        }
    }
}

fn run(
    dir: &Path,
    kind: &str,
    event: &str,
    input: &str,
    key: &mut Option<String>,
) -> Result<Outcome> {
    let kind = Adapter::named(kind).ok_or_else(|| {
        let known: Vec<&str> = Adapter::all().map(|a| a.name()).collect();
        PeerError::Input(format!(
            "unknown agent kind `{kind}`: expected one of {}",
            known.join(", ")
        ))
    })?;
    if !EVENTS.contains(&event) {
        return Err(PeerError::Input(format!(
            "unknown peer hook event `{event}`: expected one of {}",
            EVENTS.join(", ")
        )));
    }
    let payload: Value = serde_json::from_str(input)?;
    if !payload.is_object() {
        return Err(PeerError::Input(
            "the hook input is not a JSON object".into(),
        ));
    }
    let session = payload["session_id"].as_str().ok_or_else(|| {
        PeerError::Input("KeyError: the hook input has no string session_id".into())
    })?;
    let own_key = session_key(&kind, session)?;
    *key = Some(own_key.clone());
    let agent = sessions::agent_pid();
    if event == "session-end" {
        return session_end(dir, &own_key, agent, &payload);
    }
    let cwd = payload["cwd"]
        .as_str()
        .map(PathBuf::from)
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| "/".into());
    let (me, own) = sessions::register(dir, &kind, session, &own_key, &cwd, agent)?;
    if event == "pre-tool" {
        // Whoever runs it, a write is judged against the session's own root.
        return pre_tool(dir, &together::settle(dir, me)?, &cwd, &payload);
    }
    if !own {
        return Err(not_its_agent(&me, agent));
    }
    let me = together::settle(dir, me)?;
    match event {
        "session-start" => session_start(dir, &me),
        "prompt" => prompt(dir, &me, &payload),
        "stop" => stop(dir, &me),
        "wait" => waiter::wait(dir, &me),
        _ => unreachable!("events are checked above"),
    }
}

fn not_its_agent(me: &Registration, agent: i32) -> PeerError {
    PeerError::Refused(format!(
        "session {} belongs to agent process {}; this hook runs under process {agent}, so it does not act for it",
        me.key, me.pid
    ))
}

/// Context the harness adds for the model on session start and prompts.
fn context(event_name: &str, text: String) -> Outcome {
    Outcome::json(
        json!({"hookSpecificOutput": {"hookEventName": event_name, "additionalContext": text}}),
    )
}

/// Takes the unread messages of `me` for a hook's output, as peer text.
fn deliver(dir: &Path, me: &Registration, by: &str) -> Result<Option<String>> {
    Ok(take_rendered(dir, me)?.map(|(letters, text)| {
        record_delivery(dir, me, &letters, by);
        text
    }))
}

/// What a prompt or a stop tells the agent: messages it sent that came
/// back unread, then its own unread messages. Messages handed over before
/// this hook count as read first: the agent went on after them.
fn news(dir: &Path, me: &Registration, by: &str) -> Result<Vec<String>> {
    inbox::confirm(dir, &me.key)?;
    // Sessions whose agent died with no session end return what they were handed.
    sessions::all_live(dir)?;
    let mut parts = Vec::new();
    let returned = inbox::take_returned(dir, &me.key);
    if !returned.is_empty() {
        parts.push(text::returned_text(&returned));
    }
    parts.extend(deliver(dir, me, by)?);
    Ok(parts)
}

fn session_start(dir: &Path, me: &Registration) -> Result<Outcome> {
    let peers = sessions::all_live(dir)?;
    let secret = super::caller::issue_secret(dir, &me.key)?;
    let mut brief = text::brief(me, &peers, &secret);
    if let Some(messages) = deliver(dir, me, "session-start")? {
        brief = format!("{brief}\n\n{messages}");
    }
    Ok(context("SessionStart", brief))
}

/// A prompt: when a person typed it, their user is back, so work-together
/// mode ends, an ended mode is shown, once, and the chain of peer messages
/// starts again. Unread messages come along.
fn prompt(dir: &Path, me: &Registration, payload: &Value) -> Result<Outcome> {
    let mut parts = Vec::new();
    if typed(payload["prompt"].as_str().unwrap_or_default()) {
        together::end(dir, &me.key, "your user typed a prompt")?;
        sessions::update(dir, &me.key, |r| r.chain = 0)?;
        if let Some(ended) = together::take_ended(dir, &me.key)? {
            let report =
                together::saved_report(dir, &me.key, ended["since"].as_str().unwrap_or_default());
            parts.push(text::ended_note(me, &ended, report));
        }
    }
    let me = sessions::read(dir, &me.key)?.unwrap_or_else(|| me.clone());
    parts.extend(news(dir, &me, "prompt")?);
    Ok(if parts.is_empty() {
        Outcome::default()
    } else {
        context("UserPromptSubmit", parts.join("\n\n"))
    })
}

/// Frames Claude Code puts around prompts no person typed.
const MACHINE_FRAMES: &[&str] = &[
    "Another Claude session sent a message:",
    "<agent-message",
    "<cross-session-message",
    "<task-notification",
];

/// Whether a person typed `prompt`: no line of it opens with a frame the
/// harness puts around prompts from other sessions, subagents and tasks.
/// A typed prompt that mentions such a tag mid-line is still typed.
pub fn typed(prompt: &str) -> bool {
    !prompt.lines().any(|line| {
        MACHINE_FRAMES
            .iter()
            .any(|frame| line.trim_start().starts_with(frame))
    })
}

fn pre_tool(dir: &Path, me: &Registration, cwd: &Path, payload: &Value) -> Result<Outcome> {
    Ok(match guard::denial(dir, me, cwd, payload)? {
        None => Outcome::default(),
        Some(reason) => Outcome::json(json!({"hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }})),
    })
}

/// Blocks the stop while there is news (messages unread, or sent ones
/// that came back), with it as the reason. It blocks only for news it
/// delivers now, so it cannot loop.
fn stop(dir: &Path, me: &Registration) -> Result<Outcome> {
    let parts = news(dir, me, "stop")?;
    Ok(match parts.is_empty() {
        false => Outcome::json(json!({"decision": "block", "reason": parts.join("\n\n")})),
        true => Outcome::default(),
    })
}

/// The session ends: its mode ends (saved first when it had expired), the
/// messages it was handed but never went on after go back to their
/// senders, and its registration goes, which ends its waiter. The `.wait`
/// file stays: a waiter may hold its lock. Unread messages stay for a
/// resumed session. Only the session's own agent (or anyone, once that
/// agent is gone) can end it.
fn session_end(dir: &Path, key: &str, agent: i32, payload: &Value) -> Result<Outcome> {
    let reason = payload["reason"].as_str().unwrap_or("other");
    if let Some(me) = sessions::read(dir, key)? {
        if me.alive() && me.pid != agent {
            return Err(not_its_agent(&me, agent));
        }
        together::settle(dir, me)?;
    }
    together::end(dir, key, &format!("session {key} ended ({reason})"))?;
    inbox::return_handed(
        dir,
        key,
        &format!("session {key} ended ({reason}) before it went on after the message"),
    )?;
    sessions::unregister(dir, key)?;
    journal::row(dir, "session_ended", json!({"key": key, "reason": reason}));
    Ok(Outcome::default())
}
