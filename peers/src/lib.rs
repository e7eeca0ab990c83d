//! Peer sessions: agent sessions on one machine register, message each
//! other, and guard each other's checkouts.
//!
//! Everything lives in the peers folder (`TAMA_PEERS`, else
//! `$TAMA_HOME/peers`, mode 0700):
//!
//! ```text
//! sessions/<key>.json          a live session's registration
//! registry.lock                held while a registration is read, changed and written
//! inbox/<key>/{tmp,new,handed,cur,returned}/
//!                              envelopes: staged, unread, handed to the agent,
//!                              read, and sent ones that came back unread
//! <key>.wait                   the waiter's lock, holding its process id
//! <key>.ended                  a work-together mode that ended, until the user has seen it
//! <key>.report.md              the report of the last work-together mode
//! log.jsonl                    what happened: sent, delivered, together, ended, report_shown
//! hooks.log                    hook errors; a hook never breaks the agent
//! ```
//!
//! A session's key is `<kind>-<session id>`, e.g. `claude-3f2c…`.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod caller;
mod delivery;
mod folder;
mod guard;
mod hooks;
pub mod inbox;
pub mod install;
mod journal;
mod send;
pub mod sessions;
mod text;
pub mod together;
mod waiter;

use std::path::{Path, PathBuf};

pub use hooks::{Outcome, peer_hook, record_delivery, typed};
pub use inbox::{Envelope, Letter};
pub use send::{MAX_HOPS, send};
pub use sessions::Registration;
pub use tama_adapters::peers::Adapter;
pub use text::peer_text;

/// What a peer operation can fail on. The messages are what the user or the
/// agent reads.
#[derive(Debug, thiserror::Error)]
pub enum PeerError {
    /// A request the peers cannot carry out, in words the agent can act on.
    #[error("{0}")]
    Refused(String),
    /// The hook input lacks a field, or holds the wrong type.
    #[error("{0}")]
    Input(String),
    #[error("the hook input is not JSON: {0}")]
    NotJson(#[from] serde_json::Error),
    #[error("{what}: {source}")]
    Io {
        what: String,
        source: std::io::Error,
    },
}

impl PeerError {
    /// The kind of failure, as `hooks.log` names it.
    pub fn kind(&self) -> &'static str {
        match self {
            PeerError::Refused(_) => "Refused",
            PeerError::Input(_) => "BadInput",
            PeerError::NotJson(_) => "NotJson",
            PeerError::Io { .. } => "IoError",
        }
    }
}

pub type Result<T> = std::result::Result<T, PeerError>;

/// Wraps an I/O error with what was being done.
pub(crate) fn io(what: impl FnOnce() -> String) -> impl FnOnce(std::io::Error) -> PeerError {
    move |source| PeerError::Io {
        what: what(),
        source,
    }
}

/// Records a failure outside any one session in `hooks.log`.
pub fn journal_error(dir: &Path, event: &str, err: &PeerError) {
    journal::hook_error(dir, event, None, err);
}

/// The peers folder.
pub fn peers_dir() -> PathBuf {
    match std::env::var_os("TAMA_PEERS").filter(|v| !v.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None => tama_core::paths::tama_home().join("peers"),
    }
}

/// A session's key: `<kind>-<session id>`. The id must be a plain file name
/// part, so no key can reach outside the peers folder.
pub fn session_key(kind: &Adapter, session: &str) -> Result<String> {
    if !plain_name(session, 128) {
        return Err(PeerError::Input(format!("bad session id: {session:?}")));
    }
    Ok(format!("{}-{session}", kind.name()))
}

/// Whether `key` can name files in the peers folder.
pub fn valid_key(key: &str) -> bool {
    plain_name(key, 140)
}

/// A file name part of at most `longest` bytes that names no hidden file.
fn plain_name(name: &str, longest: usize) -> bool {
    tama_core::supervise::abandon::names_a_file(name)
        && name.len() <= longest
        && !name.starts_with('.')
}

/// Creates a folder of the peers (0700) when it is missing.
pub(crate) fn ensure_dir(dir: &Path) -> Result<()> {
    tama_core::files::create_private_dir(dir)
        .map_err(io(|| format!("cannot create {}", dir.display())))
}

/// The `tama` running now, by absolute path: what hooks and messages name,
/// so an older `tama` first on PATH never answers for them.
pub fn tama_exe() -> PathBuf {
    tama_core::paths::this_tama().unwrap_or_else(|_| PathBuf::from("tama"))
}

/// How an agent of `kind` runs peer commands (`PEER_RUN`): the absolute
/// `tama` and `peers`, and the session for an agent whose commands must name it.
pub fn peer_run(kind: Option<&Adapter>, key: &str) -> String {
    let tama = tama_core::command::shell_quote(&tama_exe().to_string_lossy());
    match kind.is_some_and(|k| k.commands_name_session) {
        true => format!("{tama} peers --session {key}"),
        false => format!("{tama} peers"),
    }
}

pub(crate) use tama_core::clock::{now_iso, now_ms};
