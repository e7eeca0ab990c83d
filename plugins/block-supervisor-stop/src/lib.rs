//! `block-supervisor-stop`: the stop policy Tama runs first. A supervisor may
//! not end its turn while executor work it handed out is still open.
//!
//! It reads only the Oko state the registry grants it: `oko.role` and
//! `oko.work` of the session's agent, which the host reads for it.

// A native build only runs the tests; the glue is used by the component alone.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

mod policy;

wit_bindgen::generate!({ path: "../../wit", world: "gate" });

use tama::gate::state::{self, LookupError};

struct SupervisorStop;

impl Guest for SupervisorStop {
    fn validate_config(config: String) -> Result<(), String> {
        policy::check_config(&config)
    }

    fn evaluate(event: Event, _config: String) -> Result<Verdict, GateError> {
        if !policy::is_stop(&event.name) {
            return Ok(Verdict::Pass);
        }
        let agent = event.agent_id.as_deref().unwrap_or("this agent");
        let role = read(policy::ROLE_KEY)?;
        let work = read(policy::WORK_KEY)?;
        match policy::decide(agent, role.as_deref(), work.as_deref()) {
            Ok(None) => Ok(Verdict::Pass),
            Ok(Some(reason)) => Ok(Verdict::Refuse(reason)),
            Err(unreadable) => Err(GateError::Failed(unreadable)),
        }
    }
}

fn read(key: &str) -> Result<Option<String>, GateError> {
    state::get(key).map_err(|LookupError::Unreadable(why)| GateError::Failed(why))
}

// Exported only in the component: a native build (for the tests) has
// no component-model symbol names to export.
#[cfg(target_arch = "wasm32")]
export!(SupervisorStop);
