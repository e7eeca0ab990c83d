//! Starting a hook and supervising it to its end.

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::sys::signal::Signal;
use nix::sys::wait::{Id, WaitPidFlag, waitid};
use nix::unistd::Pid;

use super::capture::{Capture, lock};
use super::{CommandSpec, Ended, Finished, GRACE, OUTPUT_CAP, SpawnError, group};

/// How long, after SIGKILL, the leader has to go, and then the pipes to
/// close and adopted members to be reaped, before a run returns regardless.
const SETTLE: Duration = Duration::from_millis(200);

/// Numbers this process's hook runs, for their [`super::MARKER`].
static RUNS: AtomicU64 = AtomicU64::new(0);

/// How long a run nobody waits for any more has to be reaped in the back.
const ABANDONED_SETTLE: Duration = Duration::from_secs(5);

#[derive(Default)]
struct State {
    /// The leader has exited; it stays a zombie, holding the group id, until
    /// `reaped` is set by whoever reaps it.
    exited: bool,
    reaped: bool,
    cancelled: bool,
    /// Nobody waits for the run any more: the watcher thread ends it.
    abandoned: bool,
}

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    cv: Condvar,
}

/// A hook that was started. Dropping it without [`Running::wait`] kills its
/// group, which is then reaped in the background.
pub struct Running {
    hook_id: String,
    timeout: Duration,
    pid: i32,
    /// This run's [`super::MARKER`] value, which its descendants inherit.
    marker: Arc<str>,
    started: Instant,
    shared: Arc<Shared>,
    stdout: Option<Capture>,
    stderr: Option<Capture>,
}

/// Ends a run from another thread; its [`Running::wait`] then returns
/// [`Ended::Cancelled`].
#[derive(Clone)]
pub struct Canceller {
    pgid: i32,
    shared: Arc<Shared>,
}

/// Starts `spec.command` with `/bin/sh -c` in a new process group, writing
/// `stdin_payload` to its stdin and then closing it. The hook inherits the
/// engine's environment, plus `spec.env`.
pub fn spawn(spec: &CommandSpec, stdin_payload: &[u8]) -> Result<Running, SpawnError> {
    let hook_id = spec.hook_id.clone();
    let mut command = Command::new("/bin/sh");
    command.arg("-c").arg(&spec.command).process_group(0);
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // A hook sees a capability only when Tama hands it one in `spec.env`.
    command.env_remove(super::CAPABILITY_VAR);
    command.envs(spec.env.iter().map(|(key, value)| (key, value)));
    let marker: Arc<str> = format!(
        "{}.{}",
        std::process::id(),
        RUNS.fetch_add(1, Ordering::Relaxed)
    )
    .into();
    command.env(super::MARKER, &*marker);
    if let Some(cwd) = &spec.cwd {
        command.current_dir(cwd);
    }
    let started = Instant::now();
    let mut child = command.spawn().map_err(|cause| match &spec.cwd {
        Some(cwd) if !cwd.is_dir() => SpawnError::Cwd {
            hook_id: hook_id.clone(),
            cwd: cwd.clone(),
            cause,
        },
        _ => SpawnError::Shell {
            hook_id: hook_id.clone(),
            cause,
        },
    })?;
    let pid = i32::try_from(child.id()).unwrap_or(0);
    let (stdin, stdout, stderr) = (child.stdin.take(), child.stdout.take(), child.stderr.take());
    // Waiting goes through `waitid`/`waitpid` on the pid; dropping a `Child`
    // neither waits nor kills.
    drop(child);
    let mut running = Running {
        hook_id,
        timeout: spec.timeout,
        pid,
        marker: marker.clone(),
        started,
        shared: Arc::default(),
        stdout: None,
        stderr: None,
    };
    let supervise = || -> std::io::Result<()> {
        running.stdout = stdout
            .map(|pipe| Capture::start(pipe, OUTPUT_CAP))
            .transpose()?;
        running.stderr = stderr
            .map(|pipe| Capture::start(pipe, OUTPUT_CAP))
            .transpose()?;
        if let Some(mut stdin) = stdin.filter(|_| !stdin_payload.is_empty()) {
            let payload = stdin_payload.to_vec();
            // Fails with EPIPE, ignored, if the hook ends without reading it all.
            thread::Builder::new()
                .name("tama-hook-stdin".into())
                .spawn(move || drop(stdin.write_all(&payload)))?;
        }
        let (shared, marker) = (Arc::clone(&running.shared), marker.clone());
        thread::Builder::new()
            .name("tama-hook-watch".into())
            .spawn(move || watch(pid, &marker, &shared))?;
        Ok(())
    };
    match supervise() {
        Ok(()) => Ok(running),
        Err(cause) => {
            let hook_id = running.hook_id.clone();
            // Nothing watches it: end it here, then make `Drop` a no-op.
            lock(&running.shared.state).reaped = true;
            end_group(pid, &running.marker, Instant::now() + SETTLE);
            Err(SpawnError::Thread { hook_id, cause })
        }
    }
}

impl Running {
    /// The group's id, which is also the pid of its leader, `/bin/sh`.
    pub fn process_group(&self) -> i32 {
        self.pid
    }

    pub fn canceller(&self) -> Canceller {
        Canceller {
            pgid: self.pid,
            shared: Arc::clone(&self.shared),
        }
    }

    /// Waits until the hook exits, runs past its timeout or is cancelled,
    /// then kills and reaps what is left of its group. On a timeout or a
    /// cancellation the group gets SIGTERM, then SIGKILL after [`GRACE`];
    /// the run returns within about `timeout` + `GRACE` + 2 × 200 ms.
    pub fn wait(mut self) -> Finished {
        let deadline = self.started.checked_add(self.timeout);
        let mut state = lock(&self.shared.state);
        let stop = loop {
            if state.cancelled {
                break Some(Ended::Cancelled);
            }
            if state.exited {
                break None;
            }
            match deadline {
                Some(deadline) if Instant::now() >= deadline => break Some(Ended::TimedOut),
                until => state = self.wait_change(state, until),
            }
        };
        if stop.is_some() && !state.exited {
            group::signal(self.pid, Signal::SIGTERM);
            state = self.wait_exit(state, Instant::now() + GRACE);
            if !state.exited {
                group::signal(self.pid, Signal::SIGKILL);
                state = self.wait_exit(state, Instant::now() + SETTLE);
            }
        }
        let settle = Instant::now() + SETTLE;
        let ended = if state.exited {
            state.reaped = true;
            drop(state);
            let status = end_group(self.pid, &self.marker, settle);
            stop.unwrap_or(status)
        } else {
            // The leader outlived SIGKILL (stuck in the kernel): leave it to
            // the watcher rather than wait without bound.
            state.abandoned = true;
            drop(state);
            stop.unwrap_or(Ended::Lost)
        };
        let take = |capture: Option<Capture>| capture.map(|c| c.take(settle)).unwrap_or_default();
        let (stdout, stdout_overflowed) = take(self.stdout.take());
        let (stderr, _) = take(self.stderr.take());
        Finished {
            hook_id: std::mem::take(&mut self.hook_id),
            timeout: self.timeout,
            ended,
            stdout,
            stdout_overflowed,
            stderr,
            ms: u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX),
        }
    }

    fn wait_change<'a>(
        &'a self,
        state: MutexGuard<'a, State>,
        until: Option<Instant>,
    ) -> MutexGuard<'a, State> {
        let cv = &self.shared.cv;
        match until {
            Some(until) => {
                let left = until.saturating_duration_since(Instant::now());
                cv.wait_timeout(state, left)
                    .unwrap_or_else(|poisoned| poisoned.into_inner())
                    .0
            }
            None => cv
                .wait(state)
                .unwrap_or_else(|poisoned| poisoned.into_inner()),
        }
    }

    fn wait_exit<'a>(
        &'a self,
        mut state: MutexGuard<'a, State>,
        until: Instant,
    ) -> MutexGuard<'a, State> {
        while !state.exited && Instant::now() < until {
            state = self.wait_change(state, Some(until));
        }
        state
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let mut state = lock(&self.shared.state);
        if state.reaped || state.abandoned {
            return;
        }
        if state.exited {
            state.reaped = true;
            drop(state);
            end_group(self.pid, &self.marker, Instant::now() + SETTLE);
        } else {
            state.abandoned = true;
            drop(state);
            group::signal(self.pid, Signal::SIGKILL);
        }
    }
}

impl Canceller {
    /// Sends SIGTERM to the group and wakes the waiting thread, which sends
    /// SIGKILL after [`GRACE`]. Does nothing once the run is over.
    pub fn cancel(&self) {
        let mut state = lock(&self.shared.state);
        if state.reaped || state.cancelled {
            return;
        }
        state.cancelled = true;
        group::signal(self.pgid, Signal::SIGTERM);
        drop(state);
        self.shared.cv.notify_all();
    }

    pub fn process_group(&self) -> i32 {
        self.pgid
    }
}

/// Waits, without reaping, for the leader to exit, and reports it; if
/// nobody waits for the run any more, ends it here instead.
fn watch(pid: i32, marker: &str, shared: &Shared) {
    let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOWAIT;
    while pid > 0 && waitid(Id::Pid(Pid::from_raw(pid)), flags) == Err(Errno::EINTR) {}
    let mut state = lock(&shared.state);
    state.exited = true;
    if state.abandoned && !state.reaped {
        state.reaped = true;
        drop(state);
        end_group(pid, marker, Instant::now() + ABANDONED_SETTLE);
    } else {
        drop(state);
        shared.cv.notify_all();
    }
}

/// Kills what is left of an exited leader's group, reaps the leader and
/// then the members this process adopted, then ends the run's descendants
/// that left the group and were adopted (found by the run's `marker`).
fn end_group(pid: i32, marker: &str, until: Instant) -> Ended {
    group::signal(pid, Signal::SIGKILL);
    let ended = group::reap_leader(pid);
    group::reap_members(pid, until);
    group::end_adopted(Some(marker), until);
    ended
}
