//! How often a process's threads were switched in. Also compiled into the
//! benchmark (`tama/benches/gate.rs`), so it uses std alone.

/// Context switches of every thread of `pid` together, voluntary or not.
pub fn wake_ups(pid: u32) -> std::io::Result<u64> {
    let mut total = 0;
    for task in std::fs::read_dir(format!("/proc/{pid}/task"))?.flatten() {
        let Ok(status) = std::fs::read_to_string(task.path().join("status")) else {
            continue;
        };
        total += status
            .lines()
            .filter(|line| line.contains("ctxt_switches"))
            .filter_map(|line| line.split_whitespace().nth(1)?.parse::<u64>().ok())
            .sum::<u64>();
    }
    Ok(total)
}
