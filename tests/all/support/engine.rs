//! A client of `tama run-hook --serve omp` over real pipes.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    frames: Receiver<Value>,
    seen: HashMap<String, Value>,
    pub ready: Value,
}

impl Engine {
    pub fn start(home: &Path, registry: Option<&Path>) -> Engine {
        Engine::start_with(home, registry, &[])
    }

    /// [`Engine::start`] with more environment variables.
    pub fn start_with(home: &Path, registry: Option<&Path>, env: &[(&str, &str)]) -> Engine {
        let mut command = super::tama_in(home);
        command
            .args(["run-hook", "--serve", "omp"])
            .envs(env.iter().copied());
        if let Some(registry) = registry {
            command.args(["--registry", registry.to_str().unwrap()]);
        }
        let mut child = command.spawn().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (send, frames) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let line = line.unwrap();
                assert!(!line.is_empty());
                send.send(
                    serde_json::from_str::<Value>(&line).expect("every frame is one JSON object"),
                )
                .ok();
            }
        });
        let ready = frames
            .recv_timeout(Duration::from_secs(20))
            .expect("a ready frame");
        Engine {
            stdin: child.stdin.take(),
            child,
            frames,
            seen: HashMap::new(),
            ready,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn send(&mut self, request: Value) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{request}").unwrap();
        stdin.flush().unwrap();
    }

    pub fn send_bytes(&mut self, frame: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(frame).unwrap();
        stdin.flush().unwrap();
    }

    pub fn send_raw(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
    }

    /// The answer to `id`, waiting for it; answers to others are kept.
    pub fn answer(&mut self, id: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(30);
        while !self.seen.contains_key(id) {
            let frame = self
                .frames
                .recv_timeout(deadline - Instant::now())
                .unwrap_or_else(|_| panic!("no answer to {id}"));
            let key = match &frame["id"] {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            self.seen.insert(key, frame);
        }
        self.seen.remove(id).unwrap()
    }

    /// The next frame as it arrives.
    pub fn next(&mut self) -> Value {
        self.frames
            .recv_timeout(Duration::from_secs(30))
            .expect("a frame")
    }

    /// Waits until status names `hook` running as a command; its process group.
    pub fn held_on(&mut self, hook: &str) -> i32 {
        for _ in 0..400 {
            self.send(json!({"id": "held", "op": "status"}));
            let status = self.answer("held");
            let dispatched = status["result"]["runningHooks"]["dispatched"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            if let Some(h) = dispatched
                .iter()
                .find(|h| h["hook"] == hook && !h["processGroup"].is_null())
            {
                return h["processGroup"].as_i64().expect("a process group") as i32;
            }
            std::thread::sleep(Duration::from_millis(25));
        }
        panic!("{hook} never ran");
    }

    pub fn close(mut self) -> std::process::Output {
        drop(self.stdin.take());
        self.child.wait_with_output().unwrap()
    }
}
