//! The benchmark floor: the least a hook can do. Reads the payload to EOF,
//! prints a fixed decision and exits 2.
//!
//! Built static, as `tama` is (`.cargo/config.toml`), so no dynamic loader
//! runs at start: `cargo build --release -p tama-floor`.

use std::io::Write;

fn main() {
    let _ = std::io::copy(&mut std::io::stdin().lock(), &mut std::io::sink());
    let _ = std::io::stdout()
        .lock()
        .write_all(b"{\"decision\":\"block\",\"reason\":\"floor\"}\n");
    std::process::exit(2);
}
