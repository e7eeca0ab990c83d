//! A bound on instances alive at once, so many concurrent dispatches wait for
//! a turn instead of exhausting the pooling allocator (which would fail the
//! call). std has no semaphore and tokio's is async; callers here are threads.

use std::sync::{Condvar, Mutex};

pub struct Slots {
    free: Mutex<usize>,
    freed: Condvar,
}

pub struct Slot<'a>(&'a Slots);

impl Slots {
    pub fn new(count: usize) -> Self {
        Slots { free: Mutex::new(count), freed: Condvar::new() }
    }

    /// Waits for a free slot; it is given back when the guard drops.
    pub fn take(&self) -> Slot<'_> {
        let mut free = self.free.lock().expect("slot lock");
        while *free == 0 {
            free = self.freed.wait(free).expect("slot lock");
        }
        *free -= 1;
        Slot(self)
    }
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        *self.0.free.lock().expect("slot lock") += 1;
        self.0.freed.notify_one();
    }
}
