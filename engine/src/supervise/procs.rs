//! Process groups seen through `/proc`, to end a hook group another Tama
//! process started, and only that group: a group is named by its leader's pid
//! and the leader's start time, so a reused pid is never mistaken for it.

use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

/// What `/proc/<pid>/stat` says of a process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stat {
    /// The command name, as the kernel keeps it (at most 15 bytes).
    pub name: String,
    pub ppid: i32,
    pub pgrp: i32,
    /// Clock ticks after boot when the process started.
    pub start: u64,
    pub zombie: bool,
}

pub fn stat(pid: i32) -> Option<Stat> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // pid (comm) state ppid pgrp ...; comm may hold spaces and parens.
    let (open, close) = (text.find('(')?, text.rfind(')')?);
    let fields: Vec<&str> = text.get(close + 1..)?.split_whitespace().collect();
    Some(Stat {
        name: text.get(open + 1..close)?.to_string(),
        zombie: *fields.first()? == "Z",
        ppid: fields.get(1)?.parse().ok()?,
        pgrp: fields.get(2)?.parse().ok()?,
        start: fields.get(19)?.parse().ok()?,
    })
}

/// The start time of a group's leader, recorded when the group starts.
pub fn leader_start(pgid: i32) -> Option<u64> {
    stat(pgid).filter(|s| s.pgrp == pgid).map(|s| s.start)
}

/// The processes of group `pgid` that have not exited, when it is still the
/// group whose leader started at `start`: its leader lives on, or, with the
/// leader gone, members started no earlier than it.
fn live_members(pgid: i32, start: u64) -> Vec<i32> {
    if pgid <= 1 {
        return Vec::new();
    }
    let leader = stat(pgid);
    if leader.is_some_and(|l| l.pgrp == pgid && l.start != start) {
        return Vec::new();
    }
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| stat(*pid).is_some_and(|s| s.pgrp == pgid && !s.zombie && s.start >= start))
        .collect()
}

/// Whether the group that started at `start` still has a live process.
pub fn group_lives(pgid: i32, start: u64) -> bool {
    let leader = stat(pgid).is_some_and(|l| l.pgrp == pgid && l.start == start && !l.zombie);
    leader || !live_members(pgid, start).is_empty()
}

/// Ends the group whose leader started at `start`: SIGTERM, then SIGKILL
/// after `grace` for what is left. Returns once no member lives (zombies are
/// left to their parent to reap), or gives up a moment after SIGKILL.
pub fn end_group(pgid: i32, start: u64, grace: Duration) {
    for (signal, wait) in [(Signal::SIGTERM, grace), (Signal::SIGKILL, Duration::from_millis(200))] {
        if !group_lives(pgid, start) {
            return;
        }
        let _ = killpg(Pid::from_raw(pgid), signal);
        let until = Instant::now() + wait;
        while group_lives(pgid, start) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn this_process_reads_as_itself() {
        let me = super::stat(std::process::id() as i32).expect("/proc/self/stat");
        assert_eq!(me.pgrp, nix::unistd::getpgrp().as_raw());
        assert!(!me.zombie && me.start > 0);
    }
}
