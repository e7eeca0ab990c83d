//! Dispatches in flight: where each spends its life, which hooks it runs, and
//! the handles that end them.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::lock;
use tama_core::clock::now_ms;
use tama_core::command::Canceller;
use tama_core::dispatch::Watch;
use tama_core::event::EventName;
use tama_core::supervise::signals;

struct Hook {
    id: String,
    process_group: Option<i32>,
    canceller: Option<Canceller>,
    started: Instant,
    started_at_ms: u64,
    /// When the group's leader started, which names the group on disk.
    leader_start: Option<u64>,
}

/// One dispatch in flight.
pub struct Flight {
    pub id: String,
    /// The event, `None` when the request named none Tama knows.
    pub event: Option<EventName>,
    pub session: Option<String>,
    /// The call this dispatch checks: tool name and input, for tool events.
    pub call: Option<String>,
    cancelled: AtomicBool,
    /// Why the harness stopped waiting, when it did: the dispatch's answer.
    ended_because: Mutex<Option<String>>,
    /// The first hook the dispatch did not start once it was ended.
    not_started: Mutex<Option<String>>,
    /// Each stage reached: its wall-clock time and its instant.
    stages: Mutex<Stages>,
    hooks: Mutex<Vec<Hook>>,
    /// Told when a command hook starts or ends, to keep the record on disk.
    flights: Weak<Flights>,
    /// This flight itself, which it lists among the busy ones while a hook runs.
    me: Weak<Flight>,
}

impl Flight {
    pub fn new(
        id: String,
        event: Option<EventName>,
        session: Option<String>,
        call: Option<String>,
        received: Instant,
        flights: Weak<Flights>,
    ) -> Arc<Flight> {
        Arc::new_cyclic(|me| Flight {
            id,
            event,
            session,
            call,
            cancelled: AtomicBool::new(false),
            ended_because: Mutex::new(None),
            not_started: Mutex::new(None),
            stages: Mutex::new(Stages::starting(received)),
            hooks: Mutex::new(Vec::new()),
            flights,
            me: me.clone(),
        })
    }

    fn persist(&self) {
        if let Some(flights) = self.flights.upgrade() {
            flights.persist();
        }
    }

    pub fn stage(&self, stage: &'static str) {
        lock(&self.stages).push(stage, now_ms(), Instant::now());
    }

    /// Ends the dispatch because `why`, which becomes its answer.
    pub fn end(&self, why: String) {
        lock(&self.ended_because).get_or_insert(why);
        self.cancel();
    }

    /// Why the dispatch was ended, naming the hook it did not start.
    pub fn ended_because(&self) -> Option<String> {
        let why = lock(&self.ended_because).clone()?;
        Some(signals::not_started(
            why,
            lock(&self.not_started).as_deref(),
        ))
    }

    /// The process group of `hook_id` when this dispatch runs it as a command, and its canceller.
    pub fn command_of(&self, hook_id: &str) -> Option<(i32, Canceller)> {
        let hooks = lock(&self.hooks);
        hooks
            .iter()
            .find(|h| h.id == hook_id)
            .and_then(|h| Some((h.process_group?, h.canceller.clone()?)))
    }

    /// Ends every hook this dispatch runs and starts no further one.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
        for hook in lock(&self.hooks).iter() {
            if let Some(canceller) = &hook.canceller {
                canceller.cancel();
            }
        }
    }

    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
    }

    /// The event in the registry's spelling, empty for one Tama does not know.
    pub fn event_name(&self) -> &'static str {
        event_key(self.event)
    }

    /// The event when it is a turn event (`stop`, `user_prompt_submit`).
    fn turn_event(&self) -> Option<EventName> {
        self.event.filter(|e| signals::is_turn_event(*e))
    }

    /// The hooks running now, for `runningHooks.dispatched`.
    pub fn running_hooks(&self) -> Vec<Value> {
        lock(&self.hooks)
            .iter()
            .map(|h| {
                json!({
                    "session": self.session, "event": self.event_name(), "hook": h.id, "processGroup": h.process_group,
                    "runningForMs": h.started.elapsed().as_millis() as u64, "startedAtMs": h.started_at_ms, "leaderStart": h.leader_start,
                })
            })
            .collect()
    }

    /// The stage it is in now, for `dispatchStages.running`.
    pub fn now(&self) -> Value {
        let stages = lock(&self.stages);
        let (stage, _, since) = stages.last();
        let in_stage_ms = since.elapsed().as_millis() as u64;
        json!({"id": self.id, "event": self.event_name(), "session": self.session, "stage": stage, "inStageForMs": in_stage_ms})
    }

    /// Every stage with when it was reached and how long it took, in whole
    /// milliseconds and microseconds, and the slowest. A served dispatch
    /// takes microseconds, so the slowest is told by the exact durations,
    /// never by milliseconds that all round to zero.
    pub fn summary(&self) -> Value {
        let stages = lock(&self.stages);
        let mut out = serde_json::Map::new();
        let mut slowest = ("received", Duration::ZERO);
        let mut before: Option<Instant> = None;
        for (stage, at_ms, at) in stages.iter() {
            let took = before.map_or(Duration::ZERO, |before| at.duration_since(before));
            before = Some(at);
            if took > slowest.1 {
                slowest = (stage, took);
            }
            out.insert(
                stage.to_string(),
                json!({"atMs": at_ms, "tookMs": took.as_millis() as u64, "tookUs": took.as_micros() as u64}),
            );
        }
        json!({"id": self.id, "stages": out, "slowestStage": slowest.0})
    }
}

/// The stages a dispatch reached, in a fixed array: recording one costs no
/// allocation (a dispatch reaches seven; a later repeat of one is dropped).
struct Stages {
    reached: [(&'static str, u64, Instant); STAGES],
    len: usize,
}

const STAGES: usize = 8;

impl Stages {
    fn starting(received: Instant) -> Stages {
        Stages {
            reached: [("received", now_ms(), received); STAGES],
            len: 1,
        }
    }

    fn push(&mut self, stage: &'static str, at_ms: u64, at: Instant) {
        if let Some(slot) = self.reached.get_mut(self.len) {
            *slot = (stage, at_ms, at);
            self.len += 1;
        }
    }

    /// The stage reached last; there is always one.
    fn last(&self) -> (&'static str, u64, Instant) {
        self.iter().last().unwrap_or(self.reached[0])
    }

    fn iter(&self) -> impl Iterator<Item = (&'static str, u64, Instant)> + '_ {
        self.reached.iter().take(self.len).copied()
    }
}

impl Watch for Flight {
    fn proceed(&self, next_hook: &str) -> bool {
        if self.is_cancelled() {
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
        if let Some(flights) = self.flights.upgrade() {
            flights.supersede(self, hook_id);
        }
        let leader_start = process_group.and_then(tama_core::supervise::procs::leader_start);
        let hook = Hook {
            id: hook_id.to_string(),
            process_group,
            canceller,
            started: Instant::now(),
            started_at_ms: now_ms(),
            leader_start,
        };
        let mut hooks = lock(&self.hooks);
        hooks.push(hook);
        // Checked only once the hook is listed: `cancel` marks the flight
        // before it reads the list, so a cancel either finds this hook there
        // or is seen here, and a hook started as its flight is cancelled
        // never runs on to its timeout.
        if self.is_cancelled()
            && let Some(canceller) = hooks.last().and_then(|h| h.canceller.as_ref())
        {
            canceller.cancel();
        }
        if let (Some(flights), Some(me)) = (self.flights.upgrade(), self.me.upgrade()) {
            lock(&flights.busy).insert(self.id.clone(), me);
        }
        drop(hooks);
        if process_group.is_some() {
            self.persist();
        }
    }

    fn hook_ended(&self, hook_id: &str) {
        let mut hooks = lock(&self.hooks);
        let had_group = hooks
            .iter()
            .any(|h| h.id == hook_id && h.process_group.is_some());
        hooks.retain(|h| h.id != hook_id);
        if hooks.is_empty()
            && let Some(flights) = self.flights.upgrade()
        {
            lock(&flights.busy).remove(&self.id);
        }
        drop(hooks);
        if had_group {
            self.persist();
        }
    }

    fn will_run_commands(&self) {
        if let Some(flights) = self.flights.upgrade()
            && let Some(blocking) = flights.blocking.get()
            && let Err(err) = blocking()
        {
            // Fail closed: no hook starts where a new request would wait behind it.
            self.end(format!(
                "{}: dispatch {} cannot start a thread: {err}",
                tama_core::INFRASTRUCTURE,
                self.id
            ));
        }
    }

    fn hooks_ended(&self) {
        self.stage("hooksEnded");
    }
}

/// Every dispatch in flight, by request id, and the last finished one of each event.
#[derive(Default)]
pub struct Flights {
    running: Mutex<HashMap<String, Arc<Flight>>>,
    /// The last finished dispatch of every event; its stages are rendered
    /// when a status asks, not on every dispatch.
    last_by_event: Mutex<HashMap<Option<EventName>, Arc<Flight>>>,
    /// Held while the record is written, so a newer record is never replaced by an older one.
    writing: Mutex<()>,
    /// Set as the engine ends: no record is written after it was taken away.
    closed: AtomicBool,
    /// Dispatches started and not yet being answered, held to a bound.
    unanswered: AtomicUsize,
    /// The flights running a hook now, by request id.
    busy: Mutex<HashMap<String, Arc<Flight>>>,
    pub abandoned: super::turns::Abandoned,
    /// Called on a dispatch's own thread before it runs a command hook,
    /// which may never end, to have another thread read on; when none can,
    /// the dispatch is ended with the cause.
    pub blocking: OnceLock<Box<dyn Fn() -> std::io::Result<()> + Send + Sync>>,
}

impl Flights {
    /// `flight`, a turn event, starts `hook_id`: the same hook still running
    /// for the session's previous turn event is ended.
    fn supersede(&self, flight: &Flight, hook_id: &str) {
        let (Some(session), Some(event)) = (&flight.session, flight.turn_event()) else {
            return;
        };
        for earlier in self.all() {
            let Some(earlier_event) = earlier.turn_event() else {
                continue;
            };
            if earlier.id == flight.id || earlier.session.as_ref() != Some(session) {
                continue;
            }
            if let Some((group, canceller)) = earlier.command_of(hook_id) {
                eprintln!(
                    "{}",
                    signals::superseded(hook_id, &group.into(), earlier_event, session)
                );
                self.abandoned.record(
                    earlier.session.as_deref(),
                    &earlier.running_hooks(),
                    &signals::superseded_reason(event, session),
                );
                canceller.cancel();
            }
        }
    }

    /// What a newly arrived dispatch proves about the ones still running.
    pub fn arrived(&self, flight: &Flight) {
        let (Some(session), Some(event)) = (&flight.session, flight.event) else {
            return;
        };
        if !(signals::is_turn_event(event) || event == EventName::PostToolUse) {
            return;
        }
        for other in self.all() {
            let Some(other_event) = other.event else {
                continue;
            };
            if other.id == flight.id || other.session.as_ref() != Some(session) {
                continue;
            }
            if signals::is_turn_event(event) && signals::is_tool_event(other_event) {
                for hook in other.running_hooks() {
                    let id = hook["hook"].as_str().unwrap_or("?");
                    eprintln!(
                        "{}",
                        signals::turn_ended_hook(
                            id,
                            &hook["processGroup"],
                            other_event,
                            session,
                            event
                        )
                    );
                }
                self.abandoned.record(
                    other.session.as_deref(),
                    &other.running_hooks(),
                    &signals::turn_ended_reason(event),
                );
                other.end(signals::turn_ended_answer(session, other_event));
            } else if event == EventName::PostToolUse
                && other_event == EventName::PreToolUse
                && flight.call.is_some()
                && other.call == flight.call
            {
                let tool = signals::call_tool(flight.call.as_deref().unwrap_or("?"));
                eprintln!("{}", signals::result_arrived(&other.id, tool, session));
                self.abandoned.record(
                    other.session.as_deref(),
                    &other.running_hooks(),
                    &signals::result_arrived_reason(tool),
                );
                other.end(signals::result_arrived_answer(tool));
            }
        }
    }

    /// Holds `flight` among those in flight, unless `most` already are:
    /// then the error is how many are.
    pub fn start(&self, flight: Arc<Flight>, most: usize) -> Result<(), usize> {
        let mut running = lock(&self.running);
        let in_flight = self.unanswered.load(Ordering::SeqCst);
        if in_flight >= most {
            return Err(in_flight);
        }
        self.unanswered.fetch_add(1, Ordering::SeqCst);
        running.insert(flight.id.clone(), flight);
        Ok(())
    }

    /// A started dispatch is about to be answered: it no longer counts
    /// against the bound, so a client that read its answer may send the next.
    pub fn answering(&self) {
        let _ = self
            .unanswered
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
    }

    pub fn finish(&self, flight: &Arc<Flight>) {
        lock(&self.running).remove(&flight.id);
        lock(&self.busy).remove(&flight.id);
        lock(&self.last_by_event).insert(flight.event, flight.clone());
    }

    pub fn get(&self, id: &str) -> Option<Arc<Flight>> {
        lock(&self.running).get(id).cloned()
    }

    pub fn all(&self) -> Vec<Arc<Flight>> {
        lock(&self.running).values().cloned().collect()
    }

    /// Every hook running now, from the flights that run one: every answer
    /// carries them, so this never walks the dispatches waiting their turn.
    pub fn dispatched(&self) -> Vec<Value> {
        let busy: Vec<Arc<Flight>> = lock(&self.busy).values().cloned().collect();
        busy.iter().flat_map(|f| f.running_hooks()).collect()
    }

    /// Writes no record any more: the engine is ending and takes it away.
    pub fn close(&self) {
        let _writing = lock(&self.writing);
        self.closed.store(true, Ordering::SeqCst);
    }

    /// Writes the command hooks running now to this engine's record.
    fn persist(&self) {
        let _writing = lock(&self.writing);
        if self.closed.load(Ordering::SeqCst) {
            return;
        }
        let hooks: Vec<Value> = self
            .dispatched()
            .into_iter()
            .filter(|h| !h["processGroup"].is_null())
            .collect();
        tama_core::supervise::records::write(None, &hooks);
    }

    pub fn stages(&self) -> Value {
        json!({
            "running": self.all().iter().map(|f| f.now()).collect::<Vec<_>>(),
            "lastByEvent": Value::Object(lock(&self.last_by_event).iter().map(|(k, f)| (event_key(*k).to_string(), f.summary())).collect()),
        })
    }
}

/// An event as status answers name it: the registry's spelling, empty for
/// an event Tama does not know.
fn event_key(event: Option<EventName>) -> &'static str {
    event.map_or("", EventName::as_str)
}

#[cfg(test)]
mod tests {
    use std::sync::Weak;
    use std::time::{Duration, Instant};

    use super::{Flight, lock};

    #[test]
    fn the_slowest_stage_is_told_by_microseconds_when_every_stage_takes_under_one_ms() {
        let received = Instant::now();
        let flight = Flight::new("7".into(), None, None, None, received, Weak::new());
        let mut at = received;
        for (stage, took) in [
            ("runtimeLocked", 300),
            ("hooksEnded", 900),
            ("answered", 200),
        ] {
            at += Duration::from_micros(took);
            lock(&flight.stages).push(stage, 0, at);
        }
        let summary = flight.summary();
        assert_eq!(summary["slowestStage"], "hooksEnded", "{summary}");
        let stages = &summary["stages"];
        assert_eq!(stages["received"]["tookUs"], 0);
        assert_eq!(stages["runtimeLocked"]["tookUs"], 300);
        assert_eq!(stages["hooksEnded"]["tookUs"], 900);
        assert_eq!(
            stages["hooksEnded"]["tookMs"], 0,
            "whole milliseconds, as before"
        );
        assert_eq!(stages["answered"]["tookUs"], 200);
    }
}
