//! A one-event run the harness terminates (SIGTERM, SIGINT, SIGHUP, as a
//! harness does at its own time limit) first ends the hook groups it runs,
//! so nothing it started outlives it.

use std::sync::Weak;

use nix::sys::signal::{SigSet, Signal};

use super::Run;

/// Blocks the terminating signals in this thread, and in every thread it
/// starts from now on, and takes them on a thread of their own, which ends
/// `run`'s hooks and exits with 128 + the signal's number. Hooks start with
/// no signal blocked: a child's signal mask is reset before its program runs.
pub fn end_hooks_on_termination(run: Weak<Run>) {
    let mut signals = SigSet::empty();
    for signal in [Signal::SIGTERM, Signal::SIGINT, Signal::SIGHUP] {
        signals.add(signal);
    }
    if let Err(err) = signals.thread_block() {
        crate::log::write("run-hook", &format!("cannot take terminating signals: {err}"));
        return;
    }
    let spawned = std::thread::Builder::new().name("tama-termination".into()).spawn(move || {
        let Ok(signal) = signals.wait() else { return };
        if let Some(run) = run.upgrade() {
            run.end_all(&format!("tama run-hook was terminated by {}", signal.as_str()));
        }
        std::process::exit(128 + signal as i32);
    });
    if let Err(err) = spawned {
        let _ = signals.thread_unblock();
        crate::log::write("run-hook", &format!("cannot take terminating signals: {err}"));
    }
}
