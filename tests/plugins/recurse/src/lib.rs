//! Hostile test gate: `evaluate` recurses without end, exhausting the wasm
//! call stack.

// Its guest code runs only in the component: a native build exports nothing.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

use std::hint::black_box;

wit_bindgen::generate!({ path: "../../../wit", world: "gate" });

/// Not a tail call: the addition after the call keeps every frame alive.
#[inline(never)]
#[allow(unconditional_recursion)]
fn descend(depth: u64) -> u64 {
    let depth = black_box(depth);
    descend(depth + 1).wrapping_add(depth)
}

struct Recurse;

impl Guest for Recurse {
    fn validate_config(_config: String) -> Result<(), String> {
        Ok(())
    }

    fn evaluate(_event: Event, _config: String) -> Result<Verdict, GateError> {
        let depth = descend(0);
        Err(GateError::Failed(format!("returned from depth {depth}")))
    }
}

// Exported only in the component: a native build (for the tests) has
// no component-model symbol names to export.
#[cfg(target_arch = "wasm32")]
export!(Recurse);
