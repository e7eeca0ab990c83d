//! Files in the peers folder: whole-file writes, the registry lock, and the
//! physical path a write lands on, with the git root it belongs to.

use std::fs::{File, OpenOptions};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Component, Path, PathBuf};

use super::{PeerError, Result, ensure_dir, io};

/// Writes `bytes` over `path` whole (see [`tama_core::files::write_whole`]).
pub fn write_whole(path: &Path, bytes: &[u8]) -> Result<()> {
    tama_core::files::write_whole(path, bytes)
        .map_err(io(|| format!("cannot write {}", path.display())))
}

/// Holds the peers registry lock while it lives: registrations are read,
/// changed and written under it. The kernel drops the lock with the process.
pub struct RegistryLock(#[allow(dead_code)] File);

impl RegistryLock {
    pub fn take(dir: &Path) -> Result<RegistryLock> {
        ensure_dir(dir)?;
        let path = dir.join("registry.lock");
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .mode(0o600)
            .open(&path)
            .map_err(io(|| format!("cannot open {}", path.display())))?;
        file.lock()
            .map_err(io(|| format!("cannot lock {}", path.display())))?;
        Ok(RegistryLock(file))
    }
}

/// Symbolic links followed in one path before it counts as a loop (Linux's own limit).
const MAX_LINKS: usize = 40;

/// The physical path a write of `path` (relative to `cwd`) lands on, as the
/// kernel resolves it: component by component, each symbolic link replaced
/// by its target (a dangling last link too: writing it creates the target),
/// and `..` taken after the links before it are resolved. Parts that do not
/// exist yet are kept as written. `std::fs::canonicalize` cannot serve: it
/// fails on any missing part, and a lexical clean-up first would take `..`
/// before links.
pub fn resolve(cwd: &Path, path: &str) -> Result<PathBuf> {
    let joined = if Path::new(path).is_absolute() {
        PathBuf::from(path)
    } else {
        cwd.join(path)
    };
    let mut pending: Vec<PathBuf> = joined
        .components()
        .rev()
        .map(|c| PathBuf::from(c.as_os_str()))
        .collect();
    let mut real = PathBuf::from("/");
    let mut links = 0;
    while let Some(part) = pending.pop() {
        match part.components().next() {
            Some(Component::RootDir) | Some(Component::CurDir) | None => {}
            Some(Component::ParentDir) => {
                real.pop();
            }
            Some(Component::Normal(name)) => {
                let next = real.join(name);
                match next.symlink_metadata() {
                    Ok(meta) if meta.file_type().is_symlink() => {
                        links += 1;
                        if links > MAX_LINKS {
                            return Err(PeerError::Refused(format!(
                                "{path}: too many symbolic links (a loop?) from {}",
                                next.display()
                            )));
                        }
                        let target = std::fs::read_link(&next)
                            .map_err(io(|| format!("cannot read the link {}", next.display())))?;
                        if target.is_absolute() {
                            real = PathBuf::from("/");
                        }
                        pending.extend(
                            target
                                .components()
                                .rev()
                                .map(|c| PathBuf::from(c.as_os_str())),
                        );
                    }
                    _ => real = next,
                }
            }
            Some(Component::Prefix(_)) => {}
        }
    }
    Ok(real)
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
