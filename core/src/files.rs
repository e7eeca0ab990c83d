//! Writing a file whole: every reader sees the old file or the new one,
//! never half of either, and writers never mix their bytes. Reading only
//! regular files, so nothing put in a file's place can hold Tama up.

use std::fs::{self, DirBuilder, File, OpenOptions, Permissions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// Writes `bytes` to a file of its own beside `path`, then puts it in
/// `path`'s place. A file that exists keeps its permissions; a new one is
/// 0600, in folders created 0700.
///
/// A regular file already there is exchanged with the new one, and the old
/// one then removed, rather than renamed over: ext4 writes a file renamed
/// over another out to disk at once, which cost a run that records its
/// session a tenth of a millisecond; an exchange is written back later, as
/// any other write. After a crash such a file may therefore be empty, which
/// its readers take as unreadable, never as permission.
pub fn write_whole(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write(path, bytes, false)
}

/// [`write_whole`], and on disk before it returns: for files a person keeps,
/// such as a harness's settings.
pub fn write_whole_synced(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write(path, bytes, true)
}

/// Opens the regular file at `path` for reading, with `flags` added to the
/// open. Anything else there (a FIFO, a device, a socket) is refused, not
/// waited on: opening a FIFO waits for a writer, and every file Tama reads
/// may have been put in its place by the agent Tama polices, which would
/// hold the tool call until the harness gives up on the hook.
pub fn open_regular(path: &Path, flags: i32) -> io::Result<File> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(nix::libc::O_NONBLOCK | flags)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file (a FIFO, device or socket in its place is never read)",
        ));
    }
    Ok(file)
}

/// The regular file at `path`, whole (see [`open_regular`]).
pub fn read_regular(path: &Path) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    open_regular(path, 0)?.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// [`read_regular`] as UTF-8 text.
pub fn read_regular_to_string(path: &Path) -> io::Result<String> {
    String::from_utf8(read_regular(path)?)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// Creates `dir` and its missing parents, 0700, when it is missing.
pub fn create_private_dir(dir: &Path) -> io::Result<()> {
    DirBuilder::new().recursive(true).mode(0o700).create(dir)
}

/// Swaps the files at `a` and `b` atomically: `false` where the file
/// system cannot (or either is gone), and nothing was changed.
fn exchanged(a: &Path, b: &Path) -> bool {
    use nix::fcntl::{AT_FDCWD, RenameFlags, renameat2};
    renameat2(AT_FDCWD, a, AT_FDCWD, b, RenameFlags::RENAME_EXCHANGE).is_ok()
}

fn write(path: &Path, bytes: &[u8], synced: bool) -> io::Result<()> {
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    create_private_dir(dir)?;
    let existing = fs::metadata(path).ok();
    let mode = existing
        .as_ref()
        .map_or(0o600, |m| m.permissions().mode() & 0o7777);
    let exchange = !synced && existing.is_some_and(|m| m.is_file());
    let mut name = std::ffi::OsString::from(".");
    name.push(path.file_name().unwrap_or_default());
    name.push(format!(
        ".{}.{}.tmp",
        std::process::id(),
        WRITES.fetch_add(1, Ordering::Relaxed)
    ));
    let partial = dir.join(name);
    let written = (|| {
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&partial)?;
        if mode != 0o600 {
            file.set_permissions(Permissions::from_mode(mode))?;
        }
        file.write_all(bytes)?;
        if synced {
            file.sync_all()?;
        }
        if exchange && exchanged(&partial, path) {
            // `partial` now names the old file; were it to stay, the new
            // one is in place all the same.
            let _ = fs::remove_file(&partial);
            return Ok(());
        }
        fs::rename(&partial, path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&partial);
    }
    written?;
    if synced {
        let _ = File::open(dir).and_then(|d| d.sync_all());
    }
    Ok(())
}
