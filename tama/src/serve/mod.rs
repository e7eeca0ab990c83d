//! `tama run-hook --serve omp`: one long-lived engine answering every event
//! of an oh-my-pi session over a line protocol, one JSON object per line each
//! way. Answers arrive as requests finish, matched by `id`.
//!
//! Every frame is input: nothing on it may panic or end the engine.
#![deny(clippy::unwrap_used, clippy::expect_used)]

mod file_key;
mod flight;
mod input;
mod out;
mod runtime;
mod sessions;
mod turns;
mod workers;

use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

use serde::Serialize;
use serde_json::{Value, json};

use flight::{Flight, Flights};
use input::Input;
use runtime::{Refresh, Runtime};
use tama_core::dispatch::Selection;
use tama_core::event::Event;
use tama_core::supervise::records;
use workers::{HandOver, Workers};

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
    sessions: sessions::Sessions,
    out: out::Out,
    workers: Workers,
    most_in_flight: usize,
    /// The engine's input, read only by the thread that holds the reading role.
    input: Mutex<Input>,
}

/// Bytes an answer is serialized into before it must grow: more than a
/// dispatch's answer with its records and the engine's state takes.
const ANSWER_ROOM: usize = 4096;

thread_local! {
    /// This thread's answer being serialized, its room kept for the next one.
    static LINE: std::cell::RefCell<Vec<u8>> = std::cell::RefCell::new(Vec::with_capacity(ANSWER_ROOM));
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
    let input = match Input::stdin() {
        Ok(input) => input,
        Err(err) => return refuse_start(&format!("the engine's input cannot be opened: {err}")),
    };
    let runtime = match Runtime::start(tama_core::registry::Loaded::source(registry.as_deref())) {
        Ok(runtime) => runtime,
        Err(err) => return refuse_start(&err.to_string()),
    };
    let server = Arc::new(Server {
        runtime,
        flights: Arc::new(Flights::default()),
        selection,
        sessions: sessions::Sessions::new(agent.clone()),
        agent,
        out: out::Out::new(),
        workers: Workers::per_core(),
        most_in_flight,
        input: Mutex::new(input),
    });
    let ending = Arc::downgrade(&server);
    tama_core::supervise::termination::on_termination(move |signal| {
        if let Some(server) = ending.upgrade() {
            server.end_all(&format!("the engine was terminated by {}", signal.as_str()));
        }
    });
    let released = Arc::downgrade(&server);
    let _ = server.flights.blocking.set(Box::new(move || {
        // Command hooks may run for long: nothing spent is held meanwhile.
        tama_core::wasm::drop_spent();
        let Some(server) = released.upgrade() else {
            return Ok(());
        };
        let started = server.start_reader(server.workers.release_current());
        if let Err(err) = &started {
            tama_core::log::write(
                "serve",
                &format!("no thread reads on while a dispatch runs command hooks: {err}"),
            );
        }
        started
    }));
    server.write(&json!({"ready": true, "state": server.state()}));
    if let Err(err) = server.start_reader(server.workers.first_reader()) {
        // Without a thread of its own, this one reads until others can start.
        tama_core::log::write(
            "serve",
            &format!("no thread can be started to read requests: {err}"),
        );
        server.clone().read_requests();
    }
    server.workers.wait_for_input_end();
    for flight in server.flights.all() {
        eprintln!(
            "tama: ending dispatch {} of {}: the core's caller closed its input, so nobody waits for its answer",
            flight.id,
            flight.event_name()
        );
        flight.cancel();
    }
    server.workers.wait_for_end();
    records::remove();
    0
}

/// What a request leaves to run after the next request may be read.
enum Job {
    Status { id: Value },
    Dispatch(Admitted),
}

/// A dispatch admitted in its turn, its hooks still to run.
struct Admitted {
    id: Value,
    flight: Arc<Flight>,
    generation: Arc<runtime::Generation>,
    payload: Value,
    event_name: String,
    known: Option<String>,
}

/// One answer frame, in the order its fields are written.
#[derive(Serialize)]
struct Answer<'a, R> {
    id: &'a Value,
    ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<R>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    catalog: Option<&'a Value>,
    state: runtime::State,
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
                flight.id,
                flight.event_name()
            );
            flight.cancel();
        }
        self.flights.close();
        for hook in flights.iter().flat_map(|f| f.running_hooks()) {
            tama_core::supervise::termination::end_hook(&hook);
        }
        records::remove();
    }

    /// Handles one request line while no other is read, so requests are
    /// admitted in the order they came; what may take long is left to run
    /// once the next request may be read.
    fn handle(&self, line: &str, received: Instant) -> Option<Job> {
        let request: Value = match serde_json::from_str(line) {
            Ok(request) => request,
            Err(err) => {
                self.fail(&Value::Null, format!("the request is not JSON: {err}"));
                return None;
            }
        };
        let id = request.get("id").cloned().unwrap_or(Value::Null);
        if !(id.is_string() || id.is_number()) {
            self.fail(&id, "the request has no id (a string or a number)".into());
            return None;
        }
        match request.get("op").and_then(Value::as_str) {
            Some("status") => return Some(Job::Status { id }),
            Some("reload") => self.reload(&id),
            Some("dispatch") => return self.dispatch(id, request, received),
            Some("cancel") => self.cancel(&id, &request),
            Some(other) => self.fail(
                &id,
                format!("unknown op `{other}`: expected status, reload, dispatch or cancel"),
            ),
            None => self.fail(&id, "the request has no op".into()),
        }
        None
    }

    fn run(self: &Arc<Self>, job: Job) {
        match job {
            Job::Status { id } => self.status(&id),
            Job::Dispatch(dispatch) => self.run_dispatch(dispatch),
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

    /// Admits a dispatch: held to the bound, its signals to the others
    /// taken, the registry re-checked. Its hooks are left to run.
    fn dispatch(&self, id: Value, mut request: Value, received: Instant) -> Option<Job> {
        let Some(event_name) = request
            .get("event")
            .and_then(Value::as_str)
            .map(str::to_string)
        else {
            self.fail(&id, "dispatch names no event".into());
            return None;
        };
        let payload = request
            .get_mut("payload")
            .map(Value::take)
            .unwrap_or(Value::Null);
        let known = request
            .get("knownCatalogChecksum")
            .and_then(Value::as_str)
            .map(str::to_string);
        let session = payload
            .get("session_id")
            .or_else(|| payload.get("sessionId"))
            .and_then(Value::as_str)
            .map(str::to_string);
        let registry_event = tama_core::event::EventName::parse(&event_name);
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
            self.fail(&id, why);
            return None;
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
                self.answer(&id, Err::<(), _>(why), known.as_deref());
                self.flights.finish(&flight);
                return None;
            }
        };
        Some(Job::Dispatch(Admitted {
            id,
            flight,
            generation,
            payload,
            event_name,
            known,
        }))
    }

    /// Starts a thread that reads requests, when `hand_over` asks for one.
    fn start_reader(self: &Arc<Self>, hand_over: HandOver) -> std::io::Result<()> {
        if hand_over == HandOver::Done {
            return Ok(());
        }
        let server = self.clone();
        match std::thread::Builder::new()
            .name("tama-serve".into())
            .spawn(move || server.read_requests())
        {
            Ok(_) => Ok(()),
            Err(err) => {
                self.workers.not_started();
                Err(err)
            }
        }
    }

    /// This thread is about to wait on something outside the engine (a
    /// session's lock, which another process may hold): another reads on.
    fn read_on(self: &Arc<Self>) {
        if let Err(err) = self.start_reader(self.workers.hand_over()) {
            tama_core::log::write(
                "serve",
                &format!("no thread reads on while a request waits: {err}"),
            );
        }
    }

    /// Holds the reading role: reads requests and runs each on this thread,
    /// until the input ends or enough other threads are idle.
    fn read_requests(self: Arc<Self>) {
        self.workers.start_reading();
        let mut frame = Vec::new();
        loop {
            frame.clear();
            // Further input already waiting has another thread read on while
            // this one runs what it read; see [`workers`].
            let read = lock(&self.input).read_frame(&mut frame);
            let waiting = match read {
                Ok((0, _)) => return self.workers.input_ended(),
                Ok((_, waiting)) => waiting,
                Err(err) => {
                    eprintln!("tama: the engine's input cannot be read: {err}");
                    return self.workers.input_ended();
                }
            };
            let received = Instant::now();
            self.workers.took_request();
            // Nothing on a frame may end the thread that reads it.
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let job = match std::str::from_utf8(&frame) {
                    Ok(line) if line.trim().is_empty() => None,
                    Ok(line) => self.handle(line, received),
                    Err(err) => {
                        self.fail(&Value::Null, format!("the request is not UTF-8: {err}"));
                        None
                    }
                };
                if let Some(job) = job {
                    if waiting {
                        self.read_on();
                    }
                    self.run(job);
                }
            }));
            if !self.workers.finished_request() {
                return;
            }
        }
    }

    /// Runs one admitted dispatch on this thread and answers it.
    fn run_dispatch(self: &Arc<Self>, admitted: Admitted) {
        let Admitted {
            id,
            flight,
            generation,
            payload,
            event_name,
            known,
        } = admitted;
        let (id, event_name, known) = (&id, event_name.as_str(), known.as_deref());
        flight.stage("threadStarted");
        let result = Event::from_payload(payload, Some(event_name))
            .map_err(|e| format!("dispatch {event_name}: {e}"));
        let answer = result.map(|mut event| {
            event.agent_id = Some(self.agent.clone());
            let session = event.session_id.as_deref();
            let registry = &generation.registry().registry;
            let (mut selection, capability) =
                self.sessions
                    .read(&self.selection, registry, session, || self.read_on());
            event.capability = capability.unwrap_or_else(|refused| {
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
            Ok(decision) => Ok(decision),
            Err(why) => Err(why),
        };
        self.flights.answering();
        self.answer(id, answer, known);
        flight.stage("answered");
        self.flights.finish(&flight);
    }

    fn state(&self) -> runtime::State {
        let mut state = self.runtime.state();
        state.running_hooks = Some(runtime::RunningHooks {
            dispatched: self.flights.dispatched(),
            abandoned: self.flights.abandoned.all(),
        });
        state
    }

    /// Writes an answer; `known` is the client's catalog checksum, and a
    /// client that holds another catalog gets the loaded one.
    fn answer(&self, id: &Value, result: Result<impl Serialize, String>, known: Option<&str>) {
        let state = self.state();
        let current = known
            .filter(|known| state.catalog_checksum.as_deref() != Some(*known))
            .map(|_| self.runtime.current());
        let (ok, result, error) = match result {
            Ok(result) => (true, Some(result), None),
            Err(error) => (false, None, Some(error)),
        };
        self.write(&Answer {
            id,
            ok,
            result,
            error,
            catalog: current.as_ref().map(|c| &c.registry().raw),
            state,
        });
    }

    fn fail(&self, id: &Value, why: String) {
        self.answer(id, Err::<(), _>(why), None);
    }

    /// Writes one frame, serialized into this thread's line before it joins the output.
    fn write(&self, frame: &impl Serialize) {
        LINE.with_borrow_mut(|line| {
            line.clear();
            // A `Value` always serializes; an empty line would only be skipped by the client.
            if serde_json::to_writer(&mut *line, frame).is_err() {
                line.clear();
            }
            line.push(b'\n');
            self.out.write_line(line);
            line.clear();
            line.shrink_to(ANSWER_ROOM);
        });
        // The gate stores this thread's request spent go back to the pool
        // only now, once the client has its answer.
        tama_core::wasm::drop_spent();
    }
}
