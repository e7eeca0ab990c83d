//! Compiled components. A built-in component's compiled form is the one
//! built into `tama`, never a file. A registry's component is compiled once
//! per machine into the cache folder, and a later process maps the compiled
//! artifact only when its tag proves it is the compilation of the component
//! with this digest under this engine configuration: the cache folder is
//! within reach of the agent Tama polices, so what it holds is input.

use std::fs::OpenOptions;
use std::hash::{Hash, Hasher};
use std::io::Read;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use wasmtime::Engine;
use wasmtime::component::Component;

use super::compiler::Compiler;
use crate::control_key::{ControlKey, KEY_LEN, Purpose};
use crate::registry::Builtin;

/// Largest artifact read from the cache: far beyond any gate's.
const ARTIFACT_BOUND: u64 = 256 << 20;

/// Where the compiled form of the component with digest `sha256` lives for
/// `compiling`, the engine that compiles it. The name holds that engine's
/// precompile compatibility hash, so artifacts compiled under other settings
/// (epochs, stack, CPU features, wasmtime version) live side by side.
pub fn artifact_path(cache_dir: &Path, compiling: &Engine, sha256: &str) -> PathBuf {
    cache_dir.join(format!("{sha256}-{:016x}.cwasm", compatibility(compiling)))
}

/// The component whose bytes are `bytes` (already checked against `sha256`):
/// a built-in one from the binary, else from the cache when an authentic
/// artifact is there, else compiled by `compiler` and stored there.
pub fn load(
    engine: &Engine,
    compiler: &Compiler,
    cache_dir: &Path,
    sha256: &str,
    bytes: &[u8],
) -> wasmtime::Result<Component> {
    match crate::registry::builtin_with_digest(sha256) {
        Some(builtin) => load_builtin(engine, compiler, builtin),
        None => load_cached(engine, compiler, cache_dir, sha256, bytes),
    }
}

/// The component whose bytes are `bytes`, compiled now, and its artifact.
fn compiled(
    engine: &Engine,
    compiler: &Compiler,
    bytes: &[u8],
) -> wasmtime::Result<(Component, Vec<u8>)> {
    let artifact = compiler.compile(bytes)?;
    // SAFETY: this process compiled the artifact just now, under the
    // engine's configuration, and holds it in its own memory.
    let component = unsafe { Component::deserialize(engine, &artifact) }?;
    Ok((component, artifact))
}

/// The build's compilation, or, when it does not fit this CPU or this
/// wasmtime, a compilation in memory of the component built into `tama`.
fn load_builtin(
    engine: &Engine,
    compiler: &Compiler,
    builtin: &Builtin,
) -> wasmtime::Result<Component> {
    match super::code_memory::deserialize_builtin(engine, builtin.compiled) {
        Ok(component) => Ok(component),
        Err(err) => {
            crate::log::write(
                "cache",
                &format!(
                    "built-in {}: its compiled form does not fit here ({err:#}): compiling it in memory",
                    builtin.name
                ),
            );
            Ok(compiled(engine, compiler, builtin.component)?.0)
        }
    }
}

fn load_cached(
    engine: &Engine,
    compiler: &Compiler,
    cache_dir: &Path,
    sha256: &str,
    bytes: &[u8],
) -> wasmtime::Result<Component> {
    let key = match prepare(cache_dir) {
        Ok(key) => key,
        Err(why) => {
            crate::log::write(
                "cache",
                &format!("compiling component {sha256} without the cache: {why}"),
            );
            return Ok(compiled(engine, compiler, bytes)?.0);
        }
    };
    let compiling = compiler.engine()?;
    let compat = compatibility(compiling).to_le_bytes();
    let path = artifact_path(cache_dir, compiling, sha256);
    match read_artifact(&path) {
        Ok(None) => {}
        Ok(Some(file)) => match authentic(&key, sha256, &compat, &file) {
            // SAFETY: the tag, made with the control key only Tama reads,
            // proves these bytes are this engine configuration's compilation
            // of the component with digest `sha256`; they were read into
            // Tama's own memory, so nothing can change them after the check.
            Some(artifact) => match unsafe { Component::deserialize(engine, artifact) } {
                Ok(component) => return Ok(component),
                Err(err) => crate::log::write(
                    "cache",
                    &format!(
                        "{} cannot be loaded ({err:#}): recompiling component {sha256}",
                        path.display()
                    ),
                ),
            },
            None => crate::log::write(
                "cache",
                &format!(
                    "{} is not the compilation of component {sha256} under this engine: its tag does not verify; recompiling it",
                    path.display()
                ),
            ),
        },
        Err(err) => crate::log::write(
            "cache",
            &format!(
                "reading {}: {err}: recompiling component {sha256}",
                path.display()
            ),
        ),
    }
    let (component, mut artifact) = compiled(engine, compiler, bytes)?;
    let tag = key.tag(Purpose::Artifact, &[sha256.as_bytes(), &compat, &artifact]);
    artifact.extend_from_slice(&tag);
    if let Err(err) = crate::files::write_whole(&path, &artifact) {
        crate::log::write("cache", &format!("cannot keep {}: {err}", path.display()));
    }
    Ok(component)
}

/// The cache folder, private to the user (0700), and the key that tags its artifacts.
fn prepare(cache_dir: &Path) -> Result<ControlKey, String> {
    crate::files::create_private_dir(cache_dir)
        .map_err(|e| format!("creating {}: {e}", cache_dir.display()))?;
    let mode = std::fs::metadata(cache_dir)
        .map_err(|e| format!("reading {}: {e}", cache_dir.display()))?
        .permissions()
        .mode();
    if mode & 0o077 != 0 {
        std::fs::set_permissions(cache_dir, std::fs::Permissions::from_mode(0o700)).map_err(
            |e| {
                format!(
                    "{} is open to others (mode {:o}) and cannot be made private: {e}",
                    cache_dir.display(),
                    mode & 0o777
                )
            },
        )?;
        crate::log::write(
            "cache",
            &format!(
                "{} was open to others (mode {:o}): made it 0700",
                cache_dir.display(),
                mode & 0o777
            ),
        );
    }
    ControlKey::read_or_create().map_err(|e| e.to_string())
}

/// The artifact's bytes when `file` ends with their tag, else `None`.
fn authentic<'f>(
    key: &ControlKey,
    sha256: &str,
    compat: &[u8],
    file: &'f [u8],
) -> Option<&'f [u8]> {
    let (artifact, tag) = file.split_at_checked(file.len().checked_sub(KEY_LEN)?)?;
    key.verifies(
        Purpose::Artifact,
        &[sha256.as_bytes(), compat, artifact],
        tag,
    )
    .then_some(artifact)
}

/// The whole file, never through a link; `None` when there is none.
fn read_artifact(path: &Path) -> std::io::Result<Option<Vec<u8>>> {
    let mut file = match OpenOptions::new()
        .read(true)
        .custom_flags(nix::libc::O_NOFOLLOW)
        .open(path)
    {
        Ok(file) => file,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(err) => return Err(err),
    };
    let mut bytes = Vec::new();
    file.by_ref().take(ARTIFACT_BOUND).read_to_end(&mut bytes)?;
    Ok(Some(bytes))
}

/// The engine's precompile compatibility hash, as one number.
fn compatibility(engine: &Engine) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    engine.precompile_compatibility_hash().hash(&mut hasher);
    hasher.finish()
}
