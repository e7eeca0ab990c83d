//! Hostile test gate: `evaluate` allocates and writes 1 MiB chunks until the
//! allocator fails, which aborts into a wasm trap.

// Its guest code runs only in the component: a native build exports nothing.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

use std::hint::black_box;

wit_bindgen::generate!({ path: "../../../wit", world: "gate" });

const CHUNK: usize = 1 << 20;

struct GrowMemory;

impl Guest for GrowMemory {
    fn validate_config(_config: String) -> Result<(), String> {
        Ok(())
    }

    fn evaluate(_event: Event, _config: String) -> Result<Verdict, GateError> {
        let mut chunks: Vec<Vec<u8>> = Vec::new();
        loop {
            let mut chunk = Vec::with_capacity(CHUNK);
            chunk.resize(CHUNK, 0xA5u8);
            chunks.push(black_box(chunk));
        }
    }
}

// Exported only in the component: a native build (for the tests) has
// no component-model symbol names to export.
#[cfg(target_arch = "wasm32")]
export!(GrowMemory);
