//! Test gate: asks `tama:gate/files` for the file a shell call's command
//! names (the command is the path) and refuses with what it was handed, as
//! JSON (`{"text"}` or `{"error"}`), so a test sees that a plugin, unlike a
//! built-in gate, is handed no file.

// Its guest code runs only in the component: a native build exports nothing.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

wit_bindgen::generate!({ path: "../../../wit", world: "gate" });

use serde_json::json;
use tama::gate::declaration::classify;

struct Probe;

impl Guest for Probe {
    fn validate_config(_config: String) -> Result<(), String> {
        Ok(())
    }

    fn evaluate(event: Event, _config: String) -> Result<Verdict, GateError> {
        let (Some(name), Some(input)) = (event.tool_name, event.tool_input) else {
            return Err(GateError::InvalidInput(
                "the event carries no tool call".into(),
            ));
        };
        let call = classify(&name, &input).map_err(GateError::InvalidInput)?;
        let path = call.command.unwrap_or_default();
        let handed = match tama::gate::files::read(&path) {
            Ok(text) => json!({"text": text}),
            Err(why) => json!({"error": why}),
        };
        Ok(Verdict::Refuse(handed.to_string()))
    }
}

// Exported only in the component: a native build (for the tests) has
// no component-model symbol names to export.
#[cfg(target_arch = "wasm32")]
export!(Probe);
