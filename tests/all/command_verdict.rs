//! Reading verdicts from real hook runs.

use crate::support::process;

use std::thread;
use std::time::Duration;

use process::spec;
use tama_core::command::{self, Ended, Finished, HookVerdict};

fn verdict_of(command: &str) -> HookVerdict {
    command::init_supervision().expect("subreaper");
    let finished = command::spawn(&spec(command, Duration::from_secs(5)), b"{}")
        .expect("spawn")
        .wait();
    command::verdict(&finished)
}

fn refuse(reason: &str) -> HookVerdict {
    HookVerdict::Refuse(reason.into())
}

fn failed(why: &str) -> HookVerdict {
    HookVerdict::Failed(why.into())
}

#[test]
fn exit_zero_passes() {
    assert_eq!(verdict_of("cat >/dev/null; exit 0"), HookVerdict::Pass);
}

#[test]
fn exit_two_refuses_with_stderr() {
    assert_eq!(
        verdict_of("echo '  no, not that  ' >&2; exit 2"),
        refuse("no, not that")
    );
}

#[test]
fn exit_two_falls_back_to_plain_stdout_then_a_default() {
    assert_eq!(verdict_of("echo plain; exit 2"), refuse("plain"));
    assert_eq!(
        verdict_of("exit 2"),
        refuse("hook test-hook refused without a reason")
    );
    assert_eq!(
        verdict_of(r#"echo '{"x":1}'; exit 2"#),
        refuse("hook test-hook refused without a reason")
    );
}

#[test]
fn a_block_decision_refuses_even_with_exit_zero() {
    assert_eq!(
        verdict_of(r#"echo '{"decision":"block","reason":"x"}'"#),
        refuse("x")
    );
    assert_eq!(
        verdict_of(r#"echo '{"decision":"BLOCK","userMessage":"y"}'; echo ignored >&2"#),
        refuse("y")
    );
    assert_eq!(
        verdict_of(r#"echo '{"decision":"Block"}'; echo why >&2"#),
        refuse("why")
    );
}

#[test]
fn an_approve_decision_passes_despite_a_failure_exit_but_not_exit_2() {
    assert_eq!(
        verdict_of(r#"echo '{"decision":"approve"}'; exit 1"#),
        HookVerdict::Pass
    );
    assert_eq!(
        verdict_of(r#"echo '{"decision":"approve"}'; echo no >&2; exit 2"#),
        refuse("no")
    );
}

#[test]
fn a_claude_code_deny_refuses_with_its_reason() {
    let deny = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"not here"}}"#;
    assert_eq!(
        verdict_of(&format!("echo '{deny}'; exit 0")),
        refuse("not here")
    );
}

#[test]
fn output_past_the_capture_limit_is_a_failure_never_a_pass() {
    let verdict = verdict_of(
        r#"head -c 2000000 /dev/zero | tr '\0' ' '; echo '{"decision":"approve"}'; exit 0"#,
    );
    assert_eq!(
        verdict,
        failed("printed more than 1 MiB on stdout, so its verdict cannot be read")
    );
}

#[test]
fn another_exit_fails_naming_the_status() {
    assert_eq!(
        verdict_of("echo >&2; echo boom >&2; echo more >&2; exit 1"),
        failed("exited with status 1: boom")
    );
    assert_eq!(verdict_of("exit 7"), failed("exited with status 7"));
}

#[test]
fn a_signal_fails() {
    assert_eq!(
        verdict_of("kill -9 $$"),
        failed("was killed by signal 9 (SIGKILL)")
    );
}

#[test]
fn a_timeout_fails_naming_it() {
    let finished = command::spawn(&spec("sleep 30", Duration::from_secs(1)), b"")
        .expect("spawn")
        .wait();
    assert_eq!(
        command::verdict(&finished),
        failed("ran past its timeout of 1 s")
    );
}

#[test]
fn a_cancelled_run_is_never_a_pass() {
    command::init_supervision().expect("subreaper");
    let running = command::spawn(
        &spec(
            "echo '{\"decision\":\"approve\"}'; sleep 30",
            Duration::from_secs(30),
        ),
        b"",
    )
    .expect("spawn");
    let canceller = running.canceller();
    thread::spawn(move || {
        thread::sleep(Duration::from_millis(100));
        canceller.cancel();
    });
    assert_eq!(command::verdict(&running.wait()), HookVerdict::Cancelled);
}

#[test]
fn verdicts_of_made_up_ends() {
    let finished = |ended, stdout: &str| Finished {
        hook_id: "h".into(),
        timeout: Duration::from_millis(1500),
        ended,
        stdout: stdout.into(),
        stdout_overflowed: false,
        stderr: String::new(),
        ms: 0,
    };
    assert_eq!(
        command::verdict(&finished(Ended::TimedOut, "")),
        failed("ran past its timeout of 1500 ms")
    );
    assert!(matches!(
        command::verdict(&finished(Ended::Lost, "")),
        HookVerdict::Failed(_)
    ));
    assert_eq!(
        command::verdict(&finished(Ended::Signalled(200), "")),
        failed("was killed by signal 200")
    );
    let block = r#"{"decision":"block","reason":"r"}"#;
    assert_eq!(
        command::verdict(&finished(Ended::Signalled(15), block)),
        refuse("r")
    );
    let approve = r#"{"decision":"approve"}"#;
    assert!(matches!(
        command::verdict(&finished(Ended::Signalled(15), approve)),
        HookVerdict::Failed(_)
    ));
    assert_eq!(
        command::verdict(&finished(Ended::Exited(0), "not json {")),
        HookVerdict::Pass
    );
    assert_eq!(
        command::verdict(&finished(Ended::Exited(0), r#"{"decision":7}"#)),
        HookVerdict::Pass
    );
}
