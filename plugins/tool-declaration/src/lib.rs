//! The tool declaration: the one place Tama keeps tool spellings. Every gate
//! that reads a shell command or a written file asks this component, so no
//! gate can keep a shorter list of its own. The spellings are data, in
//! [`spellings::SPELLINGS`]; the README's list is generated from it.

// A native build only runs the tests; the glue is used by the component alone.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
#![cfg_attr(target_arch = "wasm32", no_std)]

extern crate alloc;

mod classify;
mod code_cell;
mod device;
mod harness_path;
mod launch;
mod new_text;
mod patch;
mod prelude;
pub mod spellings;
#[cfg(target_arch = "wasm32")]
#[path = "../../block-git-hook-bypass/src/wasm_runtime.rs"]
mod wasm_runtime;

wit_bindgen::generate!({ path: "../../wit", world: "tool-declaration" });

use exports::tama::gate::declaration::{Guest, ToolCall};
use prelude::*;

struct Declaration;

impl Guest for Declaration {
    fn classify(tool_name: String, tool_input: String) -> Result<ToolCall, String> {
        classify::classify(&tool_name, &tool_input)
    }
}

// Exported only in the component: a native build (for the tests) has
// no component-model symbol names to export.
#[cfg(target_arch = "wasm32")]
export!(Declaration);

/// The tool declaration imports no log: a panic's message is dropped, and
/// Tama reports the trap that follows as the declaration's failure.
#[cfg(target_arch = "wasm32")]
fn on_panic(_message: &str) {}
