//! Who runs a `tama peers` command. A command acts for a session only when
//! it proves it belongs to it: it runs under that session's agent process
//! (a descendant of it), or it gives the secret the session-start brief
//! handed that agent alone. Registrations keep only the secret's SHA-256.

use std::io::Read;
use std::path::Path;

use sha2::{Digest, Sha256};

use super::sessions::{self, Registration};
use super::{Adapter, PeerError, Result, io};

/// Whether this process descends from the agent process of `registration`
/// (the same process id and start time, so a reused id does not count).
pub fn descends_from(registration: &Registration) -> bool {
    let mut pid = std::process::id() as i32;
    // A chain of processes deeper than this is no agent's command.
    for _ in 0..128 {
        let Some((parent, _)) = sessions::parent_of(pid) else {
            return false;
        };
        if parent == registration.pid {
            return registration.pid_start.is_some()
                && sessions::process_start(parent) == registration.pid_start;
        }
        if parent <= 1 {
            return false;
        }
        pid = parent;
    }
    false
}

fn digest(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.trim().as_bytes()))
}

/// Whether `secret` is the one `registration` was given.
pub fn secret_matches(registration: &Registration, secret: Option<&str>) -> bool {
    match (secret, registration.secret_sha256.as_deref()) {
        (Some(secret), Some(expected)) => !secret.trim().is_empty() && digest(secret) == expected,
        _ => false,
    }
}

/// Makes a fresh secret for `key`, keeping only its digest on disk.
pub fn issue_secret(dir: &Path, key: &str) -> Result<String> {
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(io(|| {
            "cannot read /dev/urandom for a session secret".into()
        }))?;
    let secret = hex::encode(bytes);
    let sha = digest(&secret);
    sessions::update(dir, key, |r| r.secret_sha256 = Some(sha))?;
    Ok(secret)
}

/// The session this command acts for: the one it names (`--session` or
/// `TAMA_PEER_SESSION`), else the one its agent's variable names (Codex),
/// else the nearest registered agent among its ancestors. A named session
/// this command cannot prove it belongs to is refused by name.
pub fn whoami(dir: &Path, named: Option<&str>, secret: Option<&str>) -> Result<Registration> {
    let live = sessions::all_live(dir)?;
    let named = named.map(String::from).or_else(|| {
        std::env::var("TAMA_PEER_SESSION")
            .ok()
            .filter(|s| !s.is_empty())
    });
    let claimed = match named {
        Some(named) => Some(
            live.iter()
                .find(|r| r.key == named || r.session == named)
                .ok_or_else(|| PeerError::Refused(format!("no live peer session {named}")))?,
        ),
        None => Adapter::all().find_map(|kind| {
            let id = std::env::var(kind.session_env?)
                .ok()
                .filter(|s| !s.is_empty())?;
            live.iter()
                .find(|r| r.kind == kind.name() && r.session == id)
        }),
    };
    if let Some(claimed) = claimed {
        if descends_from(claimed) || secret_matches(claimed, secret) {
            return Ok(claimed.clone());
        }
        return Err(PeerError::Refused(format!(
            "refused: this command cannot act for session {}: it does not run under that session's agent (process {}) \
             and gives no secret of that session (--secret). A session acts only as itself",
            claimed.key, claimed.pid
        )));
    }
    let mut pid = std::process::id() as i32;
    for _ in 0..128 {
        let Some((parent, _)) = sessions::parent_of(pid) else {
            break;
        };
        let start = sessions::process_start(parent);
        if let Some(found) = live
            .iter()
            .find(|r| r.pid == parent && r.pid_start.is_some() && r.pid_start == start)
        {
            return Ok(found.clone());
        }
        if parent <= 1 {
            break;
        }
        pid = parent;
    }
    Err(PeerError::Refused(
        "cannot tell which peer session this is: run it from an agent session whose peer hooks are installed \
         (tama setup peers), or pass --session <key> with that session's --secret"
            .into(),
    ))
}
