//! Helpers shared by the command-hook tests.

#![allow(dead_code)]

use std::time::{Duration, Instant};

use tama_core::command::CommandSpec;

pub fn spec(command: &str, timeout: Duration) -> CommandSpec {
    CommandSpec {
        hook_id: "test-hook".into(),
        command: command.into(),
        timeout,
        cwd: None,
        env: Vec::new(),
    }
}

/// Pids of every process, zombies included, whose process group is `pgid`,
/// read from /proc rather than from the runner's own bookkeeping.
pub fn members(pgid: i32) -> Vec<i32> {
    processes()
        .filter(|p| p.pgrp == pgid)
        .map(|p| p.pid)
        .collect()
}

/// Asserts that no process of the group is left, allowing `within` for the
/// kernel to finish tearing down processes already killed and reaped.
///
/// A zombie is left only while this test, or a process it started, is the
/// one to reap it: one whose parent is gone was handed to init, which reaps
/// on its own schedule (seconds, on some machines).
pub fn assert_group_gone(pgid: i32, within: Duration) {
    let until = Instant::now() + within;
    loop {
        let left: Vec<i32> = processes()
            .filter(|p| p.pgrp == pgid && (p.state != 'Z' || started_here(p.ppid)))
            .map(|p| p.pid)
            .collect();
        if left.is_empty() {
            return;
        }
        assert!(
            Instant::now() < until,
            "process group {pgid} still has {left:?}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// One line of `/proc/<pid>/stat`, the fields the tests read.
struct Stat {
    pid: i32,
    state: char,
    ppid: i32,
    pgrp: i32,
}

fn processes() -> impl Iterator<Item = Stat> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .filter_map(|entry| stat(entry.ok()?.file_name().to_str()?.parse().ok()?))
}

fn stat(pid: i32) -> Option<Stat> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // pid (comm) state ppid pgrp ...; comm may hold spaces and parens.
    let mut after = stat[stat.rfind(')')? + 1..].split_whitespace();
    Some(Stat {
        pid,
        state: after.next()?.chars().next()?,
        ppid: after.next()?.parse().ok()?,
        pgrp: after.next()?.parse().ok()?,
    })
}

/// Whether `pid` is this test process or one it started, at any depth.
fn started_here(mut pid: i32) -> bool {
    let me = std::process::id() as i32;
    while pid > 1 {
        if pid == me {
            return true;
        }
        let Some(parent) = stat(pid) else {
            return false;
        };
        pid = parent.ppid;
    }
    false
}
