//! What tells a file that changed from one that did not, without reading it.

use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Which file it is (device and inode: a replacement by rename is a new
/// inode), its size, and its modification and status-change times to the
/// nanosecond (a write in place moves both; setting the modification time
/// back still moves the status-change time, which nobody can set).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct FileKey {
    dev: u64,
    ino: u64,
    size: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

/// How recent a change may be for its key to be trusted: a file system
/// whose clock is coarser than a nanosecond (a kernel tick, or two seconds
/// on some) can give a second write within one tick the same times, so a
/// file changed this recently is read again every time until it rests.
const SETTLED_AFTER: Duration = Duration::from_secs(2);

/// What a look at a path found.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Seen {
    /// Nothing is there.
    Absent,
    /// A file that rests: its key names its content.
    Settled(FileKey),
    /// A file changed too recently for its key to be trusted, or one that
    /// cannot be looked at: it must be read.
    Unsure,
}

impl FileKey {
    /// The key of the file at `path`, when it rests.
    pub fn of(path: &Path) -> Option<FileKey> {
        match FileKey::seen(path) {
            Seen::Settled(key) => Some(key),
            Seen::Absent | Seen::Unsure => None,
        }
    }

    /// What is at `path` now, following links as reading it does.
    pub fn seen(path: &Path) -> Seen {
        use std::os::unix::fs::MetadataExt;
        let meta = match std::fs::metadata(path) {
            Ok(meta) => meta,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Seen::Absent,
            Err(_) => return Seen::Unsure,
        };
        let key = FileKey {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.size(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
        };
        let changed = UNIX_EPOCH + Duration::new(key.mtime.0.max(key.ctime.0).max(0) as u64, 0);
        let settled = SystemTime::now()
            .duration_since(changed)
            .is_ok_and(|age| age >= SETTLED_AFTER);
        if settled {
            Seen::Settled(key)
        } else {
            Seen::Unsure
        }
    }
}
