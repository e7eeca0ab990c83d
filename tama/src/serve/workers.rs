//! The threads of a serving engine and who reads its input.
//!
//! One thread at a time reads: it holds the reading role. The thread that
//! read a request runs it itself, so a request is never handed from thread
//! to thread, and it keeps the role while it does when no further input is
//! waiting. In the common case of a client that sends one request and waits
//! for its answer, one thread reads, runs and answers, and goes back to
//! reading: no other thread is woken and none takes a lock the first one
//! waits on again, so a request costs one wake-up, not two.
//!
//! The role passes on (to an idle thread, or a new one) in three cases:
//! - further input is already waiting once a request is read (a pipelined
//!   burst): the next request is read while this one runs, so two cores work;
//! - a dispatch is about to run command hooks, which may never end: it holds
//!   only its own thread from then on, and a new request never waits behind it;
//! - a dispatch is about to take a session's lock (its record may hold a
//!   capability to count down), which another process may hold for seconds.
//!
//! A request that keeps the role runs only in-process work: reads of
//! Tama's own files and gates, each gate bounded by its time bound
//! (500 ms), so input that arrives meanwhile waits about that long at most;
//! that is already how long a request may wait when as many run as the
//! engine runs at once.
//!
//! At most `most_running` threads run requests at once, about one per core:
//! past that, the role is left free, the next request waits in the input,
//! and the first thread whose request ends reads on. A request running
//! command hooks does not count against that bound. Idle threads past two
//! end.

use std::cell::Cell;
use std::sync::{Condvar, Mutex};

use super::lock;

/// Idle threads kept; a thread that finishes a request past this many ends.
const SPARE_READERS: usize = 2;

thread_local! {
    /// This thread's request no longer counts as running (it runs command hooks).
    static RELEASED: Cell<bool> = const { Cell::new(false) };
    /// This thread holds the reading role.
    static READS: Cell<bool> = const { Cell::new(false) };
}

pub struct Workers {
    state: Mutex<State>,
    /// Idle threads wait here to be offered the role.
    offered: Condvar,
    /// Signalled when the input ends and when the last request of an ended input is answered.
    changed: Condvar,
    most_running: usize,
}

/// Who reads the input.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Role {
    /// A thread reads, or is starting to.
    Held,
    /// An idle thread is asked to read.
    Offered,
    /// Nobody reads: as many requests run as may; the next to end reads on.
    Free,
}

struct State {
    role: Role,
    /// Idle threads waiting to be offered the role.
    idle: usize,
    /// Threads running a request that counts against the bound.
    running: usize,
    /// Threads running a request, counted or not.
    handling: usize,
    /// The input ended: threads end once their request is answered.
    closing: bool,
}

/// What a thread giving up the role leaves to its caller.
#[must_use]
#[derive(Debug, PartialEq, Eq)]
pub enum HandOver {
    /// Another thread reads, or will once a request ends.
    Done,
    /// A new thread must start and read; [`Workers::not_started`] if it cannot.
    Start,
}

impl Workers {
    /// Workers of which at most `most_running` run requests at once.
    pub fn new(most_running: usize) -> Self {
        Workers {
            state: Mutex::new(State {
                role: Role::Free,
                idle: 0,
                running: 0,
                handling: 0,
                closing: false,
            }),
            offered: Condvar::new(),
            changed: Condvar::new(),
            most_running: most_running.max(1),
        }
    }

    /// About one thread per core: more would only take turns on them.
    pub fn per_core() -> Self {
        Workers::new(std::thread::available_parallelism().map_or(2, |n| n.get()))
    }

    /// The first reader: whether a thread must start to read (nobody does).
    pub fn first_reader(&self) -> HandOver {
        let mut state = lock(&self.state);
        if state.role != Role::Free || state.closing {
            return HandOver::Done;
        }
        state.role = Role::Held;
        HandOver::Start
    }

    /// The thread [`HandOver::Start`] asked for could not start: the role is
    /// free, and the next thread whose request ends reads on.
    pub fn not_started(&self) {
        lock(&self.state).role = Role::Free;
    }

    /// The calling thread takes the role it was given (a new thread), or
    /// takes it over (the engine's own thread when no other could start).
    pub fn start_reading(&self) {
        lock(&self.state).role = Role::Held;
        READS.set(true);
    }

    /// The calling thread read a request and runs it.
    pub fn took_request(&self) {
        let mut state = lock(&self.state);
        state.running += 1;
        state.handling += 1;
    }

    /// Passes the role on, when `state` allows another reader.
    fn offer(&self, state: &mut State) -> HandOver {
        if state.closing || state.running >= self.most_running {
            state.role = Role::Free;
            return HandOver::Done;
        }
        if state.idle > 0 {
            state.role = Role::Offered;
            self.offered.notify_one();
            return HandOver::Done;
        }
        state.role = Role::Held;
        HandOver::Start
    }

    /// Further input waits: the calling thread, which holds the role, has
    /// another thread read on while it runs its request.
    pub fn hand_over(&self) -> HandOver {
        if !READS.replace(false) {
            return HandOver::Done;
        }
        self.offer(&mut lock(&self.state))
    }

    /// The calling thread's request may wait without end from now on: it no
    /// longer counts against the bound, and another thread reads on.
    pub fn release_current(&self) -> HandOver {
        if RELEASED.replace(true) {
            return HandOver::Done;
        }
        let mut state = lock(&self.state);
        state.running = state.running.saturating_sub(1);
        if READS.replace(false) || state.role == Role::Free {
            return self.offer(&mut state);
        }
        HandOver::Done
    }

    /// The calling thread's request is answered: whether the thread reads
    /// on (or else ends). A thread that does not hold the role takes it when
    /// nobody reads, or waits idle until it is offered.
    pub fn finished_request(&self) -> bool {
        let mut state = lock(&self.state);
        state.handling = state.handling.saturating_sub(1);
        if !RELEASED.replace(false) {
            state.running = state.running.saturating_sub(1);
        }
        if state.closing {
            READS.set(false);
            if state.handling == 0 {
                self.changed.notify_all();
            }
            return false;
        }
        if READS.get() {
            return true;
        }
        if state.role != Role::Held {
            state.role = Role::Held;
            READS.set(true);
            return true;
        }
        if state.idle >= SPARE_READERS {
            return false;
        }
        state.idle += 1;
        loop {
            state = self
                .offered
                .wait(state)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if state.closing {
                state.idle -= 1;
                return false;
            }
            if state.role == Role::Offered {
                state.idle -= 1;
                state.role = Role::Held;
                READS.set(true);
                return true;
            }
        }
    }

    /// The input ended: wakes [`Workers::wait_for_input_end`] and every idle thread, which ends.
    pub fn input_ended(&self) {
        let mut state = lock(&self.state);
        state.closing = true;
        state.role = Role::Free;
        READS.set(false);
        self.changed.notify_all();
        self.offered.notify_all();
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
    use std::sync::Arc;

    use super::{HandOver, Role, Workers};

    #[test]
    fn a_reader_with_no_further_input_keeps_the_role() {
        let workers = Workers::new(2);
        assert_eq!(workers.first_reader(), HandOver::Start);
        assert_eq!(workers.first_reader(), HandOver::Done, "one reads already");
        workers.start_reading();
        workers.took_request();
        assert!(workers.finished_request(), "it reads on itself");
        workers.took_request();
        assert!(workers.finished_request());
    }

    #[test]
    fn past_the_bound_nobody_reads_until_a_request_ends_or_is_released() {
        let workers = Workers::new(1);
        assert_eq!(workers.first_reader(), HandOver::Start);
        workers.start_reading();
        workers.took_request();
        assert_eq!(
            workers.hand_over(),
            HandOver::Done,
            "one request runs, the most allowed: the role is left free"
        );
        assert_eq!(
            workers.release_current(),
            HandOver::Start,
            "a request running commands does not count: a reader starts"
        );
        assert_eq!(
            workers.first_reader(),
            HandOver::Done,
            "the reader to start holds the role"
        );
        workers.input_ended();
        assert!(
            !workers.finished_request(),
            "after the input ended, threads end"
        );
        workers.wait_for_end();
    }

    #[test]
    fn a_free_role_goes_to_the_first_request_that_ends() {
        let workers = Workers::new(1);
        assert_eq!(workers.first_reader(), HandOver::Start);
        workers.start_reading();
        workers.took_request();
        assert_eq!(workers.hand_over(), HandOver::Done);
        assert!(workers.finished_request(), "the role was free: it reads on");
    }

    #[test]
    fn an_idle_thread_is_offered_the_role_and_the_input_end_ends_it() {
        let workers = Arc::new(Workers::new(2));
        assert_eq!(workers.first_reader(), HandOver::Start);
        workers.start_reading();
        workers.took_request();
        // A second thread runs a request and finds the role held: it waits idle.
        let (took, idle) = std::sync::mpsc::channel();
        let second = {
            let workers = workers.clone();
            std::thread::spawn(move || {
                workers.took_request();
                took.send(()).unwrap();
                workers.finished_request()
            })
        };
        idle.recv().unwrap();
        while super::lock(&workers.state).idle == 0 {
            std::thread::yield_now();
        }
        assert_eq!(
            workers.hand_over(),
            HandOver::Done,
            "offered to the idle one"
        );
        assert!(second.join().unwrap(), "the idle thread reads on");
        assert_eq!(super::lock(&workers.state).role, Role::Held);
        workers.input_ended();
        assert!(
            !workers.finished_request(),
            "after the input ended, threads end"
        );
        workers.wait_for_end();
    }
}
