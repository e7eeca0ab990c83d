//! Signalling and reaping a hook's process group.

use std::thread;
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::sys::signal::{Signal, killpg};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::Pid;

use super::Ended;

/// Makes this process a child subreaper, so a hook's orphaned grandchildren
/// are reparented to it rather than to init, and a run can reap them.
/// Call once, early; elsewhere than Linux there is nothing to do.
pub fn init_supervision() -> std::io::Result<()> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    nix::sys::prctl::set_child_subreaper(true)?;
    Ok(())
}

/// Sends `signal` to every process of the group. Only call it while the
/// leader is not yet reaped: its zombie keeps the group id from being reused.
pub(super) fn signal(pgid: i32, signal: Signal) {
    if pgid > 1 {
        let _ = killpg(Pid::from_raw(pgid), signal);
    }
}

/// Reaps the group's leader, which has exited, and says how it ended.
pub(super) fn reap_leader(pid: i32) -> Ended {
    if pid <= 1 {
        return Ended::Lost;
    }
    loop {
        match waitpid(Pid::from_raw(pid), None) {
            Ok(WaitStatus::Exited(_, code)) => return Ended::Exited(code),
            Ok(WaitStatus::Signaled(_, signal, _)) => return Ended::Signalled(signal as i32),
            Ok(_) | Err(Errno::EINTR) => continue,
            Err(_) => return Ended::Lost,
        }
    }
}

/// Reaps the group's members that are this process's children (orphans it
/// adopted as a subreaper) until none is left or `until` passes. Only this
/// group's pids are waited for, so other children keep their statuses.
pub(super) fn reap_members(pgid: i32, until: Instant) {
    if pgid <= 1 {
        return;
    }
    let group = Pid::from_raw(-pgid);
    loop {
        match waitpid(group, Some(WaitPidFlag::WNOHANG)) {
            Ok(WaitStatus::StillAlive) if Instant::now() < until => {
                thread::sleep(Duration::from_millis(1))
            }
            Ok(WaitStatus::StillAlive) => return,
            Ok(_) | Err(Errno::EINTR) => continue,
            Err(_) => return,
        }
    }
}
