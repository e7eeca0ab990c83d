//! Registrations: which sessions are live, where they work, and with whom
//! they are in work-together mode.

use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::folder::{RegistryLock, git_root, resolve, write_whole};
use super::{Adapter, PeerError, Result, io, now_iso};
use tama_core::supervise::{procs, records};

/// One live session, as `sessions/<key>.json` holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Registration {
    pub key: String,
    pub kind: String,
    pub session: String,
    /// The folder's base name, for people to read.
    pub name: String,
    /// The git root of the session's folder, or the folder itself outside git.
    pub root: PathBuf,
    /// Whether `root` is a git root, and so guarded against other sessions' writes.
    pub guarded: bool,
    pub cwd: PathBuf,
    /// The agent's process; the registration lives as long as it does.
    pub pid: i32,
    /// The agent process's start time (clock ticks after boot), so a reused
    /// process id does not keep a registration alive.
    pub pid_start: Option<u64>,
    pub started_at: String,
    pub last_seen: String,
    pub together: Option<Together>,
    /// The SHA-256 of the secret the session-start brief gave the agent: a
    /// command that shows it acts for this session without being one of
    /// its agent's processes.
    #[serde(default)]
    pub secret_sha256: Option<String>,
    /// The longest chain of peer messages sent to this session since its
    /// user last typed; what it sends next is one hop longer.
    #[serde(default)]
    pub chain: u32,
}

/// Work-together mode with one peer, seen from one side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Together {
    /// The peer's key.
    pub with: String,
    /// How many asks this side may send the peer.
    pub budget: u32,
    pub used: u32,
    pub since: String,
    /// When the mode expires, in milliseconds since the epoch.
    pub until_ms: u64,
}

impl Registration {
    pub fn kind(&self) -> Option<Adapter> {
        Adapter::named(&self.kind)
    }

    /// Whether the agent process still runs (another user's counts).
    pub fn alive(&self) -> bool {
        records::alive(self.pid)
            && (self.pid_start.is_none() || process_start(self.pid) == self.pid_start)
    }

    /// `key (name, kind, root)`, as the agent reads it.
    pub fn describe(&self) -> String {
        format!(
            "{} ({}, {}, {})",
            self.key,
            self.name,
            self.kind,
            self.root.display()
        )
    }
}

fn path(dir: &Path, key: &str) -> PathBuf {
    dir.join("sessions").join(format!("{key}.json"))
}

/// The registration of `key`, live or not.
pub fn read(dir: &Path, key: &str) -> Result<Option<Registration>> {
    let file = path(dir, key);
    match tama_core::files::read_regular_to_string(&file) {
        Ok(text) => serde_json::from_str(&text).map(Some).map_err(|e| {
            PeerError::Input(format!("{} is not a registration: {e}", file.display()))
        }),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(io(|| format!("cannot read {}", file.display()))(err)),
    }
}

/// The registration of `key` when its agent still runs.
pub fn live(dir: &Path, key: &str) -> Result<Option<Registration>> {
    Ok(read(dir, key)?.filter(Registration::alive))
}

pub fn write(dir: &Path, registration: &Registration) -> Result<()> {
    let json = serde_json::to_vec_pretty(registration).map_err(PeerError::NotJson)?;
    write_whole(&path(dir, &registration.key), &json)
}

/// Every live registration, oldest first. Registrations whose agent is gone
/// are removed; their inboxes stay for a resumed session.
pub fn all_live(dir: &Path) -> Result<Vec<Registration>> {
    let entries = match fs::read_dir(dir.join("sessions")) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(err) => {
            return Err(io(|| format!("cannot list {}/sessions", dir.display()))(
                err,
            ));
        }
    };
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(key) = name.strip_suffix(".json").filter(|k| super::valid_key(k)) else {
            continue;
        };
        match read(dir, key) {
            Ok(Some(registration)) if registration.alive() => found.push(registration),
            Ok(Some(gone)) => {
                let _ = fs::remove_file(entry.path());
                let why = format!(
                    "session {} ended (its agent process is gone) before it read it",
                    gone.key
                );
                if let Err(err) = super::inbox::return_handed(dir, &gone.key, &why) {
                    super::journal::hook_error(dir, "return", Some(&gone.key), &err);
                }
            }
            // One unreadable registration does not hide the others.
            Ok(None) | Err(_) => {}
        }
    }
    found.sort_by(|a, b| a.started_at.cmp(&b.started_at).then(a.key.cmp(&b.key)));
    Ok(found)
}

/// Registers `key` for the agent process `pid`: the git root of `cwd` (or
/// `cwd` itself outside git), fixed from then on. A registration whose agent
/// still runs is never moved: later hooks, even a second session start,
/// leave its root where its start put it. Returns the registration and
/// whether `pid` is its agent; a hook run by any other process while the
/// agent lives is not the session's own.
pub fn register(
    dir: &Path,
    kind: &Adapter,
    session: &str,
    key: &str,
    cwd: &Path,
    pid: i32,
) -> Result<(Registration, bool)> {
    if pid <= 1 {
        return Err(PeerError::Refused(format!(
            "the hook for {key} runs under no agent process (its parent is process {pid})"
        )));
    }
    let _lock = RegistryLock::take(dir)?;
    let pid_start = process_start(pid);
    match read(dir, key).ok().flatten() {
        Some(on_disk) if on_disk.alive() => {
            let own = on_disk.pid == pid && on_disk.pid_start == pid_start;
            return Ok((on_disk, own));
        }
        Some(gone) => super::inbox::return_handed(
            dir,
            key,
            &format!("session {} ended before it read it", gone.key),
        )?,
        None => {}
    }
    let folder = resolve(Path::new("/"), &cwd.to_string_lossy())?;
    let (root, guarded) = match git_root(&folder) {
        Some(root) => (root, true),
        None => (folder.clone(), false),
    };
    let now = now_iso();
    let registration = Registration {
        key: key.to_string(),
        kind: kind.name().to_string(),
        session: session.to_string(),
        name: root.file_name().map_or_else(
            || root.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        ),
        root,
        guarded,
        cwd: folder,
        pid,
        pid_start,
        started_at: now.clone(),
        last_seen: now,
        together: None,
        secret_sha256: None,
        chain: 0,
    };
    write(dir, &registration)?;
    super::inbox::create(dir, key)?;
    Ok((registration, true))
}

/// Changes the registration of `key` under the registry lock; `None` when
/// it is not registered.
pub fn update(
    dir: &Path,
    key: &str,
    change: impl FnOnce(&mut Registration),
) -> Result<Option<Registration>> {
    let _lock = RegistryLock::take(dir)?;
    let Some(mut registration) = read(dir, key)? else {
        return Ok(None);
    };
    let before = registration.clone();
    change(&mut registration);
    if registration != before {
        write(dir, &registration)?;
    }
    Ok(Some(registration))
}

/// Removes the registration of `key`.
pub fn unregister(dir: &Path, key: &str) -> Result<()> {
    match fs::remove_file(path(dir, key)) {
        Err(err) if err.kind() != std::io::ErrorKind::NotFound => {
            Err(io(|| format!("cannot remove the registration of {key}"))(
                err,
            ))
        }
        _ => Ok(()),
    }
}

/// The live peer a user or agent names: by key, by session id, or by name
/// when only one live session has it.
pub fn find_peer(dir: &Path, named: &str) -> Result<Registration> {
    let live = all_live(dir)?;
    if let Some(found) = live.iter().find(|r| r.key == named || r.session == named) {
        return Ok(found.clone());
    }
    let by_name: Vec<&Registration> = live.iter().filter(|r| r.name == named).collect();
    match by_name.as_slice() {
        [one] => Ok((*one).clone()),
        [] => Err(PeerError::Refused(format!(
            "unknown peer: {named} (no live session has that key, id or name)"
        ))),
        many => Err(PeerError::Refused(format!(
            "{named} names {} live sessions: {}; use a key",
            many.len(),
            many.iter()
                .map(|r| r.key.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

pub fn process_start(pid: i32) -> Option<u64> {
    procs::stat(pid).map(|s| s.start)
}

/// The parent of a process, and its command name.
pub fn parent_of(pid: i32) -> Option<(i32, String)> {
    procs::stat(pid).map(|s| (s.ppid, s.name))
}

/// The agent that started this hook: the parent process, past any shell the
/// harness ran the hook command through.
pub fn agent_pid() -> i32 {
    let mut pid = std::os::unix::process::parent_id() as i32;
    for _ in 0..4 {
        let Some((parent, name)) = parent_of(pid) else {
            break;
        };
        let shell = matches!(
            name.as_str(),
            "sh" | "bash"
                | "dash"
                | "zsh"
                | "fish"
                | "ksh"
                | "mksh"
                | "tcsh"
                | "csh"
                | "yash"
                | "nu"
                | "elvish"
                | "busybox"
        );
        if !shell || parent <= 1 {
            break;
        }
        pid = parent;
    }
    pid
}
