//! The default registry and components built into `tama`, with room for
//! each one's native code compiled by the build under the engine
//! configuration `tama` runs (then loaded from the binary, never a file).

use super::ComponentBytes;

/// The default registry, sealed by the build.
pub const REGISTRY: &str = include_str!(concat!(env!("OUT_DIR"), "/default-registry.json"));

/// One component built into `tama`.
pub struct Builtin {
    /// The file name the default registry gives it.
    pub name: &'static str,
    /// The sha256 of `component`, computed by the build.
    pub sha256: &'static str,
    pub component: &'static [u8],
    /// `component` compiled by the build; empty when the build did not.
    pub compiled: &'static [u8],
}

/// Every built-in component: the build's `BUILTIN` list.
const BUILTINS: &[Builtin] = include!(concat!(env!("OUT_DIR"), "/builtin.rs"));

const TOOL_DECLARATION: &str = "tool-declaration.wasm";

/// The tool declaration every gate asks.
#[allow(
    clippy::expect_used,
    reason = "the build fails unless it embeds the tool declaration"
)]
pub fn tool_declaration() -> ComponentBytes {
    let builtin = BUILTINS
        .iter()
        .find(|b| b.name == TOOL_DECLARATION)
        .expect("the build embeds the tool declaration");
    ComponentBytes::embedded(builtin.component, builtin.sha256)
}

/// A built-in component by file name, under the digest the sealed default
/// registry declares for it; `None` when that is not the digest of the
/// built-in bytes.
pub fn embedded_component(name: &str, sha256: &str) -> Option<ComponentBytes> {
    BUILTINS
        .iter()
        .find(|b| b.name == name && b.sha256.eq_ignore_ascii_case(sha256))
        .map(|b| ComponentBytes::embedded(b.component, b.sha256))
}

/// The built-in component whose bytes digest to `sha256`, whatever registry
/// names it: its compiled form is taken from the binary, never from a cache.
pub fn builtin_with_digest(sha256: &str) -> Option<&'static Builtin> {
    BUILTINS
        .iter()
        .find(|b| b.sha256.eq_ignore_ascii_case(sha256))
}
