//! The engine's epoch, advanced only while component calls run, so that a
//! call past its deadline is stopped and an idle engine never wakes for it.
//!
//! wasmtime's epoch deadline needs something to advance the epoch. A thread
//! ticking for as long as the engine lives would wake the process twenty
//! times a second for nothing; one woken when a call starts would put a
//! wake-up of another thread (on a virtual machine, of a halted CPU) on the
//! path of every decision. Here a call that starts while nothing ticks only
//! arms a periodic timer (a `timerfd`, one system call, no wake-up); the
//! ticking thread waits on it, advances the epoch at each expiry, and
//! disarms it at the first expiry that finds no call running.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use nix::sys::time::TimeSpec;
use nix::sys::timerfd::{ClockId, Expiration, TimerFd, TimerFlags, TimerSetTimeFlags};
use wasmtime::{Engine, EngineWeak};

use super::sandbox::EPOCH_TICK;

pub struct Ticker {
    state: Mutex<State>,
    timer: TimerFd,
}

#[derive(Default)]
struct State {
    /// Component calls running now.
    calls: usize,
    /// The timer is set: the epoch advances at each of its expiries.
    armed: bool,
    /// The engine is gone: the ticking thread ends.
    closed: bool,
}

/// Keeps the epoch advancing while it lives.
pub struct Ticking<'a>(&'a Ticker);

impl Ticker {
    /// A ticker of `engine`, with its thread started.
    pub fn start(engine: &Engine) -> std::io::Result<Arc<Ticker>> {
        let timer = TimerFd::new(ClockId::CLOCK_MONOTONIC, TimerFlags::TFD_CLOEXEC)?;
        let ticker = Arc::new(Ticker {
            state: Mutex::new(State::default()),
            timer,
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
    /// Its first tick comes at most one [`EPOCH_TICK`] after it starts.
    pub fn calling(&self) -> Ticking<'_> {
        let mut state = self.lock();
        state.calls += 1;
        if !state.armed {
            state.armed = true;
            self.set(Expiration::Interval(TimeSpec::from_duration(EPOCH_TICK)));
        }
        Ticking(self)
    }

    /// Ends the ticking thread; the engine is being dropped.
    pub fn close(&self) {
        self.lock().closed = true;
        self.set(Expiration::OneShot(TimeSpec::new(0, 1)));
    }

    /// Sets the timer. Setting a timerfd fails only on arguments these are
    /// not; were it to fail, the thread ticks by sleeping instead (see
    /// [`Ticker::run`]).
    fn set(&self, expiration: Expiration) {
        if let Err(err) = self.timer.set(expiration, TimerSetTimeFlags::empty()) {
            crate::log::write("epoch", &format!("the epoch timer could not be set: {err}"));
        }
    }

    fn run(&self, engine: &EngineWeak) {
        loop {
            if let Err(err) = self.timer.wait() {
                crate::log::write("epoch", &format!("the epoch timer failed: {err}"));
                std::thread::sleep(EPOCH_TICK);
            }
            let mut state = self.lock();
            if state.closed {
                return;
            }
            match engine.upgrade() {
                Some(engine) => engine.increment_epoch(),
                None => return,
            }
            if state.calls == 0 && state.armed {
                state.armed = false;
                if let Err(err) = self.timer.unset() {
                    crate::log::write(
                        "epoch",
                        &format!("the epoch timer could not be unset: {err}"),
                    );
                }
            }
        }
    }
}

impl Drop for Ticking<'_> {
    fn drop(&mut self) {
        self.0.lock().calls -= 1;
    }
}
