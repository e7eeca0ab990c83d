//! `tama run-hook --serve omp`: one long-lived engine answering every event
//! of an oh-my-pi session over a line protocol, one JSON object per line each
//! way. Answers arrive as requests finish, matched by `id`.

mod flight;
mod runtime;
mod turns;
mod workers;

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde_json::{Value, json};

use crate::dispatch::Selection;
use crate::event::Event;
use crate::supervise::records;
use flight::{Flight, Flights};
use runtime::{Refresh, Runtime};
use workers::Workers;

struct Server {
    runtime: Runtime,
    flights: Arc<Flights>,
    selection: Selection,
    agent: String,
    out: Mutex<std::io::Stdout>,
    workers: Arc<Workers>,
}

/// Serves until stdin closes, then ends every hook run it still holds.
pub fn serve(registry: Option<PathBuf>) -> u8 {
    if let Err(err) = crate::command::init_supervision() {
        crate::log::write("serve", &format!("cannot adopt orphaned hook processes: {err}"));
    }
    let (selection, agent) = match (Selection::from_env(), crate::dispatch::select::text_var("TAMA_AGENT_ID")) {
        (Ok(selection), Ok(agent)) => (selection, agent.filter(|a| !a.is_empty()).unwrap_or_else(|| "omp".into())),
        (Err(why), _) | (_, Err(why)) => return refuse_start(&why),
    };
    let runtime = match Runtime::start(crate::registry::Loaded::source(registry.as_deref())) {
        Ok(runtime) => runtime,
        Err(err) => return refuse_start(&err.to_string()),
    };
    let server = Arc::new(Server { runtime, flights: Arc::new(Flights::default()), selection, agent, out: Mutex::new(std::io::stdout()), workers: Arc::default() });
    let ending = Arc::downgrade(&server);
    crate::supervise::termination::on_termination(move |signal| {
        if let Some(server) = ending.upgrade() {
            server.end_all(&format!("the engine was terminated by {}", signal.as_str()));
        }
    });
    server.write(&json!({"ready": true, "state": server.state()}));
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        server.clone().handle(&line, Instant::now());
    }
    for flight in server.flights.all() {
        eprintln!("tama: ending dispatch {} of {}: the core's caller closed its input, so nobody waits for its answer", flight.id, flight.event);
        flight.cancel();
    }
    server.workers.join();
    records::remove();
    0
}

fn refuse_start(why: &str) -> u8 {
    let why = format!("{}: {why}", crate::INFRASTRUCTURE);
    println!("{}", json!({"ready": false, "error": why}));
    eprintln!("{why}");
    1
}

impl Server {
    /// Ends every dispatch and hook group this engine runs, `why`, and takes its record away.
    fn end_all(&self, why: &str) {
        let flights = self.flights.all();
        for flight in &flights {
            eprintln!("tama: ending dispatch {} of {}: {why}, so nobody waits for its answer", flight.id, flight.event);
            flight.cancel();
        }
        for hook in flights.iter().flat_map(|f| f.running_hooks()) {
            crate::supervise::termination::end_hook(&hook);
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
            Some("status") => self.workers.clone().run(move || self.status(&id)),
            Some("reload") => self.reload(&id),
            Some("dispatch") => self.dispatch(id, request, received),
            Some("cancel") => self.cancel(&id, &request),
            Some(other) => self.fail(&id, format!("unknown op `{other}`: expected status, reload, dispatch or cancel")),
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
            let _lock = self.runtime.lock.lock().expect("runtime lock");
            self.runtime.refresh()
        };
        let result = refreshed.map(|r| json!({"reloaded": true, "changed": matches!(r, Refresh::Adopted(_))}));
        self.answer(id, result, None);
    }

    fn cancel(&self, id: &Value, request: &Value) {
        let target = ["dispatchId", "target"].iter().find_map(|k| request.get(*k)).map(|t| match t {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        });
        let Some(target) = target else { return self.fail(id, "cancel names no dispatch: give its request id as dispatchId".into()) };
        let flight = self.flights.get(&target);
        if let Some(flight) = &flight {
            self.flights.abandoned.record(flight, &format!("the caller cancelled dispatch {target}"));
            flight.end(format!("the caller cancelled dispatch {target}"));
        }
        self.answer(id, Ok(json!({"cancelled": flight.is_some(), "dispatchId": target})), None);
    }

    fn dispatch(self: Arc<Self>, id: Value, request: Value, received: Instant) {
        let Some(event_name) = request.get("event").and_then(Value::as_str).map(str::to_string) else {
            return self.fail(&id, "dispatch names no event".into());
        };
        let payload = request.get("payload").cloned().unwrap_or(Value::Null);
        let known = request.get("knownCatalogChecksum").and_then(Value::as_str).map(str::to_string);
        let session = payload.get("session_id").or_else(|| payload.get("sessionId")).and_then(Value::as_str).map(str::to_string);
        let registry_event = crate::event::registry_event_name(&event_name).unwrap_or_default().to_string();
        let call = crate::supervise::signals::call_key(&payload);
        let key = match &id {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let flight = Arc::new(Flight::new(key, registry_event, session, call, received, Arc::downgrade(&self.flights)));
        self.flights.arrived(&flight);
        self.flights.start(flight.clone());
        let refreshed = {
            let _lock = self.runtime.lock.lock().expect("runtime lock");
            flight.stage("runtimeLocked");
            let refreshed = self.runtime.refresh();
            flight.stage("registryRefreshed");
            refreshed
        };
        let generation = match refreshed {
            Ok(Refresh::Unchanged(g) | Refresh::Adopted(g)) => g,
            Err(why) => {
                self.answer(&id, Err(why), known.as_deref());
                self.flights.finish(&flight);
                return;
            }
        };
        let workers = self.workers.clone();
        workers.run(move || {
            flight.stage("threadStarted");
            let result = Event::from_payload(payload, Some(&event_name)).map_err(|e| format!("dispatch {event_name}: {e}"));
            let answer = result.map(|mut event| {
                event.agent_id = Some(self.agent.clone());
                let mut selection = crate::session::selection_for(&self.selection, &self.agent, event.session_id.as_deref());
                let registry = &generation.registry().registry;
                event.capability = crate::capability::for_event(registry, &self.agent, event.session_id.as_deref())
                    .unwrap_or_else(|refused| {
                        selection.refused.push(refused);
                        None
                    });
                flight.stage("sessionStateRead");
                generation.dispatcher.dispatch_watched(event, &selection, flight.as_ref())
            });
            let answer = match answer {
                Ok(_) if flight.is_cancelled() => {
                    Err(flight.ended_because().unwrap_or_else(|| format!("dispatch {} of {event_name} was cancelled", flight.id)))
                }
                Ok(decision) => Ok(serde_json::to_value(decision).expect("a decision serializes")),
                Err(why) => Err(why),
            };
            self.answer(&id, answer, known.as_deref());
            flight.stage("answered");
            self.flights.finish(&flight);
        });
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
        if let Some(known) = known {
            if state["catalogChecksum"].as_str() != Some(known) {
                frame["catalog"] = self.runtime.current().registry().raw.clone();
            }
        }
        frame["state"] = state;
        self.write(&frame);
    }

    fn fail(&self, id: &Value, why: String) {
        self.answer(id, Err(why), None);
    }

    /// Writes one frame: serialized before the lock is taken, then one write.
    fn write(&self, frame: &Value) {
        let mut line = serde_json::to_vec(frame).expect("a JSON value serializes");
        line.push(b'\n');
        let mut out = self.out.lock().expect("stdout lock");
        let _ = out.write_all(&line);
        let _ = out.flush();
    }
}
