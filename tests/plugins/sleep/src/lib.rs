//! Hostile test gate: `evaluate` sleeps on the WASI monotonic clock, again
//! and again. A sleep is a host call, where no epoch deadline can stop the
//! guest, so only a host that refuses the wait keeps the call within its
//! time bound.

// Its guest code runs only in the component: a native build exports nothing.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

use std::time::Duration;

wit_bindgen::generate!({ path: "../../../wit", world: "gate" });

struct Sleep;

impl Guest for Sleep {
    fn validate_config(_config: String) -> Result<(), String> {
        Ok(())
    }

    fn evaluate(_event: Event, _config: String) -> Result<Verdict, GateError> {
        loop {
            std::thread::sleep(Duration::from_secs(5));
        }
    }
}

// Exported only in the component: a native build (for the tests) has
// no component-model symbol names to export.
#[cfg(target_arch = "wasm32")]
export!(Sleep);
