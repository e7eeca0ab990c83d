//! Reading a hook's stdout or stderr on a thread of its own, up to a cap.

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

use std::io::{ErrorKind, Read};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::Instant;

#[derive(Default)]
struct Buffer {
    bytes: Vec<u8>,
    /// More arrived than the cap kept.
    overflowed: bool,
    /// The pipe reached end of file (every writer is gone) or failed.
    done: bool,
}

#[derive(Default)]
struct Shared {
    buffer: Mutex<Buffer>,
    cv: Condvar,
}

/// Output being read from one pipe.
pub(super) struct Capture(Arc<Shared>);

impl Capture {
    pub(super) fn start(mut pipe: impl Read + Send + 'static, cap: usize) -> std::io::Result<Self> {
        let shared = Arc::new(Shared::default());
        let theirs = Arc::clone(&shared);
        thread::Builder::new()
            .name("tama-hook-output".into())
            .spawn(move || read(&mut pipe, cap, &theirs))?;
        Ok(Self(shared))
    }

    /// What was read once the pipe is closed, or by `until` if a process
    /// outside the hook's group still holds it open, and whether more
    /// arrived than the cap kept.
    pub(super) fn take(self, until: Instant) -> (String, bool) {
        let mut buffer = lock(&self.0.buffer);
        while !buffer.done {
            let now = Instant::now();
            if now >= until {
                break;
            }
            buffer = match self.0.cv.wait_timeout(buffer, until - now) {
                Ok((guard, _)) => guard,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
        (
            String::from_utf8_lossy(&std::mem::take(&mut buffer.bytes)).into_owned(),
            buffer.overflowed,
        )
    }
}

fn read(pipe: &mut impl Read, cap: usize, shared: &Shared) {
    let mut chunk = [0u8; 8192];
    loop {
        match pipe.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => {
                let mut buffer = lock(&shared.buffer);
                let room = cap.saturating_sub(buffer.bytes.len());
                buffer.overflowed |= n > room;
                buffer
                    .bytes
                    .extend_from_slice(chunk.get(..n.min(room)).unwrap_or_default());
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    lock(&shared.buffer).done = true;
    shared.cv.notify_all();
}

pub(super) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
