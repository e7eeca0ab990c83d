//! The generations a serving engine dispatches against, and the state every
//! answer reports.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use serde::Serialize;
use serde_json::Value;

use super::file_key::FileKey;
use super::lock;
use tama_core::clock::now_ms;
use tama_core::dispatch::{Dispatcher, SharedHost};
use tama_core::oko::OkoState;
use tama_core::registry::{Loaded, RegistryError};

/// One loaded registry and its gates.
pub struct Generation {
    pub number: u64,
    pub dispatcher: Dispatcher,
    /// Hooks the registry names, counted once for every answer.
    hook_count: usize,
}

impl Generation {
    fn new(number: u64, dispatcher: Dispatcher) -> Generation {
        let hook_count = dispatcher.registry().registry.hook_ids().len();
        Generation {
            number,
            dispatcher,
            hook_count,
        }
    }

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
    /// The key of the registry file the current generation was checked
    /// against, taken before it was read; `None` reads it again.
    checked: Mutex<Option<FileKey>>,
    /// Held while the registry is re-read, so generations are adopted one at a time.
    pub lock: Mutex<()>,
    /// Asked once: every answer carries it.
    process_id: u32,
}

/// The state every answer carries, serialized as it is, without a JSON tree
/// built first.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct State {
    process_id: u32,
    generation: u64,
    loaded_release_id: Option<String>,
    pub catalog_checksum: Option<String>,
    registered_hook_count: usize,
    reload_count: u64,
    last_reload_at_ms: Option<u64>,
    last_reload_error: Option<String>,
    core_release_id: Option<String>,
    core_replaced_by_release: bool,
    /// Hooks running now, when the server adds them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub running_hooks: Option<RunningHooks>,
}

/// The hooks a serving engine's dispatches run now, and the last abandonment of each session.
#[derive(Serialize)]
pub struct RunningHooks {
    pub dispatched: Vec<Value>,
    pub abandoned: Vec<Value>,
}

/// What a refresh found.
pub enum Refresh {
    Unchanged(Arc<Generation>),
    Adopted(Arc<Generation>),
}

impl Runtime {
    /// Loads the first generation from `source` (a file), or the embedded default.
    pub fn start(source: Option<PathBuf>) -> Result<Runtime, RegistryError> {
        let key = source.as_deref().and_then(FileKey::of);
        let loaded = read(source.as_ref())?;
        let core_release = loaded.registry.release_id.clone();
        let host = SharedHost::default();
        Ok(Runtime {
            current: RwLock::new(Arc::new(Generation::new(1, dispatcher(loaded, &host)))),
            checked: Mutex::new(key),
            host,
            source,
            reloads: Mutex::new(Reloads::default()),
            core_release,
            generations: AtomicU64::new(1),
            lock: Mutex::new(()),
            process_id: std::process::id(),
        })
    }

    pub fn current(&self) -> Arc<Generation> {
        self.current
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Re-reads the registry; a valid changed one becomes the current
    /// generation, an invalid one leaves the current one and is the error.
    /// The caller holds [`Runtime::lock`].
    pub fn refresh(&self) -> Result<Refresh, String> {
        let current = self.current();
        let Some(path) = &self.source else {
            return Ok(Refresh::Unchanged(current));
        };
        // Taken before the file is read: a change made while it is read
        // moves the key again, and the next refresh reads it.
        let key = FileKey::of(path);
        let mut checked = lock(&self.checked);
        if key.is_some() && key == *checked {
            return Ok(Refresh::Unchanged(current));
        }
        *checked = None;
        let mut reloads = lock(&self.reloads);
        reloads.last_at_ms = Some(now_ms());
        match read(self.source.as_ref()) {
            Err(err) => {
                reloads.last_error = Some(err.to_string());
                Err(err.to_string())
            }
            Ok(loaded) => {
                reloads.last_error = None;
                *checked = key;
                if loaded.registry.catalog_checksum == current.registry().registry.catalog_checksum
                {
                    return Ok(Refresh::Unchanged(current));
                }
                reloads.count += 1;
                if loaded.registry.release_id != self.core_release {
                    reloads.replaced_by_release = true;
                }
                let number = self.generations.fetch_add(1, Ordering::SeqCst) + 1;
                let next = Arc::new(Generation::new(number, dispatcher(loaded, &self.host)));
                *self.current.write().unwrap_or_else(PoisonError::into_inner) = next.clone();
                Ok(Refresh::Adopted(next))
            }
        }
    }

    /// The state every answer carries.
    pub fn state(&self) -> State {
        let current = self.current();
        let registry = &current.registry().registry;
        let reloads = lock(&self.reloads);
        State {
            process_id: self.process_id,
            generation: current.number,
            loaded_release_id: registry.release_id.clone(),
            catalog_checksum: registry.catalog_checksum.clone(),
            registered_hook_count: current.hook_count,
            reload_count: reloads.count,
            last_reload_at_ms: reloads.last_at_ms,
            last_reload_error: reloads.last_error.clone(),
            core_release_id: self.core_release.clone(),
            core_replaced_by_release: reloads.replaced_by_release,
            running_hooks: None,
        }
    }
}

fn read(source: Option<&PathBuf>) -> Result<Loaded, RegistryError> {
    match source {
        None => Loaded::embedded(),
        Some(path) => Loaded::from_file(path),
    }
}

fn dispatcher(loaded: Loaded, host: &SharedHost) -> Dispatcher {
    Dispatcher::with_host(loaded, Arc::new(OkoState::from_env()), host.clone())
}
