//! Abandonments: the hooks a dispatch still ran when the harness's next
//! signal proved nobody waits for it, said on stderr and kept as
//! `abandoned.<session>.json` in the session-control folder.

use serde_json::{Value, json};

use crate::clock::now_ms;

/// Says and keeps that `hooks` (running-hook entries: hook, event,
/// processGroup, runningForMs) of `session`, run by process `core_pid`, were
/// abandoned because `reason`. The record, or `None` when no hook still ran;
/// `in_memory` when the caller keeps it in memory too.
pub fn abandon(
    session: &str,
    hooks: &[Value],
    reason: &str,
    core_pid: u32,
    in_memory: bool,
) -> Option<Value> {
    let clauses: Vec<String> = hooks
        .iter()
        .map(|h| {
            format!(
                "{} ({}, {} ms)",
                h["hook"].as_str().unwrap_or("?"),
                h["event"].as_str().unwrap_or("?"),
                h["runningForMs"]
            )
        })
        .collect();
    if clauses.is_empty() {
        return None;
    }
    let text = format!(
        "still running in Tama: {}; {reason}",
        clauses.join(", still running in Tama: ")
    );
    eprintln!("tama: {text}");
    let record = json!({
        "session": session,
        "reason": reason,
        "abandonedAtMs": now_ms(),
        "corePid": core_pid,
        "hooks": hooks.iter().map(|h| json!({
            "hook": h["hook"], "event": h["event"], "processGroup": h["processGroup"], "ranForMs": h["runningForMs"],
        })).collect::<Vec<_>>(),
        "text": text,
    });
    if names_a_file(session) {
        let path = crate::session::control_dir().join(format!("abandoned.{session}.json"));
        if let Err(err) = super::records::replace(&path, &record) {
            eprintln!(
                "tama: cannot keep the abandonment of session {session} in {}: {err}",
                path.display()
            );
        }
    } else if in_memory {
        eprintln!(
            "tama: session id {session:?} cannot name a file, so its abandonment is kept in this engine's memory only"
        );
    } else {
        eprintln!(
            "tama: session id {session:?} cannot name a file, so its abandonment is not kept"
        );
    }
    Some(record)
}

/// A session id that is a plain file name part.
pub fn names_a_file(session: &str) -> bool {
    !session.is_empty()
        && session.len() <= 200
        && session != "."
        && session != ".."
        && session
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
}
