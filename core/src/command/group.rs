//! Signalling and reaping a hook's process group.

use std::thread;
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::sys::signal::{Signal, killpg};
use nix::sys::wait::{Id, WaitPidFlag, WaitStatus, waitid, waitpid};
use nix::unistd::Pid;

use super::Ended;

/// Makes this process a child subreaper, so a hook's orphaned grandchildren
/// are reparented to it rather than to init, and a run can reap them.
/// Call once, early; elsewhere than Linux there is nothing to do.
pub fn init_supervision() -> std::io::Result<()> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    nix::sys::prctl::set_child_subreaper(true)?;
    SUBREAPER.store(true, std::sync::atomic::Ordering::SeqCst);
    Ok(())
}

/// Set once this process adopts orphaned hook processes.
static SUBREAPER: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// How long ending the adopted processes may take as the process exits.
const EXIT_SETTLE: Duration = Duration::from_secs(1);

/// Ends every process this one adopted, when it is a subreaper: called as
/// Tama exits, once its hooks' runs are over, so nothing a hook started,
/// even outside its group, outlives it.
pub fn end_adopted_before_exit() {
    if SUBREAPER.load(std::sync::atomic::Ordering::SeqCst) {
        end_adopted(None, Instant::now() + EXIT_SETTLE);
    }
}

/// Ends the processes this one adopted as a subreaper, and what they start
/// meanwhile: only those carrying `marker` (one hook run's [`super::MARKER`]
/// value) or, with `None`, every child this process still has, as it does
/// just before it exits. Gives up at `until`.
pub fn end_adopted(marker: Option<&str>, until: Instant) {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    loop {
        // With no child at all, exited or not, nothing was adopted: the
        // usual case, settled without reading `/proc`.
        let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT;
        if waitid(Id::All, flags) == Err(Errno::ECHILD) {
            return;
        }
        let me = std::process::id() as i32;
        let wanted = marker.map(|m| format!("{}={m}", super::MARKER));
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return;
        };
        let adopted: Vec<i32> = entries
            .flatten()
            .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
            .filter(|pid| super::proc_stat::stat(*pid).is_some_and(|s| s.ppid == me))
            .filter(|pid| wanted.as_ref().is_none_or(|wanted| carries(*pid, wanted)))
            .collect();
        if adopted.is_empty() {
            return;
        }
        // A child's pid is not reused before it is reaped, so each signal
        // reaches the process found above.
        for pid in &adopted {
            let _ = nix::sys::signal::kill(Pid::from_raw(*pid), Signal::SIGKILL);
        }
        for pid in adopted {
            while matches!(waitpid(Pid::from_raw(pid), None), Err(Errno::EINTR)) {}
        }
        if Instant::now() >= until {
            return;
        }
    }
}

/// Whether `pid` started with the environment entry `wanted` (`NAME=value`).
fn carries(pid: i32, wanted: &str) -> bool {
    std::fs::read(format!("/proc/{pid}/environ"))
        .is_ok_and(|env| env.split(|b| *b == 0).any(|var| var == wanted.as_bytes()))
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
