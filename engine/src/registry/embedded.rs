//! The default registry and components built into `tama`.

use crate::wasm::ComponentBytes;

/// The default registry, sealed by the build.
pub const REGISTRY: &str = include_str!(concat!(env!("OUT_DIR"), "/default-registry.json"));

const TOOL_DECLARATION: &[u8] = include_bytes!(concat!(env!("TAMA_WASM_DIR"), "/tool_declaration.wasm"));

/// Built-in components by the file name the default registry gives them.
const COMPONENTS: &[(&str, &[u8])] = &[
    ("tool-declaration.wasm", TOOL_DECLARATION),
    ("protect-tama.wasm", include_bytes!(concat!(env!("TAMA_WASM_DIR"), "/protect_tama.wasm"))),
    ("block-git-hook-bypass.wasm", include_bytes!(concat!(env!("TAMA_WASM_DIR"), "/block_git_hook_bypass.wasm"))),
    ("block-supervisor-stop.wasm", include_bytes!(concat!(env!("TAMA_WASM_DIR"), "/block_supervisor_stop.wasm"))),
    ("block-text-outside-tool-calls.wasm", include_bytes!(concat!(env!("TAMA_WASM_DIR"), "/block_text_outside_tool_calls.wasm"))),
];

/// The tool declaration every gate asks.
pub fn tool_declaration() -> ComponentBytes {
    ComponentBytes::embedded(TOOL_DECLARATION, env!("TAMA_TOOL_DECLARATION_SHA256"))
}

/// A built-in component by file name, under the digest the sealed default
/// registry declares for it (computed by the build from these very bytes).
pub fn embedded_component(name: &str, sha256: &str) -> Option<ComponentBytes> {
    COMPONENTS.iter().find(|(n, _)| *n == name).map(|(_, bytes)| ComponentBytes::embedded(bytes, sha256))
}
