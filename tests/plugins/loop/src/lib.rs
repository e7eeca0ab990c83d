//! Hostile test gate: `evaluate` spins forever.

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

export!(Loop);
