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

/// Bytes of room a written buffer keeps for the next lines.
const KEPT_ROOM: usize = 64 << 10;

pub struct Out<W = Stdout> {
    /// Lines waiting for the writer, whole.
    waiting: Mutex<Vec<u8>>,
    /// Held while writing, with the buffer the waiting lines are written
    /// from: the two buffers trade places, so neither is allocated again.
    stdout: Mutex<(W, Vec<u8>)>,
}

impl Out {
    pub fn new() -> Self {
        Out::to(std::io::stdout())
    }
}

impl<W: Write> Out<W> {
    fn to(writer: W) -> Self {
        Out {
            waiting: Mutex::new(Vec::new()),
            stdout: Mutex::new((writer, Vec::new())),
        }
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
                let (writer, lines) = &mut *stdout;
                std::mem::swap(&mut *lock(&self.waiting), lines);
                if !lines.is_empty() {
                    let _ = writer.write_all(lines);
                    let _ = writer.flush();
                    lines.clear();
                    // What a burst grew is not kept for the idle engine.
                    lines.shrink_to(KEPT_ROOM);
                }
            }
            // A line left while this thread wrote is written by it now.
            if lock(&self.waiting).is_empty() {
                return;
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use std::collections::HashSet;
    use std::sync::Mutex;

    use super::Out;

    /// Lines written from many threads at once all arrive, each whole and once.
    #[test]
    fn every_line_arrives_whole_and_once() {
        let out = Out::to(Vec::new());
        std::thread::scope(|scope| {
            for thread in 0..8 {
                let out = &out;
                scope.spawn(move || {
                    for n in 0..2000 {
                        out.write_line(format!("{{\"thread\":{thread},\"n\":{n}}}\n").as_bytes());
                    }
                });
            }
        });
        let written = String::from_utf8(Mutex::into_inner(out.stdout).unwrap().0).unwrap();
        let lines: Vec<&str> = written.lines().collect();
        assert_eq!(lines.len(), 8 * 2000);
        assert_eq!(
            lines.iter().collect::<HashSet<_>>().len(),
            8 * 2000,
            "no line twice"
        );
        assert!(
            lines
                .iter()
                .all(|l| l.starts_with("{\"thread\":") && l.ends_with('}')),
            "every line whole"
        );
        assert!(out.waiting.lock().unwrap().is_empty());
    }
}
