//! The waiter: Claude Code runs it in the background after each turn
//! (`asyncRewake`). It waits for messages and, when they come, exits 2 with
//! them on stderr, which wakes the idle session. One waiter a session: it
//! holds a lock on `<key>.wait`, which the kernel releases when it dies.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::time::{Duration, Instant};

use super::delivery::{self, Outcome};
use super::sessions::{self, Registration};
use super::{Result, ensure_dir, inbox, io, together};

/// How often the waiter looks: `TAMA_PEERS_POLL_MS`, else 250 ms.
fn poll_interval() -> Duration {
    Duration::from_millis(env_number("TAMA_PEERS_POLL_MS").unwrap_or(250))
}

/// How long a waiter waits before it ends quietly: `TAMA_PEERS_WAIT_S`,
/// else a minute less than the timeout Claude Code is given for it.
fn lifetime() -> Duration {
    Duration::from_secs(
        env_number("TAMA_PEERS_WAIT_S").unwrap_or(tama_adapters::peers::WAITER_TIMEOUT_SECS - 60),
    )
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok()?.parse().ok()
}

pub fn wait(dir: &Path, me: &Registration) -> Result<Outcome> {
    if non_interactive(me.pid) {
        // `claude -p` ends after its answer: a waiter would only hold it
        // open, and a message it woke the session with would be lost.
        return Ok(Outcome::default());
    }
    let Some(_lock) = take_lock(dir, &me.key)? else {
        return Ok(Outcome::default());
    };
    let deadline = Instant::now() + lifetime();
    loop {
        // The registration goes when the session ends; then so does the waiter.
        let Some(now) = sessions::read(dir, &me.key)? else {
            return Ok(Outcome::default());
        };
        let now = together::settle(dir, now)?;
        if inbox::unread_count(dir, &me.key) > 0 {
            let now = sessions::read(dir, &me.key)?.unwrap_or(now);
            if let Some(outcome) = wake(dir, &now)? {
                return Ok(outcome);
            }
        }
        if Instant::now() >= deadline {
            return Ok(Outcome::default());
        }
        std::thread::sleep(poll_interval());
    }
}

/// Whether the waiter runs for a non-interactive Claude Code run: `-p` or
/// `--print` on the command line of the agent process `agent` or of a
/// process between it and this hook (a wrapper it runs through). The hook
/// input cannot tell: its `permission_mode` is the same in both.
fn non_interactive(agent: i32) -> bool {
    let printing = |pid: i32| {
        let argv = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        argv.split(|b| *b == 0)
            .skip(1)
            .any(|arg| arg == b"-p" || arg == b"--print")
    };
    let mut pid = std::os::unix::process::parent_id() as i32;
    // The agent is at most a few shells above its hook (see `sessions::agent_pid`).
    for _ in 0..6 {
        if printing(pid) {
            return true;
        }
        if pid == agent || pid <= 1 {
            return false;
        }
        let Some((parent, _)) = sessions::parent_of(pid) else {
            break;
        };
        pid = parent;
    }
    printing(agent)
}

/// Takes the lock of `<key>.wait` and writes this process's id into it;
/// `None` when another waiter holds it.
fn take_lock(dir: &Path, key: &str) -> Result<Option<File>> {
    ensure_dir(dir)?;
    let path = dir.join(format!("{key}.wait"));
    let mut file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .mode(0o600)
        .open(&path)
        .map_err(io(|| format!("cannot open {}", path.display())))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => return Ok(None),
        Err(TryLockError::Error(err)) => {
            return Err(io(|| format!("cannot lock {}", path.display()))(err));
        }
    }
    file.set_len(0)
        .and_then(|()| writeln!(file, "{}", std::process::id()))
        .map_err(io(|| format!("cannot write {}", path.display())))?;
    Ok(Some(file))
}

/// Takes the messages and hands them to Claude Code on stderr with exit 2.
/// Messages that cannot be written go back to the inbox.
fn wake(dir: &Path, me: &Registration) -> Result<Option<Outcome>> {
    let Some((letters, text)) = delivery::take_rendered(dir, me)? else {
        return Ok(None);
    };
    let mut stderr = std::io::stderr().lock();
    if let Err(err) = writeln!(stderr, "{text}").and_then(|()| stderr.flush()) {
        inbox::put_back(dir, &me.key, &letters)?;
        return Err(io(|| {
            "cannot write the messages to stderr; they are back in the inbox".into()
        })(err));
    }
    delivery::record_delivery(dir, me, &letters, "waiter");
    Ok(Some(Outcome {
        code: 2,
        ..Outcome::default()
    }))
}
