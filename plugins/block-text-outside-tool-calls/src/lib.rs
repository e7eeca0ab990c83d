//! `block-text-outside-tool-calls`: on `before_provider_request`, refuses
//! when the model's newest answer was prose with no tool call while the
//! agent's work is still open (the Oko state `block-supervisor-stop` reads).
//! The oh-my-pi adapter then requires a tool call in the next model request.
//!
//! The signal is the payload's `assistant_turn`, which the adapter reads from
//! the request it is about to send: `{"text": "...", "toolCalls": N}` for the
//! newest assistant answer, or `null` before the model answered at all.

// A native build only runs the tests; the glue is used by the component alone.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

mod signal;

wit_bindgen::generate!({ path: "../../wit", world: "gate" });

use tama::gate::state::{self, LookupError};

struct TextOutsideToolCalls;

impl Guest for TextOutsideToolCalls {
    fn validate_config(config: String) -> Result<(), String> {
        signal::check_config(&config)
    }

    fn evaluate(event: Event, _config: String) -> Result<Verdict, GateError> {
        if event.name != "before_provider_request"
            || !signal::answered_in_prose(&event.payload).map_err(GateError::InvalidInput)?
        {
            return Ok(Verdict::Pass);
        }
        let agent = event.agent_id.as_deref().unwrap_or("this agent");
        let role = read(signal::ROLE_KEY)?;
        let work = read(signal::WORK_KEY)?;
        match signal::decide(agent, role.as_deref(), work.as_deref()) {
            Ok(None) => Ok(Verdict::Pass),
            Ok(Some(reason)) => Ok(Verdict::Refuse(reason)),
            Err(unreadable) => Err(GateError::Failed(unreadable)),
        }
    }
}

fn read(key: &str) -> Result<Option<String>, GateError> {
    state::get(key).map_err(|LookupError::Unreadable(why)| GateError::Failed(why))
}

#[cfg(target_arch = "wasm32")]
export!(TextOutsideToolCalls);
