//! The threads of a serving engine. They take turns reading the engine's
//! input, and the thread that read a request runs it itself, so a request
//! is never handed from thread to thread; before it runs a dispatch it makes
//! sure another thread reads on.
//!
//! At most `most_running` threads run requests at once, about one per core:
//! past that, the next request waits in the input until one of them ends,
//! which its gates' time bound keeps short. A request about to run command
//! hooks, which may never end, stops counting against that bound and has
//! another thread read on, so it holds only its own thread and a new
//! request never waits behind it. Threads past two idle readers end.

use std::cell::Cell;
use std::sync::{Condvar, Mutex};

use super::lock;

/// Idle reading threads kept; a thread that finishes a request past this many ends.
const SPARE_READERS: usize = 2;

thread_local! {
    /// This thread's request no longer counts as running (it runs command hooks).
    static RELEASED: Cell<bool> = const { Cell::new(false) };
}

pub struct Workers {
    state: Mutex<State>,
    changed: Condvar,
    most_running: usize,
}

#[derive(Default)]
struct State {
    /// Threads reading, or waiting for their turn to read.
    reading: usize,
    /// Threads running a request that counts against the bound.
    running: usize,
    /// Threads running a request, counted or not.
    handling: usize,
    /// The input ended: threads end once their request is answered.
    closing: bool,
}

impl Workers {
    /// Workers of which at most `most_running` run requests at once.
    pub fn new(most_running: usize) -> Self {
        Workers {
            state: Mutex::new(State::default()),
            changed: Condvar::new(),
            most_running: most_running.max(1),
        }
    }

    /// About one thread per core: more would only take turns on them.
    pub fn per_core() -> Self {
        Workers::new(std::thread::available_parallelism().map_or(2, |n| n.get()))
    }

    /// Whether a new reading thread should start now: nobody reads and the
    /// bound allows another running request. When so, it is counted as
    /// reading already; [`Workers::not_started`] takes that back.
    pub fn want_reader(&self) -> bool {
        let mut state = lock(&self.state);
        if state.reading > 0 || state.closing || state.running >= self.most_running {
            return false;
        }
        state.reading += 1;
        true
    }

    /// The reader [`Workers::want_reader`] asked for could not start.
    pub fn not_started(&self) {
        let mut state = lock(&self.state);
        state.reading = state.reading.saturating_sub(1);
    }

    /// The calling thread read a request and runs it.
    pub fn took_request(&self) {
        let mut state = lock(&self.state);
        state.reading = state.reading.saturating_sub(1);
        state.running += 1;
        state.handling += 1;
    }

    /// The calling thread's request may wait without end from now on: it
    /// no longer counts against the bound.
    pub fn release_current(&self) {
        if RELEASED.replace(true) {
            return;
        }
        let mut state = lock(&self.state);
        state.running = state.running.saturating_sub(1);
    }

    /// The calling thread's request is answered: whether the thread reads
    /// on (or else ends).
    pub fn finished_request(&self) -> bool {
        let mut state = lock(&self.state);
        state.handling = state.handling.saturating_sub(1);
        if !RELEASED.replace(false) {
            state.running = state.running.saturating_sub(1);
        }
        if state.closing {
            if state.handling == 0 {
                self.changed.notify_all();
            }
            return false;
        }
        if state.reading >= SPARE_READERS {
            return false;
        }
        state.reading += 1;
        true
    }

    /// The input ended: wakes [`Workers::wait_for_end`].
    pub fn input_ended(&self) {
        lock(&self.state).closing = true;
        self.changed.notify_all();
    }

    /// Waits until the input ended.
    pub fn wait_for_input_end(&self) {
        let mut state = lock(&self.state);
        while !state.closing {
            state = self
                .changed
                .wait(state)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }

    /// Waits until the input ended and no request runs any more.
    pub fn wait_for_end(&self) {
        let mut state = lock(&self.state);
        while !(state.closing && state.handling == 0) {
            state = self
                .changed
                .wait(state)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::Workers;

    #[test]
    fn past_the_bound_no_reader_starts_until_a_request_ends_or_is_released() {
        let workers = Workers::new(1);
        assert!(workers.want_reader(), "the first reader");
        assert!(!workers.want_reader(), "one reads already");
        workers.took_request();
        assert!(!workers.want_reader(), "one request runs, the most allowed");
        workers.release_current();
        assert!(
            workers.want_reader(),
            "a request running commands does not count"
        );
        assert!(workers.finished_request(), "the released thread reads on");
        workers.input_ended();
        workers.took_request();
        assert!(
            !workers.finished_request(),
            "after the input ended, threads end"
        );
        workers.wait_for_end();
    }
}
