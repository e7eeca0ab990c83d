//! A Tama process the harness terminates (SIGTERM, SIGINT, SIGHUP, as a
//! harness does at its own time limit or when it quits) first ends the hook
//! groups it runs, so nothing it started outlives it.

use nix::sys::signal::{SigSet, Signal};

/// Blocks the terminating signals in this thread, and in every thread it
/// starts from now on, and takes them on a thread of their own, which calls
/// `end` and exits with 128 + the signal's number. Hooks start with no
/// signal blocked: a child's signal mask is reset before its program runs.
pub fn on_termination(end: impl FnOnce(Signal) + Send + 'static) {
    let mut signals = SigSet::empty();
    for signal in [Signal::SIGTERM, Signal::SIGINT, Signal::SIGHUP] {
        signals.add(signal);
    }
    if let Err(err) = signals.thread_block() {
        crate::log::write(
            "termination",
            &format!("cannot take terminating signals: {err}"),
        );
        return;
    }
    let spawned = std::thread::Builder::new()
        .name("tama-termination".into())
        .spawn(move || {
            let Ok(signal) = signals.wait() else { return };
            end(signal);
            crate::command::end_adopted_before_exit();
            std::process::exit(128 + signal as i32);
        });
    if let Err(err) = spawned {
        let _ = signals.thread_unblock();
        crate::log::write(
            "termination",
            &format!("cannot take terminating signals: {err}"),
        );
    }
}

/// Ends the group of one of this process's own running-hook entries
/// (`processGroup`, `leaderStart`).
pub fn end_hook(hook: &serde_json::Value) {
    let group = hook
        .get("processGroup")
        .and_then(serde_json::Value::as_i64)
        .and_then(|g| i32::try_from(g).ok());
    if let (Some(group), Some(start)) = (
        group,
        hook.get("leaderStart").and_then(serde_json::Value::as_u64),
    ) {
        super::procs::end_group(
            group,
            start,
            std::process::id() as i32,
            crate::command::GRACE,
        );
    }
}
