//! The hook registry: which hooks run for which event, sealed by a checksum.

pub mod checksum;
mod embedded;
mod types;

use std::path::{Path, PathBuf};

use serde_json::Value;

pub use embedded::{Builtin, builtin_with_digest, embedded_component, tool_declaration};
pub use types::{EventHooks, HookEntry, HookKind, Registry, schema};

use crate::wasm::ComponentBytes;

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
    Read { origin: Origin, cause: std::io::Error },
    #[error("parsing hook registry {origin}: {cause}")]
    Parse { origin: Origin, cause: serde_json::Error },
    #[error("hook registry {origin} has no catalogChecksum: seal it with `tama registry seal {origin}`")]
    Unsealed { origin: Origin },
    #[error("hook registry {origin} checksum mismatch: expected {declared}, actual {actual}")]
    Checksum { origin: Origin, declared: String, actual: String },
    #[error("hook registry {origin} has the wrong shape: {cause}")]
    Shape { origin: Origin, cause: String },
    #[error("hook registry {origin}: hook {id}: reading component {path}: {cause}")]
    Component { origin: Origin, id: String, path: String, cause: String },
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
    /// The registry built into `tama`.
    pub fn embedded() -> Result<Loaded, RegistryError> {
        parse(Origin::Embedded, embedded::REGISTRY)
    }

    pub fn from_file(path: &Path) -> Result<Loaded, RegistryError> {
        let origin = Origin::File(path.to_path_buf());
        let text = std::fs::read_to_string(path).map_err(|cause| RegistryError::Read { origin: origin.clone(), cause })?;
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
        let from_env = std::env::var_os("TAMA_REGISTRY").filter(|v| !v.is_empty()).map(PathBuf::from);
        explicit.map(Path::to_path_buf).or(from_env).or_else(|| {
            let installed = crate::paths::home().join(".shared-hooks/registry.json");
            installed.is_file().then_some(installed)
        })
    }

    /// The component of a wasm hook, its digest checked.
    pub fn component(&self, hook: &HookEntry) -> Result<ComponentBytes, RegistryError> {
        let (name, sha256) = hook.wasm_component().map_err(|cause| self.shape(cause))?;
        let failed = |cause: String| RegistryError::Component {
            origin: self.origin.clone(),
            id: hook.id.clone(),
            path: name.to_string(),
            cause,
        };
        match &self.origin {
            Origin::Embedded => embedded_component(name, sha256).ok_or_else(|| failed("not built into tama".into())),
            Origin::File(path) => {
                let file = path.parent().unwrap_or(Path::new(".")).join(name);
                let bytes = std::fs::read(&file).map_err(|e| failed(format!("{}: {e}", file.display())))?;
                ComponentBytes::checked(bytes, sha256).map_err(failed)
            }
        }
    }

    fn shape(&self, cause: String) -> RegistryError {
        RegistryError::Shape { origin: self.origin.clone(), cause }
    }
}

fn parse(origin: Origin, text: &str) -> Result<Loaded, RegistryError> {
    let raw: Value = serde_json::from_str(text).map_err(|cause| RegistryError::Parse { origin: origin.clone(), cause })?;
    let declared = match raw.get(checksum::CHECKSUM_KEY) {
        Some(Value::String(declared)) => declared.clone(),
        Some(_) => return Err(RegistryError::Shape { origin, cause: "catalogChecksum is not a string".into() }),
        None => return Err(RegistryError::Unsealed { origin }),
    };
    let actual = checksum::catalog_checksum(&raw);
    if declared != actual {
        return Err(RegistryError::Checksum { origin, declared, actual });
    }
    let registry: Registry =
        serde_json::from_value(raw.clone()).map_err(|e| RegistryError::Shape { origin: origin.clone(), cause: e.to_string() })?;
    registry.validate().map_err(|cause| RegistryError::Shape { origin: origin.clone(), cause })?;
    Ok(Loaded { origin, registry, raw })
}
