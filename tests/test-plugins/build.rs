//! Builds every test plugin in `tests/plugins/<name>` (package
//! `hostile-<name>`) for `wasm32-wasip2`, into its own target folder, with the
//! same guest memory layout the engine's build gives the built-in gates.

use std::path::{Path, PathBuf};
use std::process::Command;

const WASM_TARGET: &str = "wasm32-wasip2";
/// As in the engine's build: the hostile plugins probe the same bounds.
const GUEST_STACK: u32 = 256 << 10;
const GUEST_HEAP: u32 = 256 << 10;

fn main() {
    let manifest_dir = PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"),
    );
    let root = manifest_dir.join("../..");
    let plugins = root.join("tests/plugins");
    for watched in [plugins.clone(), root.join("wit"), root.join("Cargo.lock")] {
        println!("cargo:rerun-if-changed={}", watched.display());
    }

    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    let wasm_target_dir = target_dir.join("wasm-test");
    build(&root, &wasm_target_dir, &packages(&plugins));
    let wasm_dir = wasm_target_dir.join(WASM_TARGET).join("release");
    println!(
        "cargo:rustc-env=TEST_PLUGINS_WASM_DIR={}",
        wasm_dir.display()
    );
}

fn packages(plugins: &Path) -> Vec<String> {
    let entries = std::fs::read_dir(plugins).expect("tests/plugins is readable");
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("Cargo.toml").is_file())
        .map(|e| format!("hostile-{}", e.file_name().to_string_lossy()))
        .collect();
    names.sort();
    names
}

fn build(root: &Path, target_dir: &Path, packages: &[String]) {
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
    cargo.env(
        "CARGO_TARGET_WASM32_WASIP2_RUSTFLAGS",
        format!("-C link-arg=-zstack-size={GUEST_STACK} -C link-arg=--initial-heap={GUEST_HEAP}"),
    );
    let status = cargo.status().expect("cargo can be started");
    if !status.success() {
        panic!(
            "building the test plugins failed; is the target installed? run: rustup target add {WASM_TARGET}"
        );
    }
}
