//! Reading a finished hook's verdict the way the existing Tama registry does.

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

use std::time::Duration;

use nix::sys::signal::Signal;
use serde_json::{Map, Value};

use super::{Ended, Finished};

/// What a command hook decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookVerdict {
    Pass,
    /// The hook refused, for this reason.
    Refuse(String),
    /// The hook did not judge; says what happened, without the hook's id,
    /// e.g. `exited with status 1: <first line of stderr>`.
    Failed(String),
    /// The run was ended through its canceller: no verdict, and never a pass.
    Cancelled,
}

/// Exit 2, a stdout JSON object whose `decision` is `block` (in any case),
/// or Claude Code's `hookSpecificOutput.permissionDecision: "deny"` refuses.
/// Exit 0 passes, as does the explicit `{"decision":"approve"}` after any
/// other exit status but 2. Any other end (another status, a signal, a
/// deadline, stdout past the capture limit) is a failure, never a pass.
pub fn verdict(finished: &Finished) -> HookVerdict {
    let code = match finished.ended {
        Ended::Cancelled => return HookVerdict::Cancelled,
        Ended::TimedOut => {
            return HookVerdict::Failed(format!(
                "ran past its timeout of {}",
                span(finished.timeout)
            ));
        }
        Ended::Lost => {
            return HookVerdict::Failed(
                "ended, but its exit status was collected elsewhere".into(),
            );
        }
        Ended::Exited(code) => Some(code),
        Ended::Signalled(_) => None,
    };
    if finished.stdout_overflowed {
        return HookVerdict::Failed(format!(
            "printed more than {} MiB on stdout, so its verdict cannot be read",
            super::OUTPUT_CAP >> 20
        ));
    }
    let json = serde_json::from_str::<Value>(finished.stdout.trim()).ok();
    let object = json.as_ref().and_then(Value::as_object);
    let decision = object
        .and_then(|object| object.get("decision"))
        .and_then(Value::as_str)
        .map(str::to_ascii_lowercase);
    let denied = object
        .and_then(|object| object.get("hookSpecificOutput"))
        .and_then(|output| output.get("permissionDecision"))
        .and_then(Value::as_str)
        .is_some_and(|said| said.eq_ignore_ascii_case("deny"));
    let approve = decision.as_deref() == Some("approve");
    if decision.as_deref() == Some("block") || denied || code == Some(2) {
        HookVerdict::Refuse(reason(finished, object))
    } else if code == Some(0) || (approve && code.is_some()) {
        HookVerdict::Pass
    } else {
        HookVerdict::Failed(failure(finished, code))
    }
}

/// JSON `reason`/`permissionDecisionReason`/`userMessage`, then stderr,
/// then stdout that is not a JSON object, then a default naming the hook.
fn reason(finished: &Finished, object: Option<&Map<String, Value>>) -> String {
    let said = |text: &str| Some(text.trim().to_owned()).filter(|text| !text.is_empty());
    let specific = object
        .and_then(|object| object.get("hookSpecificOutput"))
        .and_then(Value::as_object);
    object
        .and_then(|object| {
            ["reason", "userMessage"]
                .iter()
                .find_map(|key| said(object.get(*key)?.as_str()?))
        })
        .or_else(|| said(specific?.get("permissionDecisionReason")?.as_str()?))
        .or_else(|| said(&finished.stderr))
        .or_else(|| {
            if object.is_none() {
                said(&finished.stdout)
            } else {
                None
            }
        })
        .unwrap_or_else(|| format!("hook {} refused without a reason", finished.hook_id))
}

fn failure(finished: &Finished, code: Option<i32>) -> String {
    let first_line = finished
        .stderr
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty());
    let what = match (code, finished.ended) {
        (Some(code), _) => format!("exited with status {code}"),
        (None, Ended::Signalled(number)) => match Signal::try_from(number) {
            Ok(signal) => format!("was killed by signal {number} ({})", signal.as_str()),
            Err(_) => format!("was killed by signal {number}"),
        },
        (None, _) => "ended without an exit status".to_owned(),
    };
    match first_line {
        Some(line) => format!("{what}: {line}"),
        None => what,
    }
}

/// `3 s`, or `1500 ms` when not a whole number of seconds.
fn span(duration: Duration) -> String {
    let ms = duration.as_millis();
    if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{ms} ms")
    }
}
