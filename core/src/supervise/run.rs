//! A one-event run (`tama run-hook <event>`) among the other runs of its
//! session. Each is a process of its own, so what the serving engine keeps
//! in memory lives here on disk: the run lists its command hooks in its
//! record, and a newly arrived run of the session ends, from that record, what
//! the harness no longer waits for (see [`super::signals`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

use super::abandon::abandon;
use super::earlier::{self, EarlierRun};
use super::{procs, records, signals};
use crate::clock::now_ms;
use crate::command::Canceller;
use crate::dispatch::{Decision, HookOutcome, HookRecord, Watch};
use crate::event::{Event, EventName};

struct Hook {
    id: String,
    group: i32,
    leader_start: Option<u64>,
    started_at_ms: u64,
    started: Instant,
}

pub struct Run {
    /// `<pid>-<arrival in ns>`: names the run's markers, never reused.
    id: String,
    event: EventName,
    session: Option<String>,
    call: Option<String>,
    received_ns: u64,
    hooks: Mutex<Vec<Hook>>,
    groups_seen: Mutex<Vec<i32>>,
    listed: AtomicBool,
    /// Held while the record is written, so a newer record is never replaced by an older one.
    writing: Mutex<()>,
    /// The harness terminated this run: its hooks are being ended and it exits.
    terminated: AtomicBool,
    not_started: Mutex<Option<String>>,
}

impl Run {
    /// Registers the run of `event` and ends what its arrival proves nobody
    /// waits for: a turn event ends the session's tool runs; a call's result
    /// ends the run of its pre-tool check.
    pub fn arrive(event: &Event) -> Run {
        let received_ns = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        let run = Run {
            id: format!("{}-{received_ns}", std::process::id()),
            event: event.name,
            session: event.session_id.clone(),
            call: signals::call_key(&event.payload),
            received_ns,
            hooks: Mutex::new(Vec::new()),
            groups_seen: Mutex::new(Vec::new()),
            listed: AtomicBool::new(false),
            writing: Mutex::new(()),
            terminated: AtomicBool::new(false),
            not_started: Mutex::new(None),
        };
        let turn = signals::is_turn_event(run.event);
        let result = run.event == EventName::PostToolUse && run.call.is_some();
        if let (Some(session), true) = (&run.session, turn || result) {
            for previous in earlier::runs_before(session, received_ns) {
                if turn && signals::is_tool_event(previous.event) {
                    run.end_turn_of(&previous, session);
                } else if result
                    && previous.event == EventName::PreToolUse
                    && previous.call == run.call
                {
                    run.end_check_of(&previous, session);
                }
            }
        }
        run
    }

    fn end_turn_of(&self, previous: &EarlierRun, session: &str) {
        let hooks = previous.running_hooks();
        for hook in &hooks {
            eprintln!(
                "{}",
                signals::turn_ended_hook(
                    hook["hook"].as_str().unwrap_or("?"),
                    &hook["processGroup"],
                    previous.event,
                    session,
                    self.event
                )
            );
        }
        abandon(
            session,
            &hooks,
            &signals::turn_ended_reason(self.event),
            previous.pid as u32,
            false,
        );
        previous.end_run(&signals::turn_ended_answer(session, previous.event));
    }

    fn end_check_of(&self, previous: &EarlierRun, session: &str) {
        let tool = signals::call_tool(previous.call.as_deref().unwrap_or("?")).to_string();
        eprintln!(
            "{}",
            signals::result_arrived(&previous.pid.to_string(), &tool, session)
        );
        abandon(
            session,
            &previous.running_hooks(),
            &signals::result_arrived_reason(&tool),
            previous.pid as u32,
            false,
        );
        previous.end_run(&signals::result_arrived_answer(&tool));
    }

    /// A turn event started `hook_id`: the same hook still running for the
    /// session's previous turn event, in another run, is ended.
    fn supersede(&self, hook_id: &str) {
        let (Some(session), true) = (&self.session, signals::is_turn_event(self.event)) else {
            return;
        };
        for previous in earlier::runs_before(session, self.received_ns) {
            if !signals::is_turn_event(previous.event) {
                continue;
            }
            if let Some(hook) = previous.running(hook_id) {
                eprintln!(
                    "{}",
                    signals::superseded(hook_id, &hook["processGroup"], previous.event, session)
                );
                let reason = signals::superseded_reason(self.event, session);
                abandon(
                    session,
                    &previous.running_hooks(),
                    &reason,
                    previous.pid as u32,
                    false,
                );
                previous.end_hook(&hook, &reason);
            }
        }
    }

    /// Why another run ended this one, naming the first hook it did not start.
    pub fn ended_because(&self) -> Option<String> {
        let why = because(&earlier::marker(&self.id, None))?;
        Some(signals::not_started(
            why,
            lock(&self.not_started).as_deref(),
        ))
    }

    /// The decision, or, when another run ended this one or one of its
    /// hooks, a cancellation saying why: nobody waits for it, and the
    /// harness, which cannot say "cancelled", gets a refusal, never a pass.
    pub fn conclude(&self, mut decision: Decision) -> Decision {
        let cancelled: Vec<&HookRecord> = decision
            .results
            .iter()
            .filter(|r| r.decision == HookOutcome::Cancelled)
            .collect();
        let (hook, why) = match self.ended_because() {
            Some(why) => (None, why),
            None if !cancelled.is_empty() => {
                let reasons: Vec<String> = cancelled
                    .iter()
                    .map(|r| r.reason.clone().unwrap_or_default())
                    .collect();
                (
                    cancelled.first().map(|r| r.hook_id.clone()),
                    reasons.join("\n"),
                )
            }
            None => return decision,
        };
        decision.cancel(hook, why);
        decision
    }

    /// Ends every hook group this run runs, says so on stderr, and takes its record away.
    pub fn end_all(&self, why: &str) {
        self.terminated.store(true, Ordering::SeqCst);
        // A record being written is finished first; none is written after.
        drop(lock(&self.writing));
        for hook in self.hooks_json() {
            eprintln!(
                "tama: ended hook {} (process group {}): {why}",
                hook["hook"].as_str().unwrap_or("?"),
                hook["processGroup"]
            );
            super::termination::end_hook(&hook);
        }
        self.forget();
    }

    /// Whether the harness terminated this run; the thread that took the
    /// signal ends the process, nobody else answers.
    pub fn is_terminated(&self) -> bool {
        self.terminated.load(Ordering::SeqCst)
    }

    /// Takes this run's record and markers away.
    fn forget(&self) {
        if self.listed.load(Ordering::SeqCst) {
            records::remove();
            earlier::remove_markers(&self.id, lock(&self.groups_seen).iter().copied());
        }
    }

    fn ended(&self) -> bool {
        earlier::marker(&self.id, None).exists()
    }

    /// The command hooks running now, as records on disk name them.
    fn hooks_json(&self) -> Vec<Value> {
        let hooks = lock(&self.hooks);
        hooks
            .iter()
            .map(|h| {
                json!({"session": self.session, "event": self.event, "hook": h.id, "processGroup": h.group,
                    "startedAtMs": h.started_at_ms, "leaderStart": h.leader_start,
                    "runningForMs": h.started.elapsed().as_millis() as u64})
            })
            .collect()
    }

    /// Writes the record other runs read.
    fn list(&self) {
        let _writing = lock(&self.writing);
        if self.is_terminated() {
            return;
        }
        self.listed.store(true, Ordering::SeqCst);
        let run = json!({"id": self.id, "event": self.event, "session": self.session, "call": self.call, "receivedNs": self.received_ns});
        records::write(Some(&run), &self.hooks_json());
    }
}

impl Watch for Run {
    fn will_run_commands(&self) {
        self.list();
    }

    fn proceed(&self, next_hook: &str) -> bool {
        if self.listed.load(Ordering::SeqCst) && self.ended() {
            lock(&self.not_started).get_or_insert_with(|| next_hook.to_string());
            return false;
        }
        true
    }

    fn hook_started(
        &self,
        hook_id: &str,
        process_group: Option<i32>,
        canceller: Option<Canceller>,
    ) {
        let Some(group) = process_group else { return };
        let hook = Hook {
            id: hook_id.to_string(),
            group,
            leader_start: procs::leader_start(group),
            started_at_ms: now_ms(),
            started: Instant::now(),
        };
        lock(&self.hooks).push(hook);
        lock(&self.groups_seen).push(group);
        self.list();
        self.supersede(hook_id);
        if self.ended()
            && let Some(canceller) = canceller
        {
            canceller.cancel();
        }
    }

    fn hook_ended(&self, hook_id: &str) {
        let mut hooks = lock(&self.hooks);
        let before = hooks.len();
        hooks.retain(|h| h.id != hook_id);
        let changed = hooks.len() != before;
        drop(hooks);
        if changed {
            self.list();
        }
    }

    fn ended_elsewhere(&self, _hook_id: &str, process_group: i32) -> Option<String> {
        if !self.listed.load(Ordering::SeqCst) {
            return None;
        }
        because(&earlier::marker(&self.id, Some(process_group)))
            .or_else(|| because(&earlier::marker(&self.id, None)))
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        self.forget();
    }
}

/// The `because` a marker holds, when it exists.
fn because(marker: &std::path::Path) -> Option<String> {
    let text = crate::files::read_regular_to_string(marker).ok()?;
    serde_json::from_str::<Value>(&text).ok()?["because"]
        .as_str()
        .map(str::to_string)
}

/// Takes a lock even when a thread panicked while holding it.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
