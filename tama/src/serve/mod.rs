//! `tama run-hook --serve omp`: one long-lived engine answering every event
//! of an oh-my-pi session over a line protocol, one JSON object per line each
//! way. Answers arrive as requests finish, matched by `id`.
//!
//! Every frame is input: nothing on it may panic or end the engine.
#![deny(clippy::unwrap_used, clippy::expect_used)]

mod flight;
mod runtime;
mod turns;
mod workers;

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

use serde_json::{Value, json};

use flight::{Flight, Flights};
use runtime::{Refresh, Runtime};
use tama_core::dispatch::Selection;
use tama_core::event::Event;
use tama_core::supervise::records;
use workers::Workers;

/// Most dispatches one engine runs at once. Each holds a thread (and its
/// hooks' processes) until it ends, so a hook that never ends holds only its
/// own request; past this many, a request is refused at once rather than
/// starting yet another thread. `TAMA_SERVE_MAX_IN_FLIGHT` may lower it.
pub const MAX_IN_FLIGHT: usize = 1024;

/// [`MAX_IN_FLIGHT`], or the lower bound `TAMA_SERVE_MAX_IN_FLIGHT` sets.
fn most_in_flight() -> Result<usize, String> {
    match tama_core::dispatch::select::text_var("TAMA_SERVE_MAX_IN_FLIGHT")
        .map_err(|e| e.to_string())?
    {
        None => Ok(MAX_IN_FLIGHT),
        Some(text) => match text.parse::<usize>() {
            Ok(most) if (1..=MAX_IN_FLIGHT).contains(&most) => Ok(most),
            _ => Err(format!(
                "TAMA_SERVE_MAX_IN_FLIGHT is {text:?}: expected a number from 1 to {MAX_IN_FLIGHT}"
            )),
        },
    }
}

/// Takes a lock even when a thread panicked while holding it: what it guards
/// stays usable, and the engine keeps serving.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

struct Server {
    runtime: Runtime,
    flights: Arc<Flights>,
    selection: Selection,
    agent: String,
    out: Mutex<std::io::Stdout>,
    workers: Arc<Workers>,
    most_in_flight: usize,
}

/// Serves until stdin closes, then ends every hook run it still holds.
pub fn serve(registry: Option<PathBuf>) -> u8 {
    if let Err(err) = tama_core::command::init_supervision() {
        tama_core::log::write(
            "serve",
            &format!("cannot adopt orphaned hook processes: {err}"),
        );
    }
    let selection = Selection::from_env().map_err(|e| e.to_string());
    let agent = tama_core::dispatch::select::text_var("TAMA_AGENT_ID").map_err(|e| e.to_string());
    let (selection, agent, most_in_flight) = match (selection, agent, most_in_flight()) {
        (Ok(selection), Ok(agent), Ok(most)) => (
            selection,
            agent
                .filter(|a| !a.is_empty())
                .unwrap_or_else(|| "omp".into()),
            most,
        ),
        (Err(why), _, _) | (_, Err(why), _) | (_, _, Err(why)) => return refuse_start(&why),
    };
    let runtime = match Runtime::start(tama_core::registry::Loaded::source(registry.as_deref())) {
        Ok(runtime) => runtime,
        Err(err) => return refuse_start(&err.to_string()),
    };
    let server = Arc::new(Server {
        runtime,
        flights: Arc::new(Flights::default()),
        selection,
        agent,
        out: Mutex::new(std::io::stdout()),
        workers: Arc::default(),
        most_in_flight,
    });
    let ending = Arc::downgrade(&server);
    tama_core::supervise::termination::on_termination(move |signal| {
        if let Some(server) = ending.upgrade() {
            server.end_all(&format!("the engine was terminated by {}", signal.as_str()));
        }
    });
    server.write(&json!({"ready": true, "state": server.state()}));
    let mut input = std::io::stdin().lock();
    let mut frame = Vec::new();
    loop {
        frame.clear();
        match input.read_until(b'\n', &mut frame) {
            Ok(0) => break,
            Ok(_) => {}
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(err) => {
                eprintln!("tama: the engine's input cannot be read: {err}");
                break;
            }
        }
        let received = Instant::now();
        match std::str::from_utf8(&frame) {
            Ok(line) if line.trim().is_empty() => {}
            Ok(line) => server.clone().handle(line, received),
            Err(err) => server.fail(&Value::Null, format!("the request is not UTF-8: {err}")),
        }
    }
    for flight in server.flights.all() {
        eprintln!(
            "tama: ending dispatch {} of {}: the core's caller closed its input, so nobody waits for its answer",
            flight.id, flight.event
        );
        flight.cancel();
    }
    server.workers.join();
    records::remove();
    0
}

fn refuse_start(why: &str) -> u8 {
    let why = format!("{}: {why}", tama_core::INFRASTRUCTURE);
    println!("{}", json!({"ready": false, "error": why}));
    eprintln!("{why}");
    1
}

impl Server {
    /// Ends every dispatch and hook group this engine runs, `why`, and takes its record away.
    fn end_all(&self, why: &str) {
        let flights = self.flights.all();
        for flight in &flights {
            eprintln!(
                "tama: ending dispatch {} of {}: {why}, so nobody waits for its answer",
                flight.id, flight.event
            );
            flight.cancel();
        }
        self.flights.close();
        for hook in flights.iter().flat_map(|f| f.running_hooks()) {
            tama_core::supervise::termination::end_hook(&hook);
        }
        records::remove();
    }

    /// Handles one request line; long work runs on a thread of its own.
    fn handle(self: Arc<Self>, line: &str, received: Instant) {
        let request: Value = match serde_json::from_str(line) {
            Ok(request) => request,
            Err(err) => return self.fail(&Value::Null, format!("the request is not JSON: {err}")),
        };
        let id = request.get("id").cloned().unwrap_or(Value::Null);
        if !(id.is_string() || id.is_number()) {
            return self.fail(&id, "the request has no id (a string or a number)".into());
        }
        match request.get("op").and_then(Value::as_str) {
            Some("status") => {
                let (server, answer_id) = (self.clone(), id.clone());
                if let Err(err) = self.workers.clone().run(move || server.status(&answer_id)) {
                    self.fail(
                        &id,
                        format!(
                            "{}: status cannot start a thread: {err}",
                            tama_core::INFRASTRUCTURE
                        ),
                    );
                }
            }
            Some("reload") => self.reload(&id),
            Some("dispatch") => self.dispatch(id, request, received),
            Some("cancel") => self.cancel(&id, &request),
            Some(other) => self.fail(
                &id,
                format!("unknown op `{other}`: expected status, reload, dispatch or cancel"),
            ),
            None => self.fail(&id, "the request has no op".into()),
        }
    }

    fn status(&self, id: &Value) {
        let (_, running, unread) = records::others();
        let result = json!({
            "runningHooks": {"dispatched": self.flights.dispatched(), "running": running, "recordsUnread": unread},
            "dispatchStages": self.flights.stages(),
        });
        self.answer(id, Ok(result), None);
    }

    fn reload(&self, id: &Value) {
        let refreshed = {
            let _lock = lock(&self.runtime.lock);
            self.runtime.refresh()
        };
        let result = refreshed
            .map(|r| json!({"reloaded": true, "changed": matches!(r, Refresh::Adopted(_))}));
        self.answer(id, result, None);
    }

    fn cancel(&self, id: &Value, request: &Value) {
        let target = ["dispatchId", "target"]
            .iter()
            .find_map(|k| request.get(*k))
            .map(|t| match t {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            });
        let Some(target) = target else {
            return self.fail(
                id,
                "cancel names no dispatch: give its request id as dispatchId".into(),
            );
        };
        let flight = self.flights.get(&target);
        if let Some(flight) = &flight {
            self.flights.abandoned.record(
                flight.session.as_deref(),
                &flight.running_hooks(),
                &format!("the caller cancelled dispatch {target}"),
            );
            flight.end(format!("the caller cancelled dispatch {target}"));
        }
        self.answer(
            id,
            Ok(json!({"cancelled": flight.is_some(), "dispatchId": target})),
            None,
        );
    }

    fn dispatch(self: Arc<Self>, id: Value, request: Value, received: Instant) {
        let Some(event_name) = request
            .get("event")
            .and_then(Value::as_str)
            .map(str::to_string)
        else {
            return self.fail(&id, "dispatch names no event".into());
        };
        let payload = request.get("payload").cloned().unwrap_or(Value::Null);
        let known = request
            .get("knownCatalogChecksum")
            .and_then(Value::as_str)
            .map(str::to_string);
        let session = payload
            .get("session_id")
            .or_else(|| payload.get("sessionId"))
            .and_then(Value::as_str)
            .map(str::to_string);
        let registry_event = tama_core::event::registry_event_name(&event_name)
            .unwrap_or_default()
            .to_string();
        let call = tama_core::supervise::signals::call_key(&payload);
        let key = match &id {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let flight = Flight::new(
            key,
            registry_event,
            session,
            call,
            received,
            Arc::downgrade(&self.flights),
        );
        if let Err(in_flight) = self.flights.start(flight.clone(), self.most_in_flight) {
            let why = format!(
                "{}: dispatch {} of {event_name} was not started: {in_flight} dispatches are in flight, the most this engine runs at once",
                tama_core::INFRASTRUCTURE,
                flight.id
            );
            return self.fail(&id, why);
        }
        self.flights.arrived(&flight);
        let refreshed = {
            let _lock = lock(&self.runtime.lock);
            flight.stage("runtimeLocked");
            let refreshed = self.runtime.refresh();
            flight.stage("registryRefreshed");
            refreshed
        };
        let generation = match refreshed {
            Ok(Refresh::Unchanged(g) | Refresh::Adopted(g)) => g,
            Err(why) => {
                self.flights.answering();
                self.answer(&id, Err(why), known.as_deref());
                self.flights.finish(&flight);
                return;
            }
        };
        let (server, answer_id, running, client_known) =
            (self.clone(), id.clone(), flight.clone(), known.clone());
        let started = self.workers.clone().run(move || {
            server.run_dispatch(
                &answer_id,
                &running,
                &generation,
                payload,
                &event_name,
                client_known.as_deref(),
            );
        });
        if let Err(err) = started {
            let why = format!(
                "{}: dispatch {} cannot start a thread: {err}",
                tama_core::INFRASTRUCTURE,
                flight.id
            );
            self.flights.answering();
            self.answer(&id, Err(why), known.as_deref());
            self.flights.finish(&flight);
        }
    }

    /// Runs one dispatch on its worker thread and answers it.
    fn run_dispatch(
        &self,
        id: &Value,
        flight: &Arc<Flight>,
        generation: &runtime::Generation,
        payload: Value,
        event_name: &str,
        known: Option<&str>,
    ) {
        flight.stage("threadStarted");
        let result = Event::from_payload(payload, Some(event_name))
            .map_err(|e| format!("dispatch {event_name}: {e}"));
        let answer = result.map(|mut event| {
            event.agent_id = Some(self.agent.clone());
            let mut selection = tama_core::session::selection_for(
                &self.selection,
                &self.agent,
                event.session_id.as_deref(),
            );
            let registry = &generation.registry().registry;
            event.capability = tama_core::capability::for_event(
                registry,
                &self.agent,
                event.session_id.as_deref(),
            )
            .unwrap_or_else(|refused| {
                selection.refused.push(refused);
                None
            });
            flight.stage("sessionStateRead");
            generation
                .dispatcher
                .dispatch_watched(event, &selection, flight.as_ref())
        });
        let answer = match answer {
            Ok(_) if flight.is_cancelled() => Err(flight.ended_because().unwrap_or_else(|| {
                format!("dispatch {} of {event_name} was cancelled", flight.id)
            })),
            Ok(decision) => serde_json::to_value(decision).map_err(|err| {
                format!(
                    "{}: the decision cannot be written: {err}",
                    tama_core::INFRASTRUCTURE
                )
            }),
            Err(why) => Err(why),
        };
        self.flights.answering();
        self.answer(id, answer, known);
        flight.stage("answered");
        self.flights.finish(flight);
    }

    fn state(&self) -> Value {
        let mut state = self.runtime.state();
        state["runningHooks"] = json!({"dispatched": self.flights.dispatched(), "abandoned": self.flights.abandoned.all()});
        state
    }

    /// Writes an answer; `known` is the client's catalog checksum, and a
    /// client that holds another catalog gets the loaded one.
    fn answer(&self, id: &Value, result: Result<Value, String>, known: Option<&str>) {
        let mut frame = match result {
            Ok(result) => json!({"id": id, "ok": true, "result": result}),
            Err(error) => json!({"id": id, "ok": false, "error": error}),
        };
        let state = self.state();
        if let Some(known) = known
            && state.get("catalogChecksum").and_then(Value::as_str) != Some(known)
        {
            frame["catalog"] = self.runtime.current().registry().raw.clone();
        }
        frame["state"] = state;
        self.write(&frame);
    }

    fn fail(&self, id: &Value, why: String) {
        self.answer(id, Err(why), None);
    }

    /// Writes one frame: serialized before the lock is taken, then one write.
    fn write(&self, frame: &Value) {
        // A `Value` always serializes; an empty line would only be skipped by the client.
        let mut line = serde_json::to_vec(frame).unwrap_or_default();
        line.push(b'\n');
        let mut out = lock(&self.out);
        let _ = out.write_all(&line);
        let _ = out.flush();
    }
}
