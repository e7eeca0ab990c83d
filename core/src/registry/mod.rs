//! The hook registry: which hooks run for which event, sealed by a checksum.

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

pub mod checksum;
mod component;
mod embedded;
mod strict;
mod types;

use std::path::{Path, PathBuf};

use serde_json::Value;

pub use component::ComponentBytes;
pub use embedded::{Builtin, builtin_with_digest, embedded_component, tool_declaration};
pub use types::{
    AgentHook, Catalog, EventHooks, HookEntry, HookKind, HookRun, Registry, WasmHook, schema,
};

/// Where a registry came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// The registry built into `tama`.
    Embedded,
    File(PathBuf),
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::Embedded => f.write_str("<embedded default registry>"),
            Origin::File(path) => write!(f, "{}", path.display()),
        }
    }
}

/// Why a registry was refused. Each names the registry and the operation.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    #[error("reading hook registry {origin}: {cause}")]
    Read {
        origin: Origin,
        cause: std::io::Error,
    },
    #[error("parsing hook registry {origin}: {cause}")]
    Parse {
        origin: Origin,
        cause: serde_json::Error,
    },
    #[error(
        "hook registry {origin} has no catalogChecksum: seal it with `tama registry seal {origin}`"
    )]
    Unsealed { origin: Origin },
    #[error("hook registry {origin} checksum mismatch: expected {declared}, actual {actual}")]
    Checksum {
        origin: Origin,
        declared: String,
        actual: String,
    },
    #[error("hook registry {origin} has the wrong shape: {cause}")]
    Shape { origin: Origin, cause: String },
    #[error("hook registry {origin}: {cause}")]
    DuplicateKey { origin: Origin, cause: String },
    #[error("hook registry {origin}: hook {id}: reading component {path}: {cause}")]
    Component {
        origin: Origin,
        id: String,
        path: String,
        cause: String,
    },
}

/// A registry that passed every check.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub origin: Origin,
    pub registry: Registry,
    /// The registry as JSON, as it was read.
    pub raw: Value,
}

impl Loaded {
    /// The default registry built into `tama`. The build sealed it (and a
    /// test checks the seal), and it can change only with the binary that
    /// would check it, so it is read without checking its keys and
    /// checksum again: that is a tenth of a one-event run.
    pub fn embedded() -> Result<Loaded, RegistryError> {
        let origin = Origin::Embedded;
        let raw: Value =
            serde_json::from_str(embedded::REGISTRY).map_err(|cause| RegistryError::Parse {
                origin: origin.clone(),
                cause,
            })?;
        shaped(origin, raw)
    }

    pub fn from_file(path: &Path) -> Result<Loaded, RegistryError> {
        let origin = Origin::File(path.to_path_buf());
        let text =
            crate::files::read_regular_to_string(path).map_err(|cause| RegistryError::Read {
                origin: origin.clone(),
                cause,
            })?;
        parse(origin, &text)
    }

    /// The registry a command should use: `explicit` (from `--registry`),
    /// else `TAMA_REGISTRY`, else `~/.shared-hooks/registry.json` when it
    /// exists, else the embedded default.
    pub fn select(explicit: Option<&Path>) -> Result<Loaded, RegistryError> {
        match Loaded::source(explicit) {
            Some(path) => Loaded::from_file(&path),
            None => Loaded::embedded(),
        }
    }

    /// The file [`Loaded::select`] reads; `None` for the embedded default.
    pub fn source(explicit: Option<&Path>) -> Option<PathBuf> {
        let from_env = std::env::var_os("TAMA_REGISTRY")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from);
        explicit.map(Path::to_path_buf).or(from_env).or_else(|| {
            let installed = crate::paths::home().join(".shared-hooks/registry.json");
            installed.is_file().then_some(installed)
        })
    }

    /// The component a wasm hook runs: the one built into `tama` when the
    /// digest the registry declares is a built-in's (the very bytes the
    /// file must hold, so it is not read), else [`Loaded::component`].
    pub fn gate_component(&self, hook: &HookEntry) -> Result<ComponentBytes, RegistryError> {
        if let Some(wasm) = hook.wasm()
            && component::relative(&wasm.component).is_ok()
            && let Some(builtin) = builtin_with_digest(&wasm.sha256)
        {
            return Ok(ComponentBytes::embedded(builtin.component, builtin.sha256));
        }
        self.component(hook)
    }

    /// The component of a wasm hook, its digest checked; for a registry
    /// file, a file inside the registry's folder.
    pub fn component(&self, hook: &HookEntry) -> Result<ComponentBytes, RegistryError> {
        let Some(wasm) = hook.wasm() else {
            return Err(RegistryError::Shape {
                origin: self.origin.clone(),
                cause: format!("hook {} is a command, not a wasm gate", hook.id),
            });
        };
        let failed = |cause: String| RegistryError::Component {
            origin: self.origin.clone(),
            id: hook.id.clone(),
            path: wasm.component.clone(),
            cause,
        };
        match &self.origin {
            Origin::Embedded => embedded_component(&wasm.component, &wasm.sha256)
                .ok_or_else(|| failed("not built into tama".into())),
            Origin::File(path) => {
                let folder = match path.parent() {
                    Some(folder) if !folder.as_os_str().is_empty() => folder,
                    _ => Path::new("."),
                };
                let file = component::inside(folder, &wasm.component).map_err(failed)?;
                let bytes = crate::files::read_regular(&file)
                    .map_err(|e| failed(format!("{}: {e}", file.display())))?;
                ComponentBytes::checked(bytes, &wasm.sha256).map_err(failed)
            }
        }
    }
}

/// The registry file at `path` as JSON, before any seal is checked: for
/// `tama registry seal`. Refused when it is not JSON or names a key twice.
pub fn read_unsealed(path: &Path) -> Result<Value, RegistryError> {
    let origin = Origin::File(path.to_path_buf());
    let text = crate::files::read_regular_to_string(path).map_err(|cause| RegistryError::Read {
        origin: origin.clone(),
        cause,
    })?;
    strict_json(&origin, &text)
}

/// `text` as JSON whose objects each name a key once.
fn strict_json(origin: &Origin, text: &str) -> Result<Value, RegistryError> {
    let raw: Value = serde_json::from_str(text).map_err(|cause| RegistryError::Parse {
        origin: origin.clone(),
        cause,
    })?;
    match strict::duplicate_key(text) {
        Some(cause) => Err(RegistryError::DuplicateKey {
            origin: origin.clone(),
            cause,
        }),
        None => Ok(raw),
    }
}

fn parse(origin: Origin, text: &str) -> Result<Loaded, RegistryError> {
    let raw = strict_json(&origin, text)?;
    let declared = match raw.get(checksum::CHECKSUM_KEY) {
        Some(Value::String(declared)) => declared.clone(),
        Some(_) => {
            return Err(RegistryError::Shape {
                origin,
                cause: "catalogChecksum is not a string".into(),
            });
        }
        None => return Err(RegistryError::Unsealed { origin }),
    };
    let actual = checksum::catalog_checksum(&raw);
    if declared != actual {
        return Err(RegistryError::Checksum {
            origin,
            declared,
            actual,
        });
    }
    shaped(origin, raw)
}

/// The registry `raw` holds, once its shape is checked.
fn shaped(origin: Origin, raw: Value) -> Result<Loaded, RegistryError> {
    let registry: Registry =
        serde_path_to_error::deserialize(&raw).map_err(|e| RegistryError::Shape {
            origin: origin.clone(),
            cause: format!("{}: {}", strict::place(e.path()), e.inner()),
        })?;
    registry.validate().map_err(|cause| RegistryError::Shape {
        origin: origin.clone(),
        cause,
    })?;
    Ok(Loaded {
        origin,
        registry,
        raw,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_registry_passes_every_check_a_registry_file_gets() {
        let checked = parse(Origin::Embedded, embedded::REGISTRY);
        assert!(checked.is_ok(), "{:?}", checked.err());
        let trusted = Loaded::embedded();
        assert!(trusted.is_ok(), "{:?}", trusted.err());
    }
}
