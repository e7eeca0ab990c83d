//! Tama's `block-git-hook-bypass` gate: refuses a shell tool call that would
//! let git commit, push, merge, rebase or am run without the repository's
//! client-side hooks, and names the bypass in the refusal.
//!
//! The analysis is plain Rust ([`refusal_reason`]); this file only binds it
//! to the gate world of `wit/gate.wit`.

mod analysis;
mod field;
mod finding;
mod git;
mod hook_env;
mod shell;

wit_bindgen::generate!({ path: "../../wit", world: "gate" });

pub use analysis::find_bypass;
pub use finding::Finding;

use tama::gate::declaration::{ToolKind, classify};

/// Why `command` is refused, or `None` when it leaves the hooks alone.
pub fn refusal_reason(command: &str) -> Option<String> {
    find_bypass(command).map(|finding| finding.to_string())
}

/// Checks the gate's configuration, JSON text: the gate takes none, so only
/// nothing, `null` and `{}` are accepted.
pub fn check_config(config: &str) -> Result<(), String> {
    let config = config.trim();
    if config.is_empty() {
        return Ok(());
    }
    match serde_json::from_str::<serde_json::Value>(config) {
        Ok(serde_json::Value::Null) => Ok(()),
        Ok(serde_json::Value::Object(map)) if map.is_empty() => Ok(()),
        Ok(serde_json::Value::Object(map)) => {
            let keys: Vec<String> = map.keys().map(|key| format!("`{key}`")).collect();
            Err(format!(
                "block-git-hook-bypass takes no configuration; remove {}",
                keys.join(", ")
            ))
        }
        Ok(_) => Err("block-git-hook-bypass takes no configuration; give `{}` or nothing".to_owned()),
        Err(error) => Err(format!("block-git-hook-bypass: the configuration is not JSON: {error}")),
    }
}

#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
struct Gate;

impl Guest for Gate {
    fn validate_config(config: String) -> Result<(), String> {
        check_config(&config)
    }

    fn evaluate(event: Event, config: String) -> Result<Verdict, GateError> {
        check_config(&config).map_err(GateError::InvalidConfig)?;
        let (Some(tool_name), Some(tool_input)) = (event.tool_name, event.tool_input) else {
            return Ok(Verdict::Pass);
        };
        let call = classify(&tool_name, &tool_input).map_err(GateError::InvalidInput)?;
        if !matches!(call.kind, ToolKind::Shell) {
            return Ok(Verdict::Pass);
        }
        let command = call.command.ok_or_else(|| {
            GateError::InvalidInput(format!("the shell tool call `{tool_name}` has no command"))
        })?;
        Ok(refusal_reason(&command).map_or(Verdict::Pass, Verdict::Refuse))
    }
}

// Exported only in the component: a native build (for the tests) has
// no component-model symbol names to export.
#[cfg(target_arch = "wasm32")]
export!(Gate);
#[doc(hidden)]
pub fn parse_only(command: &str) -> bool { shell::parse(command).is_ok() }
