//! What happens while hooks still run, shared by the serving engine and
//! one-event runs: the signals that prove the harness stopped waiting and the
//! sentences that say so, abandonments, the running-hook records on disk, and
//! ending a hook group another Tama process started.
//!
//! Records, markers and `/proc` are read from disk: nothing here may panic on them.
#![deny(clippy::unwrap_used, clippy::expect_used)]

pub mod abandon;
pub mod earlier;
pub mod procs;
pub mod records;
pub mod run;
pub mod signals;
pub mod termination;

pub use run::Run;
