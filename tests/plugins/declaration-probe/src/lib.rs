//! Test gate: refuses every tool call with what the tool declaration read
//! from it, as JSON (`{"kind", "command", "targets"}` or `{"error"}`), so a
//! test sees the declaration's reading through `tama hook --plugin`.

// Its guest code runs only in the component: a native build exports nothing.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

wit_bindgen::generate!({ path: "../../../wit", world: "gate" });

use serde_json::json;
use tama::gate::declaration::{ToolKind, classify};

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
        let reading = match classify(&name, &input) {
            Ok(call) => json!({
                "name": call.name,
                "kind": match call.kind {
                    ToolKind::Shell => "shell",
                    ToolKind::Write => "write",
                    ToolKind::Lookup => "lookup",
                    ToolKind::Other => "other",
                },
                "command": call.command,
                "targets": call.targets.iter().map(|t| json!({"path": t.path, "action": t.device_action})).collect::<Vec<_>>(),
            }),
            Err(why) => json!({"error": why}),
        };
        Ok(Verdict::Refuse(reading.to_string()))
    }
}

// Exported only in the component: a native build (for the tests) has
// no component-model symbol names to export.
#[cfg(target_arch = "wasm32")]
export!(Probe);
