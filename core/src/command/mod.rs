//! Command hooks: the programs users register, each run with `/bin/sh -c` in
//! a process group of its own, the event payload on its stdin.
//!
//! Every end of a run (exit, deadline, cancellation) kills whatever is left
//! of the group and reaps it, so nothing a hook started outlives its run.
//! Call [`init_supervision`] once at start-up so that a hook's orphaned
//! grandchildren are handed to the engine, which ends and reaps them too,
//! even those that left the hook's group (`setsid`, a double fork): each hook
//! run is marked with [`MARKER`] in its environment, which its descendants
//! inherit, and [`end_adopted`] ends what is left before Tama exits.

mod capture;
mod group;
pub mod proc_stat;
mod resolve;
mod run;
mod verdict;

pub use group::{end_adopted, end_adopted_before_exit, init_supervision};
pub use resolve::{Unresolved, resolve, shell_quote};
pub use run::{Canceller, Running, spawn};
pub use verdict::{HookVerdict, verdict};

use std::path::PathBuf;
use std::time::Duration;

/// Most bytes kept of a hook's stdout, and of its stderr; the rest is read
/// and dropped, so a chatty hook never blocks on a full pipe.
pub const OUTPUT_CAP: usize = 1 << 20;

/// The environment variable every hook run starts with, valued
/// `<pid of the Tama process>.<run number>`: the proof, read back from
/// `/proc/<pid>/environ`, that a process is one that Tama process started.
pub const MARKER: &str = "TAMA_HOOK_GROUP";

/// The variable a hook command reads its capability (see `capability`)
/// from. Tama sets or removes it for every hook, so none inherits one from
/// Tama's own environment.
pub const CAPABILITY_VAR: &str = "TAMA_CAPABILITY";

/// How long a hook's group has, after SIGTERM, before it gets SIGKILL.
pub const GRACE: Duration = Duration::from_millis(300);

/// One command hook to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandSpec {
    pub hook_id: String,
    /// A shell command line, run with `/bin/sh -c`.
    pub command: String,
    pub timeout: Duration,
    /// Where the hook runs; the engine's own directory when absent.
    pub cwd: Option<PathBuf>,
    /// Set on top of the engine's environment, which the hook inherits.
    pub env: Vec<(String, String)>,
}

/// A hook run that is over, with its group killed and reaped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    pub hook_id: String,
    pub timeout: Duration,
    pub ended: Ended,
    /// At most [`OUTPUT_CAP`] bytes, invalid UTF-8 replaced.
    pub stdout: String,
    /// The hook printed more than [`OUTPUT_CAP`] bytes on stdout, so its
    /// verdict cannot be read: a failure, never a pass.
    pub stdout_overflowed: bool,
    pub stderr: String,
    /// Milliseconds from the start to the end of the run.
    pub ms: u64,
}

/// How a hook run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    Exited(i32),
    Signalled(i32),
    TimedOut,
    /// Ended through its [`Canceller`].
    Cancelled,
    /// Its exit status was collected by someone else in the process (a
    /// `waitpid(-1)` elsewhere), so how it ended is unknown.
    Lost,
}

/// A hook that could not be started at all.
#[derive(Debug, thiserror::Error)]
pub enum SpawnError {
    #[error("hook {hook_id} could not start in {}: {cause}", cwd.display())]
    Cwd {
        hook_id: String,
        cwd: PathBuf,
        cause: std::io::Error,
    },
    #[error("hook {hook_id} could not start /bin/sh: {cause}")]
    Shell {
        hook_id: String,
        cause: std::io::Error,
    },
    #[error("hook {hook_id} could not start a thread to supervise it: {cause}")]
    Thread {
        hook_id: String,
        cause: std::io::Error,
    },
}
