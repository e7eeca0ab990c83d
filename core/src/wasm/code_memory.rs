//! Built-in components' compiled code runs where it lies in the `tama`
//! binary. Wasmtime would otherwise copy each megabyte of it into fresh
//! memory on every start, and a process that decides one event spent a
//! fifth of its time faulting in those copies.
//!
//! Wasmtime maps memory it does not own only through a code-memory hook of
//! the embedder's; this one makes the code's pages read+execute with
//! `mprotect`, as wasmtime's own publishing does. It is set up on x86_64 only,
//! where instruction fetches see stored bytes without a cache flush (other
//! architectures would need one) and pages are always 4 KiB; elsewhere the
//! code is copied as wasmtime does by default.

use std::ffi::c_void;
use std::ptr::NonNull;
use std::sync::{Arc, Mutex};

use nix::sys::mman::{ProtFlags, mprotect};
use wasmtime::component::Component;
use wasmtime::{Config, CustomCodeMemory, Engine};

/// The page size of x86_64 Linux, and the alignment the build gives each
/// built-in component's compiled form in the binary.
pub const PAGE: usize = 4096;

/// Makes `config` publish compiled code with [`Mprotect`].
pub fn install(config: &mut Config) {
    if cfg!(target_arch = "x86_64") {
        config.with_custom_code_memory(Some(Arc::new(Mprotect)));
    }
}

/// Built-in components mapped in place, each with the engine it was mapped
/// for. Wasmtime registers running code by address, once per process, so
/// each built-in is mapped in place once: for the first engine that asks,
/// which later asks get it again from here, and kept for the process's life.
static IN_PLACE: Mutex<Vec<(usize, Component)>> = Mutex::new(Vec::new());

/// The component compiled into `compiled`, part of the binary itself:
/// mapped where it lies when it starts on a page and is not mapped there
/// for another engine already, else copied.
pub fn deserialize_builtin(
    engine: &Engine,
    compiled: &'static [u8],
) -> wasmtime::Result<Component> {
    let address = compiled.as_ptr().addr();
    if cfg!(target_arch = "x86_64") && address.is_multiple_of(PAGE) {
        let mut in_place = IN_PLACE
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        match in_place.iter().find(|(at, _)| *at == address) {
            Some((_, component)) if Engine::same(component.engine(), engine) => {
                return Ok(component.clone());
            }
            Some(_) => {}
            None => {
                // SAFETY: `compiled` is the build's compilation of this
                // component under this engine configuration (wasmtime checks
                // it fits the engine and the CPU); it lives as long as the
                // process and nothing writes to it, as it lies in the
                // binary's read-only data; and it is mapped here only once.
                let component =
                    unsafe { Component::deserialize_raw(engine, NonNull::from(compiled)) }?;
                in_place.push((address, component.clone()));
                return Ok(component);
            }
        }
    }
    // SAFETY: as above; wasmtime maps a copy of the bytes.
    unsafe { Component::deserialize(engine, compiled) }
}

/// Publishes compiled code by changing its pages' protection in place.
struct Mprotect;

impl Mprotect {
    fn protect(ptr: *const u8, len: usize, prot: ProtFlags) -> wasmtime::Result<()> {
        let Some(addr) = NonNull::new(ptr.cast_mut().cast::<c_void>()) else {
            return Ok(());
        };
        // SAFETY: wasmtime hands over the page-aligned text of code memory
        // it has finished writing (or never writes), which no thread runs
        // while its protection changes.
        unsafe { mprotect(addr, len, prot) }.map_err(|errno| {
            wasmtime::format_err!("changing the protection of compiled code: {errno}")
        })
    }
}

impl CustomCodeMemory for Mprotect {
    fn required_alignment(&self) -> usize {
        PAGE
    }

    fn publish_executable(&self, ptr: *const u8, len: usize) -> wasmtime::Result<()> {
        Mprotect::protect(ptr, len, ProtFlags::PROT_READ | ProtFlags::PROT_EXEC)
    }

    fn unpublish_executable(&self, ptr: *const u8, len: usize) -> wasmtime::Result<()> {
        Mprotect::protect(ptr, len, ProtFlags::PROT_READ)
    }
}
