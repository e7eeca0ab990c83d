//! Records of the hooks a Tama process runs, on disk, so another process
//! (a serving engine's status, a later `tama run-hook`, `tama hooks running`)
//! sees them, and ends them when the harness stopped waiting.
//!
//! Each process keeps `running.<pid>.json` in the session-control folder:
//! `{"corePid": <pid>, "hooks": [{session, event, hook, processGroup,
//! startedAtMs, leaderStart}]}`; a one-event run adds `run`, what it
//! dispatches (see [`super::run`]).

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::session::control_dir;

/// This process's record file.
pub fn own_path() -> PathBuf {
    control_dir().join(format!("running.{}.json", std::process::id()))
}

/// Replaces this process's record with `hooks` (and the one-event `run`);
/// a record that cannot be written is logged, never a reason to refuse.
pub fn write(run: Option<&Value>, hooks: &[Value]) {
    let path = own_path();
    let mut record = json!({"corePid": std::process::id(), "hooks": hooks});
    if let Some(run) = run {
        record["run"] = run.clone();
    }
    if let Err(err) = replace(&path, &record) {
        crate::log::write(
            "records",
            &format!("cannot write {}: {err}", path.display()),
        );
    }
}

/// Writes a record in the session-control folder whole, so a reader never
/// sees half of it, readable by the user alone.
pub fn replace(path: &std::path::Path, record: &Value) -> std::io::Result<()> {
    crate::files::write_whole(path, record.to_string().as_bytes())
}

pub fn remove() {
    let _ = std::fs::remove_file(own_path());
}

/// One other process's record: its pid, its file, and what it holds or why it cannot be read.
pub struct Found {
    pub pid: i32,
    pub path: PathBuf,
    pub record: Result<Record, String>,
}

/// A record read from disk, every field checked: anyone running as the user
/// can write one, so nothing in it is used before it is checked.
pub struct Record {
    /// Each hook entry as written, holding only checked fields.
    pub hooks: Vec<Value>,
    pub run: Option<RunInfo>,
}

/// What a one-event run dispatches.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunInfo {
    /// `<pid>-<arrival in ns>`, the pid being the record's own.
    pub id: String,
    pub event: crate::event::EventName,
    pub session: Option<String>,
    pub call: Option<String>,
    pub received_ns: u64,
}

#[derive(serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct HookEntry {
    session: Option<String>,
    event: String,
    hook: String,
    process_group: i32,
    started_at_ms: u64,
    leader_start: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    running_for_ms: Option<u64>,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawRecord {
    core_pid: i64,
    hooks: Vec<Value>,
    #[serde(default)]
    run: Option<RunInfo>,
}

/// Reads and checks the record of process `pid`.
fn read_record(path: &std::path::Path, pid: i32) -> Result<Record, String> {
    let text = crate::files::read_regular_to_string(path).map_err(|e| e.to_string())?;
    let raw: RawRecord = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    if raw.core_pid != i64::from(pid) {
        return Err(format!(
            "corePid {} is not the pid {pid} its name gives",
            raw.core_pid
        ));
    }
    if let Some(run) = &raw.run {
        let id_ok = run.id.split_once('-').is_some_and(|(p, ns)| {
            p == pid.to_string() && !ns.is_empty() && ns.bytes().all(|b| b.is_ascii_digit())
        });
        if !id_ok {
            return Err(format!("run id {:?} is not `{pid}-<arrival>`", run.id));
        }
        run.session
            .as_deref()
            .map(|s| plain("run session", s))
            .transpose()?;
    }
    let mut hooks = Vec::with_capacity(raw.hooks.len());
    for (n, hook) in raw.hooks.into_iter().enumerate() {
        let entry: HookEntry =
            serde_json::from_value(hook).map_err(|e| format!("hook entry {n}: {e}"))?;
        plain("hook", &entry.hook)
            .and_then(|()| plain("event", &entry.event))
            .map_err(|e| format!("hook entry {n}: {e}"))?;
        entry
            .session
            .as_deref()
            .map(|s| plain("session", s))
            .transpose()
            .map_err(|e| format!("hook entry {n}: {e}"))?;
        if entry.process_group <= 1 {
            return Err(format!(
                "hook entry {n}: processGroup {} names no hook group",
                entry.process_group
            ));
        }
        hooks.push(serde_json::to_value(entry).map_err(|e| e.to_string())?);
    }
    Ok(Record {
        hooks,
        run: raw.run,
    })
}

/// A text field Tama prints: not empty, short, and free of control characters.
fn plain(field: &str, text: &str) -> Result<(), String> {
    if text.is_empty() || text.len() > 1024 || text.chars().any(char::is_control) {
        return Err(format!("{field} {text:?} is not a plain name"));
    }
    Ok(())
}

/// Every other process's record.
pub fn all_others() -> Vec<Found> {
    let Ok(entries) = std::fs::read_dir(control_dir()) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name
            .strip_prefix("running.")
            .and_then(|n| n.strip_suffix(".json"))
        else {
            continue;
        };
        let path = entry.path();
        let pid = match pid.parse::<i32>() {
            Ok(pid) if pid > 0 => pid,
            _ => {
                found.push(Found {
                    pid: 0,
                    path,
                    record: Err(format!("{name:?} does not name a process")),
                });
                continue;
            }
        };
        if pid as u32 == std::process::id() {
            continue;
        }
        let record = read_record(&path, pid);
        found.push(Found { pid, path, record });
    }
    found
}

/// What other processes' records hold: `(live, gone, unread)`. Records of
/// live processes list hooks running now; records of processes that are gone
/// list hooks they left that may still run (a hook whose group is known to
/// be gone is left out); `unread` names each record that could not be read, and why.
pub fn others() -> (Vec<Value>, Vec<Value>, Vec<Value>) {
    let (mut live, mut gone, mut unread) = (Vec::new(), Vec::new(), Vec::new());
    for Found { pid, path, record } in all_others() {
        match record {
            Err(why) => unread.push(json!({"record": path.display().to_string(), "reason": why})),
            Ok(record) => {
                let hooks = record.hooks.into_iter().map(|mut h| {
                    h["corePid"] = pid.into();
                    h
                });
                if alive(pid) {
                    live.extend(hooks)
                } else {
                    gone.extend(hooks.filter(|h| may_run(h, pid)))
                }
            }
        }
    }
    (live, gone, unread)
}

/// Whether a hook that process `owner`, now gone, ran may still run: its
/// group lives, or the record does not say when its leader started.
fn may_run(hook: &Value, owner: i32) -> bool {
    match (
        hook.get("processGroup")
            .and_then(Value::as_i64)
            .and_then(|g| i32::try_from(g).ok()),
        hook.get("leaderStart").and_then(Value::as_u64),
    ) {
        (Some(group), Some(start)) => super::procs::group_lives(group, start, owner),
        _ => true,
    }
}

/// Whether a process lives: signal 0 reaches it, or it exists but is not ours.
pub fn alive(pid: i32) -> bool {
    use nix::sys::signal::kill;
    use nix::unistd::Pid;
    pid > 0
        && matches!(
            kill(Pid::from_raw(pid), None),
            Ok(()) | Err(nix::errno::Errno::EPERM)
        )
}

/// Every `abandoned.<session>.json`: `(records, unread)`.
pub fn abandoned() -> (Vec<Value>, Vec<Value>) {
    let (mut found, mut unread) = (Vec::new(), Vec::new());
    let Ok(entries) = std::fs::read_dir(control_dir()) else {
        return (found, unread);
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !(name.starts_with("abandoned.") && name.ends_with(".json")) {
            continue;
        }
        let path = entry.path();
        match crate::files::read_regular_to_string(&path)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str::<Value>(&t).map_err(|e| e.to_string()))
        {
            Ok(record) => found.push(record),
            Err(why) => unread.push(json!({"record": path.display().to_string(), "reason": why})),
        }
    }
    (found, unread)
}
