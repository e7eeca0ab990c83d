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
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| {
            let pid: i32 = entry.ok()?.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            // pid (comm) state ppid pgrp ...; comm may hold spaces and parens.
            let after = &stat[stat.rfind(')')? + 1..];
            let pgrp: i32 = after.split_whitespace().nth(2)?.parse().ok()?;
            (pgrp == pgid).then_some(pid)
        })
        .collect()
}

/// Asserts that no process of the group is left, allowing `within` for the
/// kernel to finish tearing down processes already killed and reaped.
pub fn assert_group_gone(pgid: i32, within: Duration) {
    let until = Instant::now() + within;
    loop {
        let left = members(pgid);
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
