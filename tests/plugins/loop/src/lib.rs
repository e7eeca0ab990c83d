//! Hostile test gate: `evaluate` spins forever.

// Its guest code runs only in the component: a native build exports nothing.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

use std::hint::black_box;

wit_bindgen::generate!({ path: "../../../wit", world: "gate" });

struct Loop;

impl Guest for Loop {
    fn validate_config(_config: String) -> Result<(), String> {
        Ok(())
    }

    fn evaluate(_event: Event, _config: String) -> Result<Verdict, GateError> {
        let mut n = 0u64;
        loop {
            n = black_box(n.wrapping_add(1));
        }
    }
}

// Exported only in the component: a native build (for the tests) has
// no component-model symbol names to export.
#[cfg(target_arch = "wasm32")]
export!(Loop);
