//! The engine's epoch, advanced only while a component call runs, so that a
//! call past its deadline is stopped and an idle engine never wakes for it.
//!
//! wasmtime's epoch deadline needs something to advance the epoch; a thread
//! ticking for as long as the engine lives would wake the process twenty
//! times a second for nothing. This one ticks while calls run and sleeps on
//! a condition variable otherwise.

use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use wasmtime::{Engine, EngineWeak};

use super::sandbox::EPOCH_TICK;

pub struct Ticker {
    state: Mutex<State>,
    wake: Condvar,
}

#[derive(Default)]
struct State {
    /// Component calls running now.
    calls: usize,
    /// The ticking thread waits for a call: the next call wakes it.
    parked: bool,
    /// The engine is gone: the ticking thread ends.
    closed: bool,
}

/// Keeps the epoch advancing while it lives.
pub struct Ticking<'a>(&'a Ticker);

impl Ticker {
    /// A ticker of `engine`, with its thread started.
    pub fn start(engine: &Engine) -> std::io::Result<Arc<Ticker>> {
        let ticker = Arc::new(Ticker {
            state: Mutex::new(State::default()),
            wake: Condvar::new(),
        });
        let (thread_ticker, engine) = (ticker.clone(), engine.weak());
        std::thread::Builder::new()
            .name("tama-epoch".into())
            .spawn(move || thread_ticker.run(&engine))?;
        Ok(ticker)
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A call starts: the epoch advances until every such guard is dropped.
    pub fn calling(&self) -> Ticking<'_> {
        let mut state = self.lock();
        state.calls += 1;
        let parked = std::mem::take(&mut state.parked);
        drop(state);
        if parked {
            self.wake.notify_one();
        }
        Ticking(self)
    }

    /// Ends the ticking thread; the engine is being dropped.
    pub fn close(&self) {
        self.lock().closed = true;
        self.wake.notify_one();
    }

    /// Each tick comes one [`EPOCH_TICK`] after the thread woke or last
    /// ticked, so a call always gets its full deadline in ticks.
    fn run(&self, engine: &EngineWeak) {
        loop {
            let mut state = self.lock();
            while state.calls == 0 && !state.closed {
                state.parked = true;
                state = self
                    .wake
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            if state.closed {
                return;
            }
            drop(state);
            std::thread::sleep(EPOCH_TICK);
            match engine.upgrade() {
                Some(engine) => engine.increment_epoch(),
                None => return,
            }
        }
    }
}

impl Drop for Ticking<'_> {
    fn drop(&mut self) {
        self.0.lock().calls -= 1;
    }
}
