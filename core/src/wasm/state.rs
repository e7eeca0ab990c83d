//! State a gate may read, by key, when the registry grants it that key.

use crate::event::Event;

/// Where granted state comes from. The host reads it, so the gate itself
/// still touches no file.
pub trait StateSource: Send + Sync {
    /// The state under `key` for `event`, as JSON text; `Err` names the file
    /// and the cause when state exists but cannot be read.
    fn read(&self, key: &str, event: &Event) -> Result<Option<String>, String>;
}

/// No state at all: every key reads as absent.
pub struct NoState;

impl StateSource for NoState {
    fn read(&self, _key: &str, _event: &Event) -> Result<Option<String>, String> {
        Ok(None)
    }
}
