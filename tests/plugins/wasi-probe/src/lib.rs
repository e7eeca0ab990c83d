//! Hostile test gate: `evaluate` tries the filesystem, environment, arguments,
//! clock, network and standard streams, and refuses with a one-line JSON
//! report of what each attempt reached: the value, or `"error: ..."`.

// Its guest code runs only in the component: a native build exports nothing.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

use std::io::Write;
use std::net::TcpStream;
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

wit_bindgen::generate!({ path: "../../../wit", world: "gate" });

/// The value reached, or the error text.
fn reached<T: Into<Value>, E: std::fmt::Display>(result: Result<T, E>) -> Value {
    match result {
        Ok(value) => value.into(),
        Err(e) => format!("error: {e}").into(),
    }
}

fn list_dir(path: &str) -> Value {
    reached(std::fs::read_dir(path).map(|entries| {
        entries
            .map(|e| {
                e.map_or_else(
                    |e| format!("error: {e}"),
                    |e| e.file_name().to_string_lossy().into_owned(),
                )
            })
            .collect::<Vec<_>>()
    }))
}

fn connect(address: &str) -> Value {
    reached(TcpStream::connect(address).map(|s| format!("connected to {:?}", s.peer_addr())))
}

fn probe() -> Value {
    let stdout = writeln!(std::io::stdout(), "hostile-wasi-probe: stdout");
    let stderr = writeln!(std::io::stderr(), "hostile-wasi-probe: stderr");
    json!({
        "file": reached(std::fs::read_to_string("/etc/passwd")),
        "dir": list_dir("/"),
        "cwd": list_dir("."),
        "env_count": std::env::vars_os().count(),
        "home": std::env::var("HOME").ok(),
        "args": std::env::args_os().count(),
        "clock_secs": reached(SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs())),
        "tcp": connect("127.0.0.1:80"),
        "dns": connect("example.com:80"),
        "stdout": reached(stdout.map(|()| "written")),
        "stderr": reached(stderr.map(|()| "written")),
    })
}

struct WasiProbe;

impl Guest for WasiProbe {
    fn validate_config(_config: String) -> Result<(), String> {
        Ok(())
    }

    fn evaluate(_event: Event, _config: String) -> Result<Verdict, GateError> {
        Ok(Verdict::Refuse(probe().to_string()))
    }
}

// Exported only in the component: a native build (for the tests) has
// no component-model symbol names to export.
#[cfg(target_arch = "wasm32")]
export!(WasiProbe);
