//! The engine's input: request frames read by the thread that holds the
//! reading role (see [`super::workers`]).
//!
//! A thread asleep on a pipe is woken by an interrupt sent to its CPU. On a
//! virtual machine whose idle CPUs halt, that costs tens of microseconds, and
//! the request then runs on a CPU just woken, two to three times slower than
//! on one kept busy. So when requests have been arriving soon after their
//! answers (a client sending one after another), the reader looks for the
//! next one for a short while before it sleeps; one that arrives meanwhile
//! costs no wake-up. A client that sends now and then finds the reader
//! asleep as before, and costs it no CPU spent looking.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::os::fd::AsFd;
use std::time::{Duration, Instant};

/// Bytes of input read at once: a pipelined burst is read in few reads.
const BUFFER: usize = 64 * 1024;

/// How long the reader looks for the next request before it sleeps.
const LOOK: Duration = Duration::from_micros(200);

/// How soon after the reader turned to the input and slept a request must
/// arrive for the reader to look for the next one: longer than [`LOOK`], as
/// a request that finds the reader asleep is read one wake-up after it was
/// sent. A look that finds nothing stops the looking until then, so a
/// client sending at a pace just past [`LOOK`] does not cost a look per
/// request.
const SOON: Duration = Duration::from_micros(300);

pub struct Input {
    reader: BufReader<File>,
    /// The last request came during the look, or within [`SOON`] of a read
    /// that did not look.
    looks: bool,
}

impl Input {
    /// The engine's own handle on stdin (a duplicate), whose buffer tells
    /// whether further input waits.
    pub fn stdin() -> std::io::Result<Self> {
        let fd = std::io::stdin().as_fd().try_clone_to_owned()?;
        Ok(Input::new(File::from(fd)))
    }

    fn new(file: File) -> Self {
        Input {
            reader: BufReader::with_capacity(BUFFER, file),
            looks: false,
        }
    }

    /// Reads one frame into `frame`: its length (0 when the input ended),
    /// and whether more input already waits after it.
    pub fn read_frame(&mut self, frame: &mut Vec<u8>) -> std::io::Result<(usize, bool)> {
        let read = if self.reader.buffer().is_empty() {
            let (started, looked) = (Instant::now(), self.looks);
            if looked {
                self.look(started);
            }
            let read = self.reader.read_until(b'\n', frame)?;
            self.looks = started.elapsed() < if looked { LOOK } else { SOON };
            read
        } else {
            self.reader.read_until(b'\n', frame)?
        };
        Ok((read, read > 0 && self.waiting()))
    }

    /// Waits until [`LOOK`] after `started` for input without sleeping,
    /// yielding the CPU to any other thread ready to run on it (the client,
    /// when the scheduler put it beside the reader).
    fn look(&self, started: Instant) {
        while !self.waiting() && started.elapsed() < LOOK {
            std::thread::yield_now();
        }
    }

    /// Whether input waits: bytes in the buffer, or readable (or ended) on
    /// the pipe now.
    fn waiting(&self) -> bool {
        use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
        if !self.reader.buffer().is_empty() {
            return true;
        }
        let mut fds = [PollFd::new(
            self.reader.get_ref().as_fd(),
            PollFlags::POLLIN,
        )];
        // An error of the poll itself is read as input waiting: another thread reads on.
        poll(&mut fds, PollTimeout::ZERO).map_or(true, |ready| ready > 0)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use std::fs::File;
    use std::io::Write;
    use std::sync::mpsc;
    use std::time::Duration;

    use super::Input;

    fn pipe() -> (Input, File) {
        let (read, write) = nix::unistd::pipe().unwrap();
        (Input::new(File::from(read)), File::from(write))
    }

    fn read(input: &mut Input) -> (String, bool) {
        let mut frame = Vec::new();
        let (_, waiting) = input.read_frame(&mut frame).unwrap();
        (String::from_utf8(frame).unwrap(), waiting)
    }

    #[test]
    fn frames_are_read_whole_and_further_input_is_told() {
        let (mut input, mut client) = pipe();
        client.write_all(b"{\"id\":1}\n{\"id\":2}\n").unwrap();
        assert_eq!(read(&mut input), ("{\"id\":1}\n".into(), true));
        assert_eq!(read(&mut input), ("{\"id\":2}\n".into(), false));
    }

    /// Far longer than [`super::SOON`] and [`super::LOOK`], so a frame sent
    /// this long after the reader turned to the input is late even on a
    /// loaded machine.
    const LATE: Duration = Duration::from_millis(30);

    #[test]
    fn a_looking_reader_reads_a_frame_sent_meanwhile_and_sleeps_once_one_comes_late() {
        let (mut input, mut client) = pipe();
        input.looks = true;
        let (turned, reader_turned) = mpsc::channel();
        let writer = std::thread::spawn(move || {
            // A frame sent in two writes, the second while the reader looks.
            client.write_all(b"sec").unwrap();
            std::thread::sleep(Duration::from_micros(50));
            client.write_all(b"ond\n").unwrap();
            reader_turned.recv().unwrap();
            std::thread::sleep(LATE);
            client.write_all(b"late\n").unwrap();
            client
        });
        assert_eq!(read(&mut input).0, "second\n");
        turned.send(()).unwrap();
        assert_eq!(read(&mut input).0, "late\n");
        assert!(!input.looks, "the last request came late");
        drop(writer.join().unwrap());
        assert_eq!(read(&mut input).0, "", "the input ended");
    }

    #[test]
    fn a_look_that_finds_nothing_stops_the_looking() {
        let (mut input, mut client) = pipe();
        input.looks = true;
        let (turned, reader_turned) = mpsc::channel();
        let writer = std::thread::spawn(move || {
            reader_turned.recv().unwrap();
            std::thread::sleep(LATE);
            client.write_all(b"after the look\n").unwrap();
            client
        });
        turned.send(()).unwrap();
        assert_eq!(read(&mut input).0, "after the look\n");
        assert!(!input.looks);
        drop(writer.join().unwrap());
    }

    #[test]
    fn the_input_ending_while_the_reader_looks_ends_the_read() {
        let (mut input, client) = pipe();
        input.looks = true;
        drop(client);
        assert_eq!(read(&mut input), (String::new(), false));
    }
}
