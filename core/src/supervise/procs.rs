//! Process groups seen through `/proc`, to end a hook group another Tama
//! process started, and only that group: a group is named by its leader's pid
//! and the leader's start time, so a reused pid is never mistaken for it, and
//! a process is touched only when it carries the marker the Tama process that
//! started it gave it ([`crate::command::MARKER`] in its environment), so a
//! record on disk alone, which anyone running as the user can write, never
//! gets a process ended.

use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill, killpg};
use nix::unistd::Pid;

pub use crate::command::proc_stat::{Stat, stat};

/// The start time of a group's leader, recorded when the group starts.
pub fn leader_start(pgid: i32) -> Option<u64> {
    stat(pgid).filter(|s| s.pgrp == pgid).map(|s| s.start)
}

/// Whether `pid` carries the marker of a hook that Tama process `owner`
/// started: `TAMA_HOOK_GROUP=<owner>.<run>` in the environment it started with.
pub fn started_by(pid: i32, owner: i32) -> bool {
    let Ok(environ) = std::fs::read(format!("/proc/{pid}/environ")) else {
        return false;
    };
    let prefix = format!("{}={owner}.", crate::command::MARKER);
    environ
        .split(|b| *b == 0)
        .any(|var| var.starts_with(prefix.as_bytes()))
}

/// The processes of group `pgid` that have not exited and that Tama process
/// `owner` started, when it is still the group whose leader started at
/// `start`: its leader lives on, or, with the leader gone, members started no
/// earlier than it.
fn live_members(pgid: i32, start: u64, owner: i32) -> Vec<i32> {
    if pgid <= 1 {
        return Vec::new();
    }
    let leader = stat(pgid);
    if leader.is_some_and(|l| l.pgrp == pgid && l.start != start) {
        return Vec::new();
    }
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            stat(*pid).is_some_and(|s| s.pgrp == pgid && !s.zombie && s.start >= start)
                && started_by(*pid, owner)
        })
        .collect()
}

/// The live leader of the group that started at `start`, when `owner` started it.
fn marked_leader(pgid: i32, start: u64, owner: i32) -> bool {
    stat(pgid).is_some_and(|l| l.pgrp == pgid && l.start == start && !l.zombie)
        && started_by(pgid, owner)
}

/// Whether the group that started at `start`, a hook group of Tama process
/// `owner`, still has a live process.
pub fn group_lives(pgid: i32, start: u64, owner: i32) -> bool {
    marked_leader(pgid, start, owner) || !live_members(pgid, start, owner).is_empty()
}

/// Ends the hook group of Tama process `owner` whose leader started at
/// `start`: SIGTERM, then SIGKILL after `grace` for what is left. While its
/// marked leader lives the whole group is signalled; once the leader is gone,
/// each marked member is. Returns once no member lives (zombies are left to
/// their parent to reap), or gives up a moment after SIGKILL.
pub fn end_group(pgid: i32, start: u64, owner: i32, grace: Duration) {
    for (signal, wait) in [
        (Signal::SIGTERM, grace),
        (Signal::SIGKILL, Duration::from_millis(200)),
    ] {
        if marked_leader(pgid, start, owner) {
            let _ = killpg(Pid::from_raw(pgid), signal);
        } else {
            let members = live_members(pgid, start, owner);
            if members.is_empty() {
                return;
            }
            for member in members {
                let _ = kill(Pid::from_raw(member), signal);
            }
        }
        let until = Instant::now() + wait;
        while group_lives(pgid, start, owner) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    #[test]
    fn this_process_reads_as_itself() {
        let me = super::stat(std::process::id() as i32).expect("/proc/self/stat");
        assert_eq!(me.pgrp, nix::unistd::getpgrp().as_raw());
        assert!(!me.zombie && me.start > 0);
    }

    #[test]
    fn a_process_without_the_marker_is_not_one_tama_started() {
        let me = std::process::id() as i32;
        assert!(!super::started_by(me, me));
        assert!(!super::group_lives(nix::unistd::getpgrp().as_raw(), 0, me));
    }
}
