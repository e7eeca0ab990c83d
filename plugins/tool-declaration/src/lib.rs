//! The tool declaration: the one place Tama keeps tool spellings. Every gate
//! that reads a shell command or a written file asks this component, so no
//! gate can keep a shorter list of its own.

mod classify;
mod patch;

wit_bindgen::generate!({ path: "../../wit", world: "tool-declaration" });

use exports::tama::gate::declaration::{Guest, ToolCall};

struct Declaration;

impl Guest for Declaration {
    fn classify(tool_name: String, tool_input: String) -> Result<ToolCall, String> {
        classify::classify(&tool_name, &tool_input)
    }
}

export!(Declaration);
