//! Links `tama` as a position-dependent executable on Linux.
//!
//! A position-independent one has every pointer in its read-only data
//! relocated by the dynamic loader at each start: some 31,000 relocations
//! over 100 pages, a tenth of a one-event run. `tama` starts on every tool
//! call, so it is linked at a fixed address instead, which leaves the
//! loader nothing to relocate. Its libraries, stack, heap and the gates'
//! memories are still placed at random.

fn main() {
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo::rustc-link-arg-bins=-no-pie");
    }
}
