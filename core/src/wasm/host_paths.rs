//! The paths Tama runs on, handed to gates through `tama:gate/host-paths` so
//! that a gate guarding them needs no environment of its own.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::bindings::gate::tama::gate::host_paths::Paths as WitPaths;

use crate::registry::{Loaded, Origin};

/// Where Tama keeps what it runs on, as every command that runs gates sees it.
#[derive(Debug, Clone, Default)]
pub struct HostPaths {
    pub home: PathBuf,
    pub tama_home: PathBuf,
    pub registry: Option<PathBuf>,
    pub registry_components: Vec<PathBuf>,
    pub cache_dir: PathBuf,
    pub tama_binary: PathBuf,
    pub oko_home: PathBuf,
}

impl HostPaths {
    /// The paths of this process, with the registry `TAMA_REGISTRY` or
    /// `~/.shared-hooks` would select, and compiled components in `cache_dir`.
    pub fn from_env(cache_dir: &Path) -> Self {
        HostPaths {
            home: crate::paths::home(),
            tama_home: crate::paths::tama_home(),
            registry: Loaded::source(None),
            registry_components: Vec::new(),
            cache_dir: cache_dir.to_path_buf(),
            tama_binary: crate::paths::this_tama().unwrap_or_default(),
            oko_home: crate::paths::oko_home(),
        }
    }

    /// These paths with `registry` as the registry in use.
    pub fn in_use(&self, registry: &Loaded) -> Self {
        let mut paths = self.clone();
        match &registry.origin {
            Origin::Embedded => {
                paths.registry = None;
                paths.registry_components = Vec::new();
            }
            Origin::File(file) => {
                let folder = file.parent().unwrap_or(Path::new("."));
                paths.registry_components = registry
                    .registry
                    .events
                    .values()
                    .flat_map(|event| &event.hooks)
                    .filter_map(|hook| hook.wasm())
                    .map(|wasm| folder.join(&wasm.component))
                    .collect();
                paths.registry = Some(file.clone());
            }
        }
        paths
    }

    fn to_wit(&self) -> WitPaths {
        let text = |path: &Path| absolute(path).to_string_lossy().into_owned();
        WitPaths {
            home: text(&self.home),
            tama_home: text(&self.tama_home),
            registry: self.registry.as_deref().map(text),
            registry_components: self.registry_components.iter().map(|p| text(p)).collect(),
            cache_dir: text(&self.cache_dir),
            tama_binary: if self.tama_binary.as_os_str().is_empty() {
                String::new()
            } else {
                text(&self.tama_binary)
            },
            oko_home: text(&self.oko_home),
        }
    }
}

/// [`HostPaths`] as a gate is handed them, made absolute once: resolving
/// them asks the kernel for the working folder, on every call otherwise.
pub(super) struct Handed {
    paths: HostPaths,
    wit: OnceLock<WitPaths>,
}

impl Handed {
    pub fn new(paths: HostPaths) -> Self {
        Handed {
            paths,
            wit: OnceLock::new(),
        }
    }

    pub fn paths(&self) -> &HostPaths {
        &self.paths
    }

    pub fn to_wit(&self) -> WitPaths {
        self.wit.get_or_init(|| self.paths.to_wit()).clone()
    }
}

/// `path` made absolute against the working folder, as a gate can resolve
/// nothing itself.
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}
