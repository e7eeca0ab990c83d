//! The generations a serving engine dispatches against, and the state every
//! answer reports.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use serde_json::{Value, json};

use crate::clock::now_ms;
use crate::dispatch::{Dispatcher, SharedHost};
use crate::oko::OkoState;
use crate::registry::{Loaded, RegistryError};
use super::lock;

/// One loaded registry and its gates.
pub struct Generation {
    pub number: u64,
    pub dispatcher: Dispatcher,
    /// The registry's bytes as read, to tell a changed file from an unchanged one cheaply.
    bytes: Option<Vec<u8>>,
}

impl Generation {
    pub fn registry(&self) -> &Loaded {
        self.dispatcher.registry()
    }
}

/// Reload bookkeeping, read by every answer.
#[derive(Default)]
struct Reloads {
    count: u64,
    last_at_ms: Option<u64>,
    last_error: Option<String>,
    replaced_by_release: bool,
}

pub struct Runtime {
    source: Option<PathBuf>,
    current: RwLock<Arc<Generation>>,
    reloads: Mutex<Reloads>,
    core_release: Option<String>,
    generations: AtomicU64,
    host: SharedHost,
    /// Held while the registry is re-read, so generations are adopted one at a time.
    pub lock: Mutex<()>,
}

/// What a refresh found.
pub enum Refresh {
    Unchanged(Arc<Generation>),
    Adopted(Arc<Generation>),
}

impl Runtime {
    /// Loads the first generation from `source` (a file), or the embedded default.
    pub fn start(source: Option<PathBuf>) -> Result<Runtime, RegistryError> {
        let (loaded, bytes) = read(source.as_ref())?;
        let core_release = loaded.registry.release_id.clone();
        let host = SharedHost::default();
        Ok(Runtime {
            current: RwLock::new(Arc::new(Generation { number: 1, dispatcher: dispatcher(loaded, &host), bytes })),
            host,
            source,
            reloads: Mutex::new(Reloads::default()),
            core_release,
            generations: AtomicU64::new(1),
            lock: Mutex::new(()),
        })
    }

    pub fn current(&self) -> Arc<Generation> {
        self.current.read().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Re-reads the registry; a valid changed one becomes the current
    /// generation, an invalid one leaves the current one and is the error.
    /// The caller holds [`Runtime::lock`].
    pub fn refresh(&self) -> Result<Refresh, String> {
        let current = self.current();
        let Some(path) = &self.source else { return Ok(Refresh::Unchanged(current)) };
        let bytes = std::fs::read(path).ok();
        if bytes.is_some() && bytes == current.bytes {
            return Ok(Refresh::Unchanged(current));
        }
        let mut reloads = lock(&self.reloads);
        reloads.last_at_ms = Some(now_ms());
        match read(self.source.as_ref()) {
            Err(err) => {
                reloads.last_error = Some(err.to_string());
                Err(err.to_string())
            }
            Ok((loaded, bytes)) => {
                reloads.last_error = None;
                if loaded.registry.catalog_checksum == current.registry().registry.catalog_checksum {
                    return Ok(Refresh::Unchanged(current));
                }
                reloads.count += 1;
                if loaded.registry.release_id != self.core_release {
                    reloads.replaced_by_release = true;
                }
                let number = self.generations.fetch_add(1, Ordering::SeqCst) + 1;
                let next = Arc::new(Generation { number, dispatcher: dispatcher(loaded, &self.host), bytes });
                *self.current.write().unwrap_or_else(PoisonError::into_inner) = next.clone();
                Ok(Refresh::Adopted(next))
            }
        }
    }

    /// The state every answer carries.
    pub fn state(&self) -> Value {
        let current = self.current();
        let registry = &current.registry().registry;
        let reloads = lock(&self.reloads);
        json!({
            "processId": std::process::id(),
            "generation": current.number,
            "loadedReleaseId": registry.release_id,
            "catalogChecksum": registry.catalog_checksum,
            "registeredHookCount": registry.hook_ids().len(),
            "reloadCount": reloads.count,
            "lastReloadAtMs": reloads.last_at_ms,
            "lastReloadError": reloads.last_error,
            "coreReleaseId": self.core_release,
            "coreReplacedByRelease": reloads.replaced_by_release,
        })
    }
}

fn read(source: Option<&PathBuf>) -> Result<(Loaded, Option<Vec<u8>>), RegistryError> {
    match source {
        None => Ok((Loaded::embedded()?, None)),
        Some(path) => {
            let loaded = Loaded::from_file(path)?;
            Ok((loaded, std::fs::read(path).ok()))
        }
    }
}

fn dispatcher(loaded: Loaded, host: &SharedHost) -> Dispatcher {
    Dispatcher::with_host(loaded, Arc::new(OkoState::from_env()), host.clone())
}

