//! Host bindings generated from `wit/gate.wit`, the one contract between Tama
//! and its components.

/// The `gate` world: what Tama calls and what a gate may call back.
pub mod gate {
    wasmtime::component::bindgen!({
        path: "../wit",
        world: "gate",
        // A host import may trap the gate, e.g. when the tool declaration it
        // asks on its behalf fails: the gate then errs instead of deciding.
        imports: { default: trappable },
    });
}

/// The `tool-declaration` world.
pub mod declaration {
    wasmtime::component::bindgen!({
        path: "../wit",
        world: "tool-declaration",
    });
}
