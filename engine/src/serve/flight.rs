//! Dispatches in flight: where each spends its life, which hooks it runs, and
//! the handles that end them.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use serde_json::{Value, json};

use crate::clock::now_ms;
use crate::command::Canceller;
use crate::dispatch::Watch;
use crate::supervise::signals;

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
    /// The event in registry spelling.
    pub event: String,
    pub session: Option<String>,
    /// The call this dispatch checks: tool name and input, for tool events.
    pub call: Option<String>,
    cancelled: AtomicBool,
    /// Why the harness stopped waiting, when it did: the dispatch's answer.
    ended_because: Mutex<Option<String>>,
    /// The first hook the dispatch did not start once it was ended.
    not_started: Mutex<Option<String>>,
    /// Each stage reached: its wall-clock time and its instant.
    stages: Mutex<Vec<(&'static str, u64, Instant)>>,
    hooks: Mutex<Vec<Hook>>,
    /// Told when a command hook starts or ends, to keep the record on disk.
    flights: Weak<Flights>,
}

impl Flight {
    pub fn new(id: String, event: String, session: Option<String>, call: Option<String>, received: Instant, flights: Weak<Flights>) -> Flight {
        Flight {
            id,
            event,
            session,
            call,
            cancelled: AtomicBool::new(false),
            ended_because: Mutex::new(None),
            not_started: Mutex::new(None),
            stages: Mutex::new(vec![("received", now_ms(), received)]),
            hooks: Mutex::new(Vec::new()),
            flights,
        }
    }

    fn persist(&self) {
        if let Some(flights) = self.flights.upgrade() {
            flights.persist();
        }
    }

    pub fn stage(&self, stage: &'static str) {
        self.stages.lock().expect("stage lock").push((stage, now_ms(), Instant::now()));
    }

    /// Ends the dispatch because `why`, which becomes its answer.
    pub fn end(&self, why: String) {
        self.ended_because.lock().expect("flight lock").get_or_insert(why);
        self.cancel();
    }

    /// Why the dispatch was ended, naming the hook it did not start.
    pub fn ended_because(&self) -> Option<String> {
        let why = self.ended_because.lock().expect("flight lock").clone()?;
        Some(signals::not_started(why, self.not_started.lock().expect("flight lock").as_deref()))
    }

    /// The process group of `hook_id` when this dispatch runs it as a command, and its canceller.
    pub fn command_of(&self, hook_id: &str) -> Option<(i32, Canceller)> {
        let hooks = self.hooks.lock().expect("hook lock");
        hooks.iter().find(|h| h.id == hook_id).and_then(|h| Some((h.process_group?, h.canceller.clone()?)))
    }

    /// Ends every hook this dispatch runs and starts no further one.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
        for hook in self.hooks.lock().expect("hook lock").iter() {
            if let Some(canceller) = &hook.canceller {
                canceller.cancel();
            }
        }
    }

    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
    }

    /// The hooks running now, for `runningHooks.dispatched`.
    pub fn running_hooks(&self) -> Vec<Value> {
        self.hooks
            .lock()
            .expect("hook lock")
            .iter()
            .map(|h| {
                json!({
                    "session": self.session, "event": self.event, "hook": h.id, "processGroup": h.process_group,
                    "runningForMs": h.started.elapsed().as_millis() as u64, "startedAtMs": h.started_at_ms, "leaderStart": h.leader_start,
                })
            })
            .collect()
    }

    /// The stage it is in now, for `dispatchStages.running`.
    pub fn now(&self) -> Value {
        let stages = self.stages.lock().expect("stage lock");
        let (stage, _, since) = stages.last().expect("a flight starts received");
        json!({"id": self.id, "event": self.event, "session": self.session, "stage": stage, "inStageForMs": since.elapsed().as_millis() as u64})
    }

    /// Every stage with when it was reached and how long it took, and the slowest.
    pub fn summary(&self) -> Value {
        let stages = self.stages.lock().expect("stage lock");
        let mut out = serde_json::Map::new();
        let mut slowest = ("received", 0u64);
        for (i, (stage, at_ms, at)) in stages.iter().enumerate() {
            let took = if i == 0 { 0 } else { at.duration_since(stages[i - 1].2).as_millis() as u64 };
            if took > slowest.1 {
                slowest = (stage, took);
            }
            out.insert(stage.to_string(), json!({"atMs": at_ms, "tookMs": took}));
        }
        json!({"id": self.id, "stages": out, "slowestStage": slowest.0})
    }
}

impl Watch for Flight {
    fn proceed(&self, next_hook: &str) -> bool {
        if self.is_cancelled() {
            self.not_started.lock().expect("flight lock").get_or_insert_with(|| next_hook.to_string());
            return false;
        }
        true
    }

    fn hook_started(&self, hook_id: &str, process_group: Option<i32>, canceller: Option<Canceller>) {
        if self.is_cancelled() {
            if let Some(canceller) = &canceller {
                canceller.cancel();
            }
        }
        if let Some(flights) = self.flights.upgrade() {
            flights.supersede(self, hook_id);
        }
        let leader_start = process_group.and_then(crate::supervise::procs::leader_start);
        let hook = Hook { id: hook_id.to_string(), process_group, canceller, started: Instant::now(), started_at_ms: now_ms(), leader_start };
        self.hooks.lock().expect("hook lock").push(hook);
        if process_group.is_some() {
            self.persist();
        }
    }

    fn hook_ended(&self, hook_id: &str) {
        let mut hooks = self.hooks.lock().expect("hook lock");
        let had_group = hooks.iter().any(|h| h.id == hook_id && h.process_group.is_some());
        hooks.retain(|h| h.id != hook_id);
        drop(hooks);
        if had_group {
            self.persist();
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
    last_by_event: Mutex<HashMap<String, Arc<Flight>>>,
    /// Held while the record is written, so a newer record is never replaced by an older one.
    writing: Mutex<()>,
    pub abandoned: super::turns::Abandoned,
}

impl Flights {
    /// `flight`, a turn event, starts `hook_id`: the same hook still running
    /// for the session's previous turn event is ended.
    fn supersede(&self, flight: &Flight, hook_id: &str) {
        let (Some(session), true) = (&flight.session, signals::is_turn_event(&flight.event)) else { return };
        for earlier in self.all() {
            if earlier.id == flight.id || earlier.session.as_ref() != Some(session) || !signals::is_turn_event(&earlier.event) {
                continue;
            }
            if let Some((group, canceller)) = earlier.command_of(hook_id) {
                eprintln!("{}", signals::superseded(hook_id, &group.into(), &earlier.event, session));
                self.abandoned.record(&earlier, &signals::superseded_reason(&flight.event, session));
                canceller.cancel();
            }
        }
    }

    /// What a newly arrived dispatch proves about the ones still running.
    pub fn arrived(&self, flight: &Flight) {
        let Some(session) = &flight.session else { return };
        for other in self.all() {
            if other.id == flight.id || other.session.as_ref() != Some(session) {
                continue;
            }
            if signals::is_turn_event(&flight.event) && signals::is_tool_event(&other.event) {
                for hook in other.running_hooks() {
                    let id = hook["hook"].as_str().unwrap_or("?");
                    eprintln!("{}", signals::turn_ended_hook(id, &hook["processGroup"], &other.event, session, &flight.event));
                }
                self.abandoned.record(&other, &signals::turn_ended_reason(&flight.event));
                other.end(signals::turn_ended_answer(session, &other.event));
            } else if flight.event == "post_tool_use" && other.event == "pre_tool_use" && flight.call.is_some() && other.call == flight.call {
                let tool = signals::call_tool(flight.call.as_deref().unwrap_or("?"));
                eprintln!("{}", signals::result_arrived(&other.id, tool, session));
                self.abandoned.record(&other, &signals::result_arrived_reason(tool));
                other.end(signals::result_arrived_answer(tool));
            }
        }
    }

    pub fn start(&self, flight: Arc<Flight>) {
        self.running.lock().expect("flight lock").insert(flight.id.clone(), flight);
    }

    pub fn finish(&self, flight: &Arc<Flight>) {
        self.running.lock().expect("flight lock").remove(&flight.id);
        self.last_by_event.lock().expect("flight lock").insert(flight.event.clone(), flight.clone());
    }

    pub fn get(&self, id: &str) -> Option<Arc<Flight>> {
        self.running.lock().expect("flight lock").get(id).cloned()
    }

    pub fn all(&self) -> Vec<Arc<Flight>> {
        self.running.lock().expect("flight lock").values().cloned().collect()
    }

    pub fn dispatched(&self) -> Vec<Value> {
        self.all().iter().flat_map(|f| f.running_hooks()).collect()
    }

    /// Writes the command hooks running now to this engine's record.
    fn persist(&self) {
        let _writing = self.writing.lock().expect("record lock");
        let hooks: Vec<Value> = self.dispatched().into_iter().filter(|h| !h["processGroup"].is_null()).collect();
        crate::supervise::records::write(None, &hooks);
    }

    pub fn stages(&self) -> Value {
        json!({
            "running": self.all().iter().map(|f| f.now()).collect::<Vec<_>>(),
            "lastByEvent": Value::Object(self.last_by_event.lock().expect("flight lock").iter().map(|(k, f)| (k.clone(), f.summary())).collect()),
        })
    }
}
