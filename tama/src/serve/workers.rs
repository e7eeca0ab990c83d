//! Threads for requests. Every request in flight holds a thread of its own,
//! so a hook that never ends holds only its request; a thread that finished
//! waits a while for the next request instead of ending, because starting
//! and ending a thread per dispatch costs more than many gates take.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use super::lock;

type Job = Box<dyn FnOnce() + Send>;

/// How long an idle thread waits for another request before it ends.
const IDLE_FOR: Duration = Duration::from_secs(30);

#[derive(Default)]
pub struct Workers {
    idle: Mutex<Idle>,
    started: Mutex<Vec<JoinHandle<()>>>,
}

/// Threads waiting for a job, newest last, each by its number; `None` sent
/// to one ends it.
#[derive(Default)]
struct Idle {
    waiting: Vec<(u64, Sender<Option<Job>>)>,
    numbered: u64,
    closing: bool,
}

impl Workers {
    /// Runs `job` on an idle thread, or on a new one when none is idle; the
    /// error says why no thread could be started (the job was not run).
    pub fn run(self: &Arc<Self>, job: impl FnOnce() + Send + 'static) -> std::io::Result<()> {
        let mut job: Job = Box::new(job);
        let number = {
            let mut idle = lock(&self.idle);
            while let Some((_, worker)) = idle.waiting.pop() {
                match worker.send(Some(job)) {
                    Ok(()) => return Ok(()),
                    Err(mpsc::SendError(Some(returned))) => job = returned,
                    Err(mpsc::SendError(None)) => return Ok(()),
                }
            }
            idle.numbered += 1;
            idle.numbered
        };
        let workers = self.clone();
        let thread = std::thread::Builder::new()
            .name("tama-dispatch".into())
            .spawn(move || workers.work(number, job))?;
        let mut started = lock(&self.started);
        started.retain(|t| !t.is_finished());
        started.push(thread);
        Ok(())
    }

    fn work(&self, number: u64, first: Job) {
        let (sender, jobs): (Sender<Option<Job>>, Receiver<Option<Job>>) = mpsc::channel();
        let mut job = first;
        loop {
            job();
            {
                let mut idle = lock(&self.idle);
                if idle.closing {
                    return;
                }
                idle.waiting.push((number, sender.clone()));
            }
            let next = match jobs.recv_timeout(IDLE_FOR) {
                Ok(next) => next,
                Err(RecvTimeoutError::Disconnected) => None,
                Err(RecvTimeoutError::Timeout) => {
                    let mut idle = lock(&self.idle);
                    match idle.waiting.iter().position(|(n, _)| *n == number) {
                        Some(at) => {
                            idle.waiting.remove(at);
                            None
                        }
                        // A request took this thread as its wait ended: the job is on its way.
                        None => {
                            drop(idle);
                            jobs.recv().ok().flatten()
                        }
                    }
                }
            };
            match next {
                Some(next) => job = next,
                None => return,
            }
        }
    }

    /// Waits for every request running now; idle threads end.
    pub fn join(&self) {
        {
            let mut idle = lock(&self.idle);
            idle.closing = true;
            for (_, worker) in idle.waiting.drain(..) {
                let _ = worker.send(None);
            }
        }
        let threads = std::mem::take(&mut *lock(&self.started));
        for thread in threads {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use std::sync::Arc;
    use std::sync::mpsc;
    use std::time::Duration;

    use super::Workers;

    #[test]
    fn a_job_that_never_ends_holds_only_its_own_thread() {
        let workers = Arc::new(Workers::default());
        let (release, held) = mpsc::channel::<()>();
        workers
            .run(move || {
                let _ = held.recv();
            })
            .unwrap();
        let (done, finished) = mpsc::channel();
        for n in 0..20 {
            let done = done.clone();
            workers.run(move || done.send(n).unwrap()).unwrap();
            assert_eq!(finished.recv_timeout(Duration::from_secs(5)), Ok(n));
            // The thread goes idle just after its job; the next job reuses it.
            while workers.idle.lock().unwrap().waiting.is_empty() {
                std::thread::yield_now();
            }
        }
        assert_eq!(
            workers.started.lock().unwrap().len(),
            2,
            "one thread holds the job, one thread ran the rest"
        );
        release.send(()).unwrap();
        workers.join();
    }
}
