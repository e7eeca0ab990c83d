//! The linkers components are instantiated through: one without WASI, and
//! the same with WASI, made the first time a component that imports WASI is
//! loaded. Adding WASI's functions to a linker costs a one-event run about
//! a sixth of its time, and Tama's own components import none of them.

use std::sync::OnceLock;

use wasmtime::Engine;
use wasmtime::component::{Component, Linker};
use wasmtime_wasi::WasiView;

use super::sandbox;

pub struct Linkers<T: 'static> {
    without_wasi: Linker<T>,
    with_wasi: OnceLock<Result<Linker<T>, String>>,
}

impl<T: WasiView + 'static> Linkers<T> {
    /// `without_wasi`, and the same with WASI when a component needs it.
    pub fn new(without_wasi: Linker<T>) -> Self {
        Linkers {
            without_wasi,
            with_wasi: OnceLock::new(),
        }
    }

    /// The linker that provides what `component` imports.
    pub fn for_component(
        &self,
        engine: &Engine,
        component: &Component,
    ) -> wasmtime::Result<&Linker<T>> {
        let imports_wasi = component
            .component_type()
            .imports(engine)
            .any(|(name, _)| name.starts_with("wasi:"));
        if !imports_wasi {
            return Ok(&self.without_wasi);
        }
        self.with_wasi
            .get_or_init(|| {
                let mut linker = self.without_wasi.clone();
                wasmtime_wasi::p2::add_to_linker_sync(&mut linker)
                    .and_then(|()| sandbox::deny_clock_waits(&mut linker))
                    .map(|()| linker)
                    .map_err(|e| format!("{e:#}"))
            })
            .as_ref()
            .map_err(|why| wasmtime::format_err!("WASI cannot be linked: {why}"))
    }
}
