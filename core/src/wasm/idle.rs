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
//!
//! A thread takes back an instance it kept itself when there is one. What a
//! store allocates comes from the allocator's arena of the thread that
//! allocated it and is freed into that arena, under its lock: an instance
//! passed from thread to thread has two threads contend for one arena's lock
//! (in a pipelined burst on two cores, half the engine's futex calls).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::thread::ThreadId;

use super::config::CONCURRENT_CALLS;

/// Idle instances one gate keeps: about one per core of a serving engine.
const PER_GATE: usize = 2;

/// Idle gate instances in the whole process, at most.
const MOST_IDLE: usize = CONCURRENT_CALLS;

/// An instance whose memories grew past this is not kept: its next call
/// starts from a fresh one, well within the memory bound.
pub const KEPT_MEMORY: usize = 8 << 20;

static IDLE: AtomicUsize = AtomicUsize::new(0);

/// One gate's idle instances, each with the thread that kept it.
pub struct Idle<I> {
    kept: Mutex<Vec<(ThreadId, I)>>,
}

impl<I> Idle<I> {
    pub fn new() -> Self {
        Idle {
            kept: Mutex::new(Vec::new()),
        }
    }

    /// An idle instance, when one is kept.
    pub fn take(&self) -> Option<I> {
        let taken = take_own(&mut self.kept());
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
        kept.push((std::thread::current().id(), instance));
        None
    }

    /// `look` at each kept instance.
    pub fn each<R>(&self, look: impl Fn(&I) -> R) -> Vec<R> {
        self.kept()
            .iter()
            .map(|(_, instance)| look(instance))
            .collect()
    }

    /// The kept instances, even when a thread panicked holding them: each
    /// was whole when kept.
    fn kept(&self) -> MutexGuard<'_, Vec<(ThreadId, I)>> {
        self.kept.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl<I> Drop for Idle<I> {
    fn drop(&mut self) {
        IDLE.fetch_sub(self.kept().len(), Ordering::Relaxed);
    }
}

/// The instance the calling thread kept last, else the one kept last by any.
pub fn take_own<I>(kept: &mut Vec<(ThreadId, I)>) -> Option<I> {
    let here = std::thread::current().id();
    let own = kept.iter().rposition(|(thread, _)| *thread == here);
    let taken = match own {
        Some(at) => kept.remove(at),
        None => kept.pop()?,
    };
    Some(taken.1)
}

#[cfg(test)]
mod tests {
    use super::Idle;

    #[test]
    fn a_thread_takes_back_its_own_instance_first() {
        let idle = Idle::new();
        assert_eq!(idle.keep("main's"), None);
        std::thread::scope(|scope| {
            scope.spawn(|| assert_eq!(idle.keep("other's"), None));
        });
        assert_eq!(
            idle.take(),
            Some("main's"),
            "kept by this thread, though earlier"
        );
        std::thread::scope(|scope| {
            scope.spawn(|| assert_eq!(idle.take(), Some("other's"), "none of its own: any"));
        });
        assert_eq!(idle.take(), None);
    }
}
