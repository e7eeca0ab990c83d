//! Files in the peers folder: whole-file writes, the registry lock, and the
//! git root a path belongs to.

use std::fs::{File, OpenOptions};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Component, Path, PathBuf};

use super::{Result, ensure_dir, io};

/// Writes `bytes` over `path` whole (see [`crate::files::write_whole`]).
pub fn write_whole(path: &Path, bytes: &[u8]) -> Result<()> {
    crate::files::write_whole(path, bytes).map_err(io(|| format!("cannot write {}", path.display())))
}

/// Holds the peers registry lock while it lives: registrations are read,
/// changed and written under it. The kernel drops the lock with the process.
pub struct RegistryLock(#[allow(dead_code)] File);

impl RegistryLock {
    pub fn take(dir: &Path) -> Result<RegistryLock> {
        ensure_dir(dir)?;
        let path = dir.join("registry.lock");
        let file = OpenOptions::new().create(true).truncate(false).write(true).mode(0o600).open(&path)
            .map_err(io(|| format!("cannot open {}", path.display())))?;
        file.lock().map_err(io(|| format!("cannot lock {}", path.display())))?;
        Ok(RegistryLock(file))
    }
}

/// `path` made absolute against `cwd`, with `.` and `..` taken out and
/// symlinks of its existing part resolved; the part that does not exist yet
/// (a file about to be written) is kept as written.
pub fn resolve(cwd: &Path, path: &str) -> PathBuf {
    let joined = if Path::new(path).is_absolute() { PathBuf::from(path) } else { cwd.join(path) };
    let mut clean = PathBuf::new();
    for part in joined.components() {
        match part {
            Component::ParentDir => {
                clean.pop();
            }
            Component::CurDir => {}
            other => clean.push(other),
        }
    }
    let mut existing = clean.as_path();
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = existing.canonicalize() {
            return rest.iter().rev().fold(real, |p: PathBuf, part| p.join(part));
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_owned());
                existing = parent;
            }
            _ => return clean,
        }
    }
}

/// The nearest folder at or above `path` (resolved) that holds `.git`, a
/// folder or a file (a worktree, a submodule); `None` outside git.
pub fn git_root(path: &Path) -> Option<PathBuf> {
    let mut at = Some(path);
    while let Some(dir) = at {
        if dir.join(".git").symlink_metadata().is_ok() {
            return Some(dir.to_path_buf());
        }
        at = dir.parent();
    }
    None
}
