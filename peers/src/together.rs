//! Work-together mode: two sessions may act on each other's asks without
//! asking their users, for a budget of asks and a time. It ends when either
//! side ends it, when its time is up, when either session ends, or when a
//! user types. Each side's end waits in `<key>.ended` until that user has
//! seen it.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::folder::{RegistryLock, write_whole};
use super::sessions::{self, Registration, Together};
use super::{PeerError, Result, journal, now_iso, now_ms};

pub const DEFAULT_BUDGET: u32 = 20;

fn ended_path(dir: &Path, key: &str) -> PathBuf {
    dir.join(format!("{key}.ended"))
}

pub fn report_path(dir: &Path, key: &str) -> PathBuf {
    dir.join(format!("{key}.report.md"))
}

/// Starts work-together mode between `me` and `peer`, each with `budget`
/// asks, for `duration`.
pub fn start(
    dir: &Path,
    me: &str,
    peer: &str,
    budget: u32,
    duration: std::time::Duration,
) -> Result<Together> {
    if budget == 0 {
        return Err(PeerError::Refused(
            "budget: a work-together budget is at least 1 ask".into(),
        ));
    }
    let _lock = RegistryLock::take(dir)?;
    let mine = sessions::live(dir, me)?
        .ok_or_else(|| PeerError::Refused(format!("session {me} is not registered")))?;
    let theirs = sessions::live(dir, peer)?
        .ok_or_else(|| PeerError::Refused(format!("unknown peer: {peer}")))?;
    if me == peer {
        return Err(PeerError::Refused(
            "cannot work together with yourself".into(),
        ));
    }
    for side in [&mine, &theirs] {
        if let Some(t) = side
            .together
            .as_ref()
            .filter(|t| t.with != me && t.with != peer)
        {
            return Err(PeerError::Refused(format!(
                "{} is already working with {}",
                side.key, t.with
            )));
        }
    }
    let (since, until_ms) = (now_iso(), now_ms() + duration.as_millis() as u64);
    let mode = |with: &str| Together {
        with: with.to_string(),
        budget,
        used: 0,
        since: since.clone(),
        until_ms,
    };
    for (mut side, with) in [(mine, peer), (theirs, me)] {
        side.together = Some(mode(with));
        sessions::write(dir, &side)?;
    }
    journal::row(
        dir,
        "together_started",
        json!({"a": me, "b": peer, "budget": budget, "untilMs": until_ms}),
    );
    Ok(mode(peer))
}

/// Ends the mode `key` is in, on both sides, for `reason`. Returns the mode
/// that ended, if there was one.
pub fn end(dir: &Path, key: &str, reason: &str) -> Result<Option<Together>> {
    let _lock = RegistryLock::take(dir)?;
    end_locked(dir, key, reason)
}

fn end_locked(dir: &Path, key: &str, reason: &str) -> Result<Option<Together>> {
    let Some(mut mine) = sessions::read(dir, key)? else {
        return Ok(None);
    };
    let Some(mode) = mine.together.take() else {
        return Ok(None);
    };
    sessions::write(dir, &mine)?;
    mark_ended(dir, &mine.key, &mode, reason)?;
    if let Some(mut theirs) = sessions::read(dir, &mode.with)?
        && let Some(their_mode) = theirs.together.take_if(|t| t.with == key)
    {
        sessions::write(dir, &theirs)?;
        mark_ended(dir, &theirs.key, &their_mode, reason)?;
    }
    journal::row(
        dir,
        "together_ended",
        json!({"a": key, "b": mode.with, "reason": reason, "since": mode.since}),
    );
    Ok(Some(mode))
}

fn mark_ended(dir: &Path, key: &str, mode: &Together, reason: &str) -> Result<()> {
    let record =
        json!({"with": mode.with, "since": mode.since, "endedAt": now_iso(), "reason": reason});
    write_whole(&ended_path(dir, key), record.to_string().as_bytes())
}

/// Why the mode of `me` is over, if it is: its time is up. A spent budget
/// does not end it: an ask over the budget is refused at send instead.
fn over(me: &Registration) -> Option<&'static str> {
    me.together
        .as_ref()
        .filter(|mode| now_ms() >= mode.until_ms)
        .map(|_| "its time was up")
}

/// Ends the mode of `me` when its time is up, saving the report of it for
/// both sides; what every hook and every peer command does first, so a mode
/// expires whether or not a waiter runs. Returns `me` as it now stands.
pub fn settle(dir: &Path, me: Registration) -> Result<Registration> {
    let Some(reason) = over(&me) else {
        return Ok(me);
    };
    let ended = {
        let _lock = RegistryLock::take(dir)?;
        match sessions::read(dir, &me.key)?.filter(|now| over(now).is_some()) {
            Some(_) => end_locked(dir, &me.key, reason)?,
            None => None,
        }
    };
    if let Some(mode) = ended {
        save_report(dir, &me.key, &mode, reason)?;
        let theirs = Together {
            with: me.key.clone(),
            ..mode.clone()
        };
        if sessions::read(dir, &mode.with)?.is_some() {
            save_report(dir, &mode.with, &theirs, reason)?;
        }
    }
    Ok(sessions::read(dir, &me.key)?.unwrap_or(Registration {
        together: None,
        ..me
    }))
}

/// Whether `me` was in work-together mode with `from` when it sent
/// something stamped `at`, and still is.
pub fn covers(me: &Registration, from: &str, at: &str) -> bool {
    let Some(mode) = me.together.as_ref().filter(|t| t.with == from) else {
        return false;
    };
    let stamp = |text: &str| {
        humantime::parse_rfc3339_weak(text)
            .ok()?
            .duration_since(std::time::UNIX_EPOCH)
            .ok()
            .map(|d| d.as_millis() as u64)
    };
    match (stamp(at), stamp(&mode.since)) {
        (Some(sent), Some(since)) => {
            now_ms() < mode.until_ms && since <= sent && sent < mode.until_ms
        }
        _ => false,
    }
}

/// Counts an ask from `from` to `to` against `from`'s budget when the two
/// work together; refuses it once the budget is spent.
pub fn spend_ask(dir: &Path, from: &str, to: &str) -> Result<()> {
    let _lock = RegistryLock::take(dir)?;
    let Some(mut mine) = sessions::read(dir, from)? else {
        return Ok(());
    };
    let Some(mode) = mine.together.as_mut().filter(|t| t.with == to) else {
        return Ok(());
    };
    if mode.used >= mode.budget {
        return Err(PeerError::Refused(format!(
            "budget: all {} asks of work-together mode with {to} are spent; the ask was not sent. \
             Finish what you can, or end the mode and tell your user",
            mode.budget
        )));
    }
    mode.used += 1;
    sessions::write(dir, &mine)
}

/// Takes the end of a mode waiting for `key`'s user, shown once: the file
/// is removed and `log.jsonl` gets a `report_shown` row.
pub fn take_ended(dir: &Path, key: &str) -> Result<Option<Value>> {
    let path = ended_path(dir, key);
    let text = match tama_core::files::read_regular_to_string(&path) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(err) => return Err(super::io(|| format!("cannot read {}", path.display()))(err)),
    };
    let _ = fs::remove_file(&path);
    let ended: Value = serde_json::from_str(&text)
        .map_err(|e| PeerError::Input(format!("{} is not JSON: {e}", path.display())))?;
    journal::row(
        dir,
        "report_shown",
        json!({"key": key, "with": ended["with"], "since": ended["since"]}),
    );
    Ok(Some(ended))
}

/// Saves a report of the mode `key` had with its peer: every message the
/// two sent each other since the mode started, from `log.jsonl`.
pub fn save_report(dir: &Path, key: &str, mode: &Together, reason: &str) -> Result<()> {
    let mut text = format!(
        "# Work-together report: {key} with {}\n\nFrom {} to {}; ended: {reason}.\n\n",
        mode.with,
        mode.since,
        now_iso()
    );
    let pair = |row: &Value| {
        let (from, to) = (
            row["from"].as_str().unwrap_or(""),
            row["to"].as_str().unwrap_or(""),
        );
        (from == key && to == mode.with) || (from == mode.with && to == key)
    };
    let sent: Vec<Value> = journal::rows(dir)
        .into_iter()
        .filter(|r| r["row"] == "sent" && r["at"].as_str() >= Some(mode.since.as_str()) && pair(r))
        .collect();
    if sent.is_empty() {
        text.push_str("No messages were exchanged.\n");
    }
    for row in sent {
        let (at, from, to, kind, id) = (
            &row["at"],
            &row["from"],
            &row["to"],
            &row["kind"],
            &row["id"],
        );
        text.push_str(&format!(
            "- {} {} → {} ({} {}): {}\n",
            at.as_str().unwrap_or(""),
            from.as_str().unwrap_or(""),
            to.as_str().unwrap_or(""),
            kind.as_str().unwrap_or(""),
            id.as_str().unwrap_or(""),
            quoted(row["text"].as_str().unwrap_or(""))
        ));
    }
    write_whole(&report_path(dir, key), text.as_bytes())
}

/// A peer's text as one JSON string: quoted, on one line, so in a report
/// that Tama writes it cannot pass for a line of Tama's.
fn quoted(text: &str) -> String {
    serde_json::Value::from(text).to_string()
}

/// Saves the report an agent wrote of its mode.
pub fn write_report(dir: &Path, key: &str, text: &str) -> Result<PathBuf> {
    let path = report_path(dir, key);
    write_whole(&path, format!("{}\n", text.trim_end()).as_bytes())?;
    journal::row(dir, "report_saved", json!({"key": key}));
    Ok(path)
}

/// The report saved since the mode that started at `since`, if any.
pub fn saved_report(dir: &Path, key: &str, since: &str) -> Option<String> {
    let path = report_path(dir, key);
    let modified = fs::metadata(&path).and_then(|m| m.modified()).ok()?;
    let since = humantime::parse_rfc3339(since).ok()?;
    (modified >= since)
        .then(|| tama_core::files::read_regular_to_string(&path).ok())
        .flatten()
}
