//! A bound on instances alive at once, so many concurrent dispatches wait for
//! a turn instead of exhausting the pooling allocator (which would fail the
//! call). std has no semaphore and tokio's is async; callers here are threads.

use std::sync::{Condvar, Mutex};

pub struct Slots {
    state: Mutex<State>,
    freed: Condvar,
}

struct State {
    free: usize,
    /// Callers blocked in [`Slots::take`]. A slot given back wakes one only
    /// when there is one: a wake-up is a system call, and the common case,
    /// nobody waiting, needs none.
    waiting: usize,
}

pub struct Slot<'a>(&'a Slots);

impl Slots {
    pub fn new(count: usize) -> Self {
        Slots {
            state: Mutex::new(State {
                free: count,
                waiting: 0,
            }),
            freed: Condvar::new(),
        }
    }

    /// Waits for a free slot; it is given back when the guard drops.
    pub fn take(&self) -> Slot<'_> {
        let mut state = self.state.lock().expect("slot lock");
        while state.free == 0 {
            state.waiting += 1;
            state = self.freed.wait(state).expect("slot lock");
            state.waiting -= 1;
        }
        state.free -= 1;
        Slot(self)
    }
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        let mut state = self.0.state.lock().expect("slot lock");
        state.free += 1;
        let anyone_waiting = state.waiting > 0;
        drop(state);
        if anyone_waiting {
            self.0.freed.notify_one();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::Slots;

    /// Many threads through two slots: never more than two inside at once,
    /// and every waiter is woken, so all of them finish.
    #[test]
    fn waiters_get_every_freed_slot_and_no_more() {
        let slots = Slots::new(2);
        let inside = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..8 {
                scope.spawn(|| {
                    for _ in 0..50 {
                        let _slot = slots.take();
                        let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_micros(200));
                        inside.fetch_sub(1, Ordering::SeqCst);
                    }
                });
            }
        });
        assert!(
            most.load(Ordering::SeqCst) <= 2,
            "more callers inside than slots"
        );
        assert_eq!(slots.state.lock().unwrap().free, 2);
    }
}
