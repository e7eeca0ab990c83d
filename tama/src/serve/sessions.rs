//! The session state a dispatch reads, read once per change: the session's
//! override and whether its record holds a capability.
//!
//! The files are written by anything that runs as the user, the agent
//! included: what is kept of them only stands for a file whose key (see
//! [`FileKey`]) is the one it was read under, taken before it was read, and
//! that rests. A file changed since, or too recently to tell, is read again;
//! a file that is absent is looked at, never remembered. A record that
//! holds a capability is read every time: handing it on counts its use down.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;

use super::file_key::{FileKey, Seen};
use super::lock;
use tama_core::dispatch::Selection;
use tama_core::registry::Registry;
use tama_core::session::Override;

/// Sessions remembered at once; past this many, the engine starts over.
const MOST_SESSIONS: usize = 256;

/// The state files of every session this engine dispatched for.
pub struct Sessions {
    agent: String,
    /// The session-control folder, where both files are.
    folder: PathBuf,
    known: Mutex<HashMap<String, Known>>,
}

/// What was last read of one session's files.
struct Known {
    override_path: PathBuf,
    record_path: PathBuf,
    /// The override as read, under its key and the control key file's.
    read_override: Option<(FileKey, Seen, Result<Option<Override>, String>)>,
    /// The key of a record that held no capability when read.
    without_capability: Option<FileKey>,
    /// The folder as it was when neither file was there.
    absent_under: Option<Seen>,
}

impl Sessions {
    pub fn new(agent: String) -> Sessions {
        Sessions {
            agent,
            folder: tama_core::session::control_dir(),
            known: Mutex::new(HashMap::new()),
        }
    }

    /// Runs `with` on what is known of `session`'s files.
    fn known<T>(&self, session: &str, with: impl FnOnce(&mut Known) -> T) -> T {
        let mut known = lock(&self.known);
        if let Some(files) = known.get_mut(session) {
            return with(files);
        }
        if known.len() >= MOST_SESSIONS {
            known.clear();
        }
        let key = tama_core::session::control_key(&self.agent, session);
        with(known.entry(session.to_string()).or_insert(Known {
            override_path: tama_core::session::override_path(&key),
            record_path: tama_core::session::record_path(&key),
            read_override: None,
            without_capability: None,
            absent_under: None,
        }))
    }

    /// `base` with the session's override, as
    /// [`tama_core::session::selection_for`] makes it, and the capability
    /// handed to the session's hooks, as [`tama_core::capability::for_event`]
    /// hands it. `before_waiting` is called before the record is read under
    /// the session's lock, which another process may hold for a while.
    pub fn read(
        &self,
        base: &Selection,
        registry: &Registry,
        session: Option<&str>,
        before_waiting: impl FnOnce(),
    ) -> (Selection, Result<Option<String>, String>) {
        let Some(session) = session else {
            return (base.clone(), Ok(None));
        };
        // A file made, renamed or removed in the folder changes the folder:
        // neither file is there when the folder is not, or when it is as it
        // was when both were absent.
        let folder = FileKey::seen(&self.folder);
        let read = self.known(session, |known| {
            if folder == Seen::Absent || known.absent_under == Some(folder) {
                return None;
            }
            let (override_seen, chosen) = self.read_override(known, session);
            let record = FileKey::seen(&known.record_path);
            known.absent_under = (matches!(folder, Seen::Settled(_))
                && override_seen == Seen::Absent
                && record == Seen::Absent)
                .then_some(folder);
            let record = match record {
                Seen::Absent => None,
                Seen::Settled(key) if known.without_capability == Some(key) => None,
                seen => Some(seen),
            };
            Some((chosen, record))
        });
        let Some((chosen, record)) = read else {
            return (base.clone(), Ok(None));
        };
        let selection = tama_core::session::with_override(base, session, chosen);
        let Some(record) = record else {
            return (selection, Ok(None));
        };
        before_waiting();
        let handed = tama_core::capability::for_event(registry, &self.agent, Some(session));
        if let (Ok(None), Seen::Settled(key)) = (&handed, record) {
            self.known(session, |known| known.without_capability = Some(key));
        }
        (selection, handed)
    }

    /// The session's override, and what was at its path.
    fn read_override(
        &self,
        known: &mut Known,
        session: &str,
    ) -> (Seen, Result<Option<Override>, String>) {
        let read = || tama_core::session::read_override(&self.agent, session);
        let seen = FileKey::seen(&known.override_path);
        let key = match seen {
            Seen::Absent => return (seen, Ok(None)),
            Seen::Unsure => return (seen, read()),
            Seen::Settled(key) => key,
        };
        // Whether an override counts depends on the control key it is checked with.
        let control = FileKey::seen(&tama_core::control_key::ControlKey::path());
        if let Some((read_under, control_then, read)) = &known.read_override
            && *read_under == key
            && *control_then == control
        {
            return (seen, read.clone());
        }
        let now = read();
        known.read_override = (control != Seen::Unsure).then(|| (key, control, now.clone()));
        (seen, now)
    }
}
