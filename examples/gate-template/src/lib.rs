//! Example Tama gate: refuses writes to `.env` files. The policy lives in
//! [`policy`]; this file only connects it to the `gate` world.

// A native build only runs the tests; the glue is used by the component alone.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

pub mod policy;

// Out of the Tama workspace, point `path` at your copy of gate.wit's folder.
wit_bindgen::generate!({ path: "../../wit", world: "gate" });

use tama::gate::declaration::{ToolKind, classify};

struct Gate;

impl Guest for Gate {
    fn validate_config(config: String) -> Result<(), String> {
        policy::Config::parse(&config).map(drop)
    }

    fn evaluate(event: Event, config: String) -> Result<Verdict, GateError> {
        let config = policy::Config::parse(&config).map_err(GateError::InvalidConfig)?;
        // Only tool events carry a tool call; anything else passes.
        let Some(tool_name) = event.tool_name else {
            return Ok(Verdict::Pass);
        };
        let tool_input = event.tool_input.unwrap_or_else(|| "{}".to_string());
        // The tool declaration knows every harness's spelling; never keep a list here.
        let call = classify(&tool_name, &tool_input).map_err(GateError::InvalidInput)?;
        if !matches!(call.kind, ToolKind::Write) {
            return Ok(Verdict::Pass);
        }
        let paths = call
            .targets
            .iter()
            .filter(|t| t.device_action.is_none())
            .map(|t| t.path.as_str());
        Ok(match config.refusal(paths) {
            Some(reason) => Verdict::Refuse(reason),
            None => Verdict::Pass,
        })
    }
}

// Exported only in the component: a native build (for the tests) has
// no component-model symbol names to export.
#[cfg(target_arch = "wasm32")]
export!(Gate);
