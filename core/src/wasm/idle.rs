//! Idle instances of built-in gates, kept from one event to the next.
//!
//! A built-in gate, like the tool declaration, is Tama's own code from the
//! `tama` binary and a pure function of what its call hands it: it keeps no
//! state between calls, so an instance that answered may answer the next
//! event too. Instantiating, and resetting a spent instance's memory, cost a
//! serving engine more than a built-in gate's decision. Every other gate
//! gets a fresh instance per event: its author may not carry anything from
//! one event to another.
//!
//! An instance is kept only after a call that returned (never after a trap
//! or a bound hit), that made no WASI call (whose output would pile up), and
//! while its memories stay small; at most [`PER_GATE`] per gate and
//! [`MOST_IDLE`] in the whole process, since each holds a slot of the pool.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use super::config::CONCURRENT_CALLS;

/// Idle instances one gate keeps: about one per core of a serving engine.
const PER_GATE: usize = 2;

/// Idle gate instances in the whole process, at most.
const MOST_IDLE: usize = CONCURRENT_CALLS;

/// An instance whose memories grew past this is not kept: its next call
/// starts from a fresh one, well within the memory bound.
pub const KEPT_MEMORY: usize = 8 << 20;

static IDLE: AtomicUsize = AtomicUsize::new(0);

/// One gate's idle instances.
pub struct Idle<I> {
    kept: Mutex<Vec<I>>,
}

impl<I> Idle<I> {
    pub fn new() -> Self {
        Idle {
            kept: Mutex::new(Vec::new()),
        }
    }

    /// An idle instance, when one is kept.
    pub fn take(&self) -> Option<I> {
        let taken = self.kept().pop();
        if taken.is_some() {
            IDLE.fetch_sub(1, Ordering::Relaxed);
        }
        taken
    }

    /// Keeps `instance` for a later call, or hands it back when as many are
    /// kept as may be.
    pub fn keep(&self, instance: I) -> Option<I> {
        let mut kept = self.kept();
        if kept.len() >= PER_GATE {
            return Some(instance);
        }
        if IDLE.fetch_add(1, Ordering::Relaxed) >= MOST_IDLE {
            IDLE.fetch_sub(1, Ordering::Relaxed);
            return Some(instance);
        }
        kept.push(instance);
        None
    }

    /// The kept instances, even when a thread panicked holding them: each
    /// was whole when kept.
    fn kept(&self) -> MutexGuard<'_, Vec<I>> {
        self.kept.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl<I> Drop for Idle<I> {
    fn drop(&mut self) {
        IDLE.fetch_sub(self.kept().len(), Ordering::Relaxed);
    }
}
