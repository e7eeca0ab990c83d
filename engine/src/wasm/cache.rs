//! Compiled components on disk, so a component is compiled once per machine
//! and every later process only maps the compiled artifact.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use wasmtime::Engine;
use wasmtime::component::Component;

/// Where the compiled form of the component with digest `sha256` lives for
/// `engine`. The key holds the engine's precompile compatibility hash, so an
/// artifact compiled under other settings (epochs, stack, wasmtime version) is
/// never offered to this engine.
pub fn artifact_path(cache_dir: &Path, engine: &Engine, sha256: &str) -> PathBuf {
    let mut hasher = std::hash::DefaultHasher::new();
    engine.precompile_compatibility_hash().hash(&mut hasher);
    cache_dir.join(format!("{sha256}-{:016x}.cwasm", hasher.finish()))
}

/// The component whose bytes are `bytes` (already checked against `sha256`),
/// from the cache when it holds it, else compiled and stored there.
pub fn load(engine: &Engine, cache_dir: &Path, sha256: &str, bytes: &[u8]) -> wasmtime::Result<Component> {
    let path = artifact_path(cache_dir, engine, sha256);
    if path.is_file() {
        // SAFETY: the artifact is one this engine serialized into the user's
        // own cache folder under a key that includes the engine's
        // compatibility hash; wasmtime still validates its header. Whoever
        // can write that folder can already run code as the user.
        match unsafe { Component::deserialize_file(engine, &path) } {
            Ok(component) => return Ok(component),
            Err(err) => crate::log::write("cache", &format!("recompiling {}: {err:#}", path.display())),
        }
    }
    let component = Component::new(engine, bytes)?;
    if let Err(err) = crate::files::write_whole(&path, &component.serialize()?) {
        crate::log::write("cache", &format!("cannot keep {}: {err}", path.display()));
    }
    Ok(component)
}
