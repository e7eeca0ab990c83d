//! Earlier one-event runs, seen through their records on disk: what a newly
//! arrived run of a session proves about them, and how their hooks are ended.
//!
//! A run that ends another writes a marker in the session-control folder
//! before it signals the group, so the run that owns the hook reports it as
//! cancelled: `ended.<run>.json` (the whole run: it starts no further hook;
//! holds the answer) or `ended.<run>.<group>.json` (one hook).

use std::path::PathBuf;

use serde_json::{Value, json};

use super::{procs, records};
use crate::clock::now_ms;
use crate::session::control_dir;

/// Another one-event run of the same session that arrived earlier.
pub struct EarlierRun {
    pub pid: i32,
    pub alive: bool,
    pub id: String,
    pub event: crate::event::EventName,
    pub call: Option<String>,
    hooks: Vec<Value>,
}

/// The marker that ends run `run`, or one hook group of it.
pub fn marker(run: &str, group: Option<i32>) -> PathBuf {
    match group {
        Some(group) => control_dir().join(format!("ended.{run}.{group}.json")),
        None => control_dir().join(format!("ended.{run}.json")),
    }
}

/// Removes run `run`'s markers.
pub fn remove_markers(run: &str, groups: impl IntoIterator<Item = i32>) {
    let _ = std::fs::remove_file(marker(run, None));
    for group in groups {
        let _ = std::fs::remove_file(marker(run, Some(group)));
    }
}

/// Removes the markers of runs that are gone: an end can reach a run just
/// as it finishes, after it took its own markers away.
fn sweep_markers() {
    let Ok(entries) = std::fs::read_dir(control_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(run) = name
            .strip_prefix("ended.")
            .filter(|_| name.ends_with(".json"))
        else {
            continue;
        };
        let pid = run.split('-').next().and_then(|p| p.parse::<i32>().ok());
        if pid.is_some_and(|pid| !records::alive(pid)) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// One-event runs of `session` that arrived before `received_ns`. Records of
/// runs that are gone and left nothing running are removed on the way.
pub fn runs_before(session: &str, received_ns: u64) -> Vec<EarlierRun> {
    sweep_markers();
    let mut runs = Vec::new();
    for found in records::all_others() {
        let Ok(record) = found.record else { continue };
        let Some(run) = record.run else { continue };
        let alive = records::alive(found.pid);
        let earlier_run = EarlierRun {
            pid: found.pid,
            alive,
            id: run.id,
            event: run.event,
            call: run.call,
            hooks: record.hooks,
        };
        if !alive && earlier_run.running_hooks().is_empty() {
            let _ = std::fs::remove_file(&found.path);
            remove_markers(
                &earlier_run.id,
                earlier_run.hooks.iter().filter_map(group_of),
            );
            continue;
        }
        if run.session.as_deref() == Some(session) && run.received_ns < received_ns {
            runs.push(earlier_run);
        }
    }
    runs
}

fn group_of(hook: &Value) -> Option<i32> {
    hook.get("processGroup")
        .and_then(Value::as_i64)
        .and_then(|g| i32::try_from(g).ok())
}

impl EarlierRun {
    /// Its hooks whose group still lives, each with `runningForMs`.
    pub fn running_hooks(&self) -> Vec<Value> {
        self.hooks
            .iter()
            .filter(|h| matches!((group_of(h), h.get("leaderStart").and_then(Value::as_u64)), (Some(g), Some(s)) if procs::group_lives(g, s, self.pid)))
            .map(|h| {
                let mut h = h.clone();
                h["runningForMs"] = json!(now_ms().saturating_sub(h["startedAtMs"].as_u64().unwrap_or(0)));
                h
            })
            .collect()
    }

    /// The running hook `hook_id`, if it runs.
    pub fn running(&self, hook_id: &str) -> Option<Value> {
        self.running_hooks()
            .into_iter()
            .find(|h| h["hook"] == hook_id)
    }

    /// Ends the whole run: it starts no further hook and answers `answer`;
    /// the hooks it runs now are ended.
    pub fn end_run(&self, answer: &str) {
        if self.alive {
            self.mark(None, answer);
        }
        for hook in self.running_hooks() {
            self.end_hook(&hook, answer);
        }
    }

    /// Ends one running hook's group; its run reports it as cancelled, `because`.
    pub fn end_hook(&self, hook: &Value, because: &str) {
        let (Some(group), Some(start)) = (
            group_of(hook),
            hook.get("leaderStart").and_then(Value::as_u64),
        ) else {
            return;
        };
        if self.alive {
            self.mark(Some(group), because);
        }
        procs::end_group(group, start, self.pid, crate::command::GRACE);
    }

    fn mark(&self, group: Option<i32>, text: &str) {
        let path = marker(&self.id, group);
        if let Err(err) = records::replace(&path, &json!({"because": text})) {
            crate::log::write(
                "supervise",
                &format!("cannot write {}: {err}", path.display()),
            );
        }
    }
}
