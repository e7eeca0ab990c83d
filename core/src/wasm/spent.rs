//! Stores of finished gate calls, dropped once the caller has answered.
//!
//! Dropping a store hands its instance back to the pool, which resets the
//! memory the call wrote: system calls that need not delay a decision. A
//! serving engine has each thread keep its spent stores until the answer
//! is written ([`drop_spent`]). At most [`MOST_KEPT`] are kept in the whole
//! process, so however many threads keep some, the pool (sized for them)
//! always has an instance for a new call; past that bound a store is
//! dropped at once, as a process that never calls [`drop_spent`] also
//! finds out.

use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};

use wasmtime::Store;

use super::config::CONCURRENT_CALLS;
use super::gate::GateContext;
use super::sandbox::Sandboxed;

type GateStore = Store<Sandboxed<GateContext>>;

/// Spent stores kept at once, over every thread.
pub const MOST_KEPT: usize = CONCURRENT_CALLS;

static KEPT: AtomicUsize = AtomicUsize::new(0);

/// This thread's kept stores, given back to the count however they drop.
#[derive(Default)]
struct Kept(Vec<GateStore>);

impl Drop for Kept {
    fn drop(&mut self) {
        KEPT.fetch_sub(self.0.len(), Ordering::Relaxed);
    }
}

thread_local! {
    static THIS_THREAD: RefCell<Kept> = RefCell::default();
}

/// Keeps `store` until this thread calls [`drop_spent`], or drops it now
/// when as many are kept as may be.
pub(super) fn keep(store: GateStore) {
    if KEPT.fetch_add(1, Ordering::Relaxed) >= MOST_KEPT {
        KEPT.fetch_sub(1, Ordering::Relaxed);
        return;
    }
    let refused = THIS_THREAD
        .try_with(|kept| kept.borrow_mut().0.push(store))
        .is_err();
    if refused {
        // The thread is ending; the store was dropped with the closure.
        KEPT.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Drops the stores this thread kept.
pub fn drop_spent() {
    let spent = THIS_THREAD.try_with(|kept| std::mem::take(&mut *kept.borrow_mut()));
    drop(spent);
}
