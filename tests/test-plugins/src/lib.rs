//! Where the hostile test plugins of `tests/plugins` were built: the engine's
//! tests depend on this crate, so `cargo build` of `tama` never builds them.

use std::path::PathBuf;

/// A built test plugin by package name (dashes or underscores), e.g. `hostile-trap`.
pub fn component(name: &str) -> PathBuf {
    PathBuf::from(env!("TEST_PLUGINS_WASM_DIR")).join(format!("{}.wasm", name.replace('-', "_")))
}
