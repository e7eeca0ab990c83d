//! Building workspace crates into wasm components for `wasm32-wasip2`: the
//! nested `cargo build` and the guest memory layout every built component
//! gets. The core's build script (the built-in gates) and the test plugins'
//! (the hostile plugins, which probe the same bounds) both include this file.

use std::path::Path;
use std::process::Command;

pub const WASM_TARGET: &str = "wasm32-wasip2";
/// Bytes of shadow stack each built component gets in its linear memory.
const GUEST_STACK: u32 = 256 << 10;
/// Bytes of heap in each built component's initial linear memory: enough
/// for most calls, which then never grow the memory (a growth costs the
/// host system calls, on every call).
const GUEST_HEAP: u32 = 256 << 10;

/// Builds `packages` of the workspace at `root` in release for
/// [`WASM_TARGET`] into `target_dir`; a failure fails the build, naming `what`.
pub fn build_components(root: &Path, target_dir: &Path, packages: &[String], what: &str) {
    let mut cargo = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cargo
        .current_dir(root)
        .args([
            "build",
            "--release",
            "--target",
            WASM_TARGET,
            "--target-dir",
        ])
        .arg(target_dir);
    for package in packages {
        cargo.args(["-p", package]);
    }
    // The outer build's flags and wrappers are for the host, not for wasm.
    for var in [
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_BUILD_RUSTFLAGS",
        "RUSTC_WORKSPACE_WRAPPER",
        "RUSTC_WRAPPER",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET",
    ] {
        cargo.env_remove(var);
    }
    // A small stack leaves the heap near the start of linear memory, which
    // the host keeps resident between calls (see the wasm host's pool).
    cargo.env(
        "CARGO_TARGET_WASM32_WASIP2_RUSTFLAGS",
        format!("-C link-arg=-zstack-size={GUEST_STACK} -C link-arg=--initial-heap={GUEST_HEAP}"),
    );
    // A gate runs on every tool call: whole-program optimisation makes the
    // built-in gates' dispatch about 5% faster, for seconds more of build.
    cargo.env("CARGO_PROFILE_RELEASE_LTO", "fat");
    cargo.env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "1");
    let status = cargo.status().expect("cargo can be started");
    if !status.success() {
        panic!(
            "building {what} failed; is the target installed? run: rustup target add {WASM_TARGET}"
        );
    }
}
