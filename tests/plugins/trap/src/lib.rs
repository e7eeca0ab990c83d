//! Hostile test gate: `evaluate` panics, which aborts into a wasm trap.

// Its guest code runs only in the component: a native build exports nothing.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

wit_bindgen::generate!({ path: "../../../wit", world: "gate" });

struct Trap;

impl Guest for Trap {
    fn validate_config(_config: String) -> Result<(), String> {
        Ok(())
    }

    fn evaluate(_event: Event, _config: String) -> Result<Verdict, GateError> {
        panic!("hostile-trap: evaluate panics on purpose")
    }
}

// Exported only in the component: a native build (for the tests) has
// no component-model symbol names to export.
#[cfg(target_arch = "wasm32")]
export!(Trap);
