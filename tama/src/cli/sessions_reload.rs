//! `tama sessions reload --session ID [--json]`: asks the oh-my-pi process
//! running that session to adopt the installed adapter in place (the
//! `reload-adapter` session-control operation) and prints its receipt.
//!
//! The request is `reload-adapter.<request>.request.json` in the
//! session-control folder; the adapter of that session takes it and writes
//! `reload-adapter.<request>.receipt.json`, naming its process, session,
//! `runtime.adapterDigest` and `adapterReloadSupported`.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

use std::path::Path;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::exit;

/// Operations on running agent sessions.
#[derive(Subcommand)]
pub enum SessionsCommand {
    Reload(ReloadArgs),
}

/// Have an oh-my-pi session load the installed Tama adapter in place.
#[derive(Args)]
pub struct ReloadArgs {
    /// The oh-my-pi session id.
    #[arg(long)]
    session: String,
    /// Print the receipt as JSON.
    #[arg(long)]
    json: bool,
    /// Seconds to wait for the session to answer.
    #[arg(long, default_value_t = 10)]
    timeout: u64,
}

pub fn run(command: SessionsCommand) -> u8 {
    match command {
        SessionsCommand::Reload(args) => reload(args),
    }
}

fn reload(args: ReloadArgs) -> u8 {
    let dir = tama_core::paths::tama_home().join("session-control");
    let receipt = request(&dir, &args.session, Duration::from_secs(args.timeout));
    let ok = receipt.get("ok").and_then(Value::as_bool) == Some(true);
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&receipt).unwrap_or_else(|_| receipt.to_string())
        );
    } else if ok {
        let text = |key: &str| {
            receipt.get(key).map_or("?".to_string(), |v| {
                v.as_str().map_or(v.to_string(), str::to_string)
            })
        };
        let digest = receipt
            .pointer("/runtime/adapterDigest")
            .and_then(Value::as_str)
            .unwrap_or("none");
        println!(
            "oh-my-pi process {}, session {}: {} (adapter {digest})",
            text("processId"),
            text("sessionId"),
            text("message")
        );
    } else {
        eprintln!(
            "tama sessions reload: {}",
            receipt
                .get("error")
                .and_then(Value::as_str)
                .unwrap_or("the session answered without saying why")
        );
    }
    if ok { exit::PASS } else { exit::INFRASTRUCTURE }
}

/// Writes the request and waits for its receipt; a failure is a receipt with `ok: false`.
fn request(dir: &Path, session: &str, wait: Duration) -> Value {
    let fail = |error: String| json!({"ok": false, "operation": "reload-adapter", "sessionId": session, "error": error});
    if session.is_empty() {
        return fail("--session names no session".into());
    }
    let id = request_id(session);
    let request = dir.join(format!("reload-adapter.{id}.request.json"));
    let receipt = dir.join(format!("reload-adapter.{id}.receipt.json"));
    let body = json!({
        "schema": "ai.wisent.tama.reload-adapter.request.v1",
        "op": "reload-adapter",
        "requestId": id,
        "sessionId": session,
        "requestedAtMs": tama_core::clock::now_ms(),
    });
    if let Err(err) = tama_core::files::write_whole(&request, format!("{body}\n").as_bytes()) {
        return fail(format!(
            "cannot write the request {}: {err}",
            request.display()
        ));
    }
    let started = Instant::now();
    loop {
        match std::fs::read(&receipt) {
            Ok(bytes) => {
                let _ = std::fs::remove_file(&receipt);
                return serde_json::from_slice(&bytes).unwrap_or_else(|err| {
                    fail(format!(
                        "the receipt {} is not JSON: {err}",
                        receipt.display()
                    ))
                });
            }
            Err(err) if err.kind() != std::io::ErrorKind::NotFound => {
                return fail(format!(
                    "cannot read the receipt {}: {err}",
                    receipt.display()
                ));
            }
            Err(_) => {}
        }
        if started.elapsed() >= wait {
            let untaken = std::fs::remove_file(&request).is_ok();
            return fail(if untaken {
                format!(
                    "no oh-my-pi process of session {session} took the reload request within {} s: is the session running with Tama's extension (tama setup omp)? A session started before that extension existed needs oh-my-pi to start again once",
                    wait.as_secs()
                )
            } else {
                format!(
                    "session {session} took the reload request but did not answer within {} s",
                    wait.as_secs()
                )
            });
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A request id no other request shares: the session, this process and the clock, hashed.
fn request_id(session: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let digest = Sha256::digest(format!("{session}\0{}\0{nanos}", std::process::id()));
    hex::encode(&digest[..12])
}
