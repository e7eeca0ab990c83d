//! Builds every wasm component of the workspace for `wasm32-wasip2` and seals
//! the default registry that names the built-in gates, so the `tama` binary
//! carries both and works with no files of its own.

#[path = "src/registry/checksum.rs"]
mod checksum;

use std::path::{Path, PathBuf};
use std::process::Command;

/// Built-in components: embedded into `tama`, named by the default registry.
const BUILTIN: &[&str] = &["tool-declaration", "protect-tama", "block-git-hook-bypass", "block-supervisor-stop", "block-text-outside-tool-calls"];
/// Built for the tests and for authors, never embedded.
const EXTRA: &[&str] = &["gate-template"];
/// Components built without `std`. Cargo unifies a dependency's features
/// across one build, and the others would switch `std` back on in the
/// dependencies these share with them, so these are built on their own.
const NO_STD: &[&str] = &["block-git-hook-bypass", "protect-tama"];
const WASM_TARGET: &str = "wasm32-wasip2";
/// Bytes of shadow stack each built component gets in its linear memory.
const GUEST_STACK: u32 = 256 << 10;
/// Bytes of heap in each built component's initial linear memory: enough
/// for most calls, which then never grow the memory (a growth costs the
/// host system calls, on every call).
const GUEST_HEAP: u32 = 256 << 10;

fn main() {
    let engine_dir = PathBuf::from(env("CARGO_MANIFEST_DIR"));
    let root = engine_dir.parent().expect("the engine sits in the workspace").to_path_buf();
    for watched in ["wit", "plugins", "examples/gate-template/src", "examples/gate-template/Cargo.toml", "Cargo.lock"] {
        println!("cargo:rerun-if-changed={}", root.join(watched).display());
    }
    println!("cargo:rerun-if-changed=default-registry.json");

    let target_dir = std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| root.join("target"));
    let wasm_target_dir = target_dir.join("wasm");
    let packages: Vec<String> = BUILTIN.iter().chain(EXTRA).map(|p| p.to_string()).collect();
    let (no_std, with_std): (Vec<String>, Vec<String>) = packages.into_iter().partition(|p| NO_STD.contains(&p.as_str()));
    build_components(&root, &wasm_target_dir, &no_std);
    build_components(&root, &wasm_target_dir, &with_std);

    let wasm_dir = wasm_target_dir.join(WASM_TARGET).join("release");
    println!("cargo:rustc-env=TAMA_WASM_DIR={}", wasm_dir.display());
    let declaration = std::fs::read(wasm_dir.join("tool_declaration.wasm")).expect("the tool declaration was built");
    println!("cargo:rustc-env=TAMA_TOOL_DECLARATION_SHA256={}", checksum::sha256_hex(&declaration));
    seal_default_registry(&engine_dir, &wasm_dir);
}

fn build_components(root: &Path, target_dir: &Path, packages: &[String]) {
    let mut cargo = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cargo.current_dir(root).args(["build", "--release", "--target", WASM_TARGET, "--target-dir"]).arg(target_dir);
    for package in packages {
        cargo.args(["-p", package]);
    }
    // The outer build's flags and wrappers are for the host, not for wasm.
    for var in ["RUSTFLAGS", "CARGO_ENCODED_RUSTFLAGS", "CARGO_BUILD_RUSTFLAGS", "RUSTC_WORKSPACE_WRAPPER", "RUSTC_WRAPPER", "CARGO_TARGET_DIR", "CARGO_BUILD_TARGET"] {
        cargo.env_remove(var);
    }
    // A small stack leaves the heap near the start of linear memory, which
    // the host keeps resident between calls (see the wasm host's pool).
    cargo.env(
        "CARGO_TARGET_WASM32_WASIP2_RUSTFLAGS",
        format!("-C link-arg=-zstack-size={GUEST_STACK} -C link-arg=--initial-heap={GUEST_HEAP}"),
    );
    let status = cargo.status().expect("cargo can be started");
    if !status.success() {
        panic!("building the wasm components failed; is the target installed? run: rustup target add {WASM_TARGET}");
    }
}

/// Fills in each built-in component's digest, then the checksum.
fn seal_default_registry(engine_dir: &Path, wasm_dir: &Path) {
    let text = std::fs::read_to_string(engine_dir.join("default-registry.json")).expect("default-registry.json is readable");
    let mut registry: serde_json::Value = serde_json::from_str(&text).expect("default-registry.json is JSON");
    registry["releaseId"] = format!("tama-{}", env("CARGO_PKG_VERSION")).into();
    for event in registry["events"].as_object_mut().expect("events is an object").values_mut() {
        for hook in event["hooks"].as_array_mut().expect("hooks is a list") {
            if hook["type"] == "wasm" {
                let file = hook["component"].as_str().expect("a wasm hook names its component").replace('-', "_");
                let bytes = std::fs::read(wasm_dir.join(&file)).unwrap_or_else(|e| panic!("reading built component {file}: {e}"));
                hook["sha256"] = checksum::sha256_hex(&bytes).into();
            }
        }
    }
    checksum::seal(&mut registry);
    let out = PathBuf::from(env("OUT_DIR")).join("default-registry.json");
    std::fs::write(out, serde_json::to_string_pretty(&registry).expect("JSON serializes")).expect("OUT_DIR is writable");
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("cargo sets {name}"))
}
