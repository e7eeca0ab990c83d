//! Builds every test plugin in `tests/plugins/<name>` (package
//! `hostile-<name>`) for `wasm32-wasip2`, into its own target folder, with the
//! same guest memory layout the core's build gives the built-in gates. A
//! plugin no compiler could give its shape is written by hand in the component
//! text format, as `tests/plugins/<name>/component.wat`, and assembled into
//! the same folder.

#[path = "../../core/build_components.rs"]
mod build_components;

use std::path::{Path, PathBuf};

use build_components::{WASM_TARGET, build_components};

fn main() {
    let manifest_dir = PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"),
    );
    let root = manifest_dir.join("../..");
    let plugins = root.join("tests/plugins");
    for watched in [
        plugins.clone(),
        root.join("wit"),
        root.join("Cargo.lock"),
        root.join("core/build_components.rs"),
    ] {
        println!("cargo:rerun-if-changed={}", watched.display());
    }

    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    let wasm_target_dir = target_dir.join("wasm-test");
    build_components(
        &root,
        &wasm_target_dir,
        &packages(&plugins),
        "the test plugins",
    );
    let wasm_dir = wasm_target_dir.join(WASM_TARGET).join("release");
    assemble(&plugins, &wasm_dir);
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

/// Assembles each `tests/plugins/<name>/component.wat` into `hostile_<name>.wasm`.
fn assemble(plugins: &Path, wasm_dir: &Path) {
    let entries = std::fs::read_dir(plugins).expect("tests/plugins is readable");
    for entry in entries.filter_map(|e| e.ok()) {
        let source = entry.path().join("component.wat");
        if !source.is_file() {
            continue;
        }
        let bytes = wat::parse_file(&source)
            .unwrap_or_else(|e| panic!("{} does not assemble: {e}", source.display()));
        let name = format!(
            "hostile_{}.wasm",
            entry.file_name().to_string_lossy().replace('-', "_")
        );
        std::fs::write(wasm_dir.join(name), bytes).expect("the test plugins' folder is writable");
    }
}
