//! Running command hooks as real process groups.

use crate::support::process;

use std::thread;
use std::time::{Duration, Instant};

use process::{assert_group_gone, members, spec};
use tama_core::command::{self, Ended, OUTPUT_CAP, SpawnError};

const SLACK: Duration = Duration::from_secs(1);

fn run(command: &str, timeout: Duration) -> (command::Finished, i32, Duration) {
    command::init_supervision().expect("subreaper");
    let started = Instant::now();
    let running = command::spawn(&spec(command, timeout), b"").expect("spawn");
    let pgid = running.process_group();
    let finished = running.wait();
    (finished, pgid, started.elapsed())
}

#[test]
fn exit_status_and_output_are_reported() {
    let (finished, pgid, _) = run("echo out; echo err >&2; exit 3", Duration::from_secs(5));
    assert_eq!(finished.ended, Ended::Exited(3));
    assert_eq!(finished.stdout, "out\n");
    assert_eq!(finished.stderr, "err\n");
    assert_eq!(finished.hook_id, "test-hook");
    assert_group_gone(pgid, Duration::ZERO);
}

#[test]
fn a_hook_runs_in_its_own_process_group() {
    let (finished, pgid, _) = run("cut -d' ' -f5 /proc/$$/stat", Duration::from_secs(5));
    assert_eq!(finished.stdout.trim(), pgid.to_string());
    assert_ne!(pgid, nix::unistd::getpgrp().as_raw());
}

#[test]
fn a_signal_is_reported() {
    let (finished, _, _) = run("kill -9 $$", Duration::from_secs(5));
    assert_eq!(finished.ended, Ended::Signalled(9));
}

#[test]
fn a_hook_past_its_timeout_is_ended_with_its_group() {
    let timeout = Duration::from_secs(1);
    let (finished, pgid, took) = run("sleep 30", timeout);
    assert_eq!(finished.ended, Ended::TimedOut);
    assert!(took < timeout + SLACK, "took {took:?}");
    assert_group_gone(pgid, Duration::ZERO);
}

#[test]
fn a_grandchild_that_ignores_sigterm_is_killed_at_the_timeout() {
    let timeout = Duration::from_secs(1);
    let (finished, pgid, took) = run(r#"sh -c 'trap "" TERM; sleep 30' & sleep 30"#, timeout);
    assert_eq!(finished.ended, Ended::TimedOut);
    assert!(took < timeout + SLACK, "took {took:?}");
    assert_group_gone(pgid, Duration::ZERO);
}

#[test]
fn a_hook_that_ignores_sigterm_itself_is_killed() {
    let timeout = Duration::from_millis(500);
    let (finished, pgid, took) = run(r#"trap "" TERM; sleep 30; sleep 30"#, timeout);
    assert_eq!(finished.ended, Ended::TimedOut);
    assert!(took < timeout + SLACK, "took {took:?}");
    assert_group_gone(pgid, Duration::ZERO);
}

#[test]
fn a_background_grandchild_holding_the_pipes_does_not_hold_the_run() {
    let (finished, pgid, took) = run("sleep 30 & echo started", Duration::from_secs(10));
    assert_eq!(finished.ended, Ended::Exited(0));
    assert_eq!(finished.stdout, "started\n");
    assert!(took < SLACK, "took {took:?}");
    assert_group_gone(pgid, Duration::ZERO);
}

#[test]
fn a_background_grandchild_with_its_own_output_is_killed() {
    let (finished, pgid, took) = run(
        "sleep 30 >/dev/null 2>&1 </dev/null & echo $!",
        Duration::from_secs(10),
    );
    assert_eq!(finished.ended, Ended::Exited(0));
    assert!(took < SLACK, "took {took:?}");
    let grandchild: i32 = finished.stdout.trim().parse().expect("pid");
    assert!(!std::path::Path::new(&format!("/proc/{grandchild}")).exists());
    assert_group_gone(pgid, Duration::ZERO);
}

#[test]
fn cancelling_from_another_thread_ends_the_group() {
    command::init_supervision().expect("subreaper");
    let running = command::spawn(
        &spec(
            r#"trap "" TERM; sleep 30 & sleep 30"#,
            Duration::from_secs(30),
        ),
        b"",
    )
    .expect("spawn");
    let pgid = running.process_group();
    let canceller = running.canceller();
    let started = Instant::now();
    let cancelling = thread::spawn(move || {
        thread::sleep(Duration::from_millis(200));
        canceller.cancel();
    });
    let finished = running.wait();
    assert_eq!(finished.ended, Ended::Cancelled);
    assert!(started.elapsed() < SLACK, "took {:?}", started.elapsed());
    cancelling.join().expect("canceller thread");
    assert_group_gone(pgid, Duration::ZERO);
}

#[test]
fn cancelling_before_waiting_ends_at_once() {
    command::init_supervision().expect("subreaper");
    let running = command::spawn(&spec("sleep 30", Duration::from_secs(30)), b"").expect("spawn");
    let pgid = running.process_group();
    running.canceller().cancel();
    let started = Instant::now();
    assert_eq!(running.wait().ended, Ended::Cancelled);
    assert!(started.elapsed() < SLACK);
    assert_group_gone(pgid, Duration::ZERO);
}

#[test]
fn dropping_a_run_kills_its_group() {
    command::init_supervision().expect("subreaper");
    let running =
        command::spawn(&spec("sleep 30 & sleep 30", Duration::from_secs(30)), b"").expect("spawn");
    let pgid = running.process_group();
    thread::sleep(Duration::from_millis(100));
    assert!(!members(pgid).is_empty());
    drop(running);
    assert_group_gone(pgid, SLACK);
}

#[test]
fn a_hook_that_does_not_read_stdin_does_not_block() {
    command::init_supervision().expect("subreaper");
    let payload = vec![b'x'; 1 << 20];
    let started = Instant::now();
    let running =
        command::spawn(&spec("echo done", Duration::from_secs(10)), &payload).expect("spawn");
    let finished = running.wait();
    assert_eq!(finished.ended, Ended::Exited(0));
    assert_eq!(finished.stdout, "done\n");
    assert!(started.elapsed() < SLACK);
}

#[test]
fn the_payload_reaches_stdin() {
    command::init_supervision().expect("subreaper");
    let payload = vec![b'x'; 1 << 20];
    let finished = command::spawn(&spec("wc -c", Duration::from_secs(10)), &payload)
        .expect("spawn")
        .wait();
    assert_eq!(finished.stdout.trim(), "1048576");
}

#[test]
fn output_past_the_cap_is_dropped() {
    let (finished, _, _) = run(
        "head -c 3000000 /dev/zero | tr '\\0' a",
        Duration::from_secs(10),
    );
    assert_eq!(finished.ended, Ended::Exited(0));
    assert_eq!(finished.stdout.len(), OUTPUT_CAP);
}

#[test]
fn cwd_and_env_are_applied() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut spec = spec(
        r#"printf '%s %s' "$TAMA_TEST" "$(pwd -P)""#,
        Duration::from_secs(5),
    );
    spec.cwd = Some(dir.path().into());
    spec.env = vec![("TAMA_TEST".into(), "yes".into())];
    let finished = command::spawn(&spec, b"").expect("spawn").wait();
    let real = dir.path().canonicalize().expect("canonical");
    assert_eq!(finished.stdout, format!("yes {}", real.display()));
}

#[test]
fn a_missing_cwd_is_a_spawn_error() {
    let mut spec = spec("true", Duration::from_secs(5));
    spec.cwd = Some("/nonexistent/tama/cwd".into());
    match command::spawn(&spec, b"") {
        Err(error @ SpawnError::Cwd { .. }) => {
            let message = error.to_string();
            assert!(
                message.contains("test-hook") && message.contains("/nonexistent/tama/cwd"),
                "{message}"
            );
        }
        Err(other) => panic!("expected a cwd error, got {other}"),
        Ok(_) => panic!("a hook started in a missing directory"),
    }
}

#[test]
fn a_huge_timeout_does_not_overflow() {
    let (finished, _, _) = run("exit 0", Duration::MAX);
    assert_eq!(finished.ended, Ended::Exited(0));
}
