//! The engine's output. Answers come from many threads, one line each; a
//! thread that finds another writing leaves its line to that writer, so
//! answers finished together leave in one write instead of one each.

use std::io::{Stdout, Write};
use std::sync::{Mutex, TryLockError};

use super::lock;

/// Bytes of answers waiting past which a thread waits for its turn to write
/// instead of leaving its line: a caller that stops reading holds the
/// engine's threads rather than its memory.
const MOST_WAITING: usize = 1 << 20;

pub struct Out {
    /// Lines waiting for the writer, whole.
    waiting: Mutex<Vec<u8>>,
    /// Held while writing.
    stdout: Mutex<Stdout>,
}

impl Out {
    pub fn new() -> Self {
        Out { waiting: Mutex::new(Vec::new()), stdout: Mutex::new(std::io::stdout()) }
    }

    /// Writes `line` (ending in a newline), with any others waiting.
    pub fn write_line(&self, line: &[u8]) {
        let mut waiting = lock(&self.waiting);
        waiting.extend_from_slice(line);
        let must_wait = waiting.len() >= MOST_WAITING;
        drop(waiting);
        loop {
            {
                let mut stdout = match self.stdout.try_lock() {
                    Ok(stdout) => stdout,
                    Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
                    Err(TryLockError::WouldBlock) if must_wait => lock(&self.stdout),
                    // The thread writing now writes this line after its own.
                    Err(TryLockError::WouldBlock) => return,
                };
                let lines = std::mem::take(&mut *lock(&self.waiting));
                if !lines.is_empty() {
                    let _ = stdout.write_all(&lines);
                    let _ = stdout.flush();
                }
            }
            // A line left while this thread wrote is written by it now.
            if lock(&self.waiting).is_empty() {
                return;
            }
        }
    }
}
