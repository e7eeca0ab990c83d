//! `tama:gate/files`: the text of a file a command runs, read for a
//! built-in gate as it lies on disk when the gate decides.

use std::fs::File;
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

/// The most text a gate is handed from one file; a larger text file is an
/// error, so that a script padded past it is refused, not let through.
pub const MOST_BYTES: u64 = 1 << 20;

/// The text of the regular file at `path` (absolute, or `~/…` under `home`):
/// none when there is none, it is a folder or a program; an error, naming
/// the file and the cause, when it cannot be read, holds more text than
/// [`MOST_BYTES`], or is a named pipe, a socket or a device (`/dev/null`
/// aside), whose text comes later.
pub fn read(path: &str, home: &Path) -> Result<Option<String>, String> {
    let Some(path) = absolute(path, home) else {
        return Ok(None);
    };
    let shown = path.display();
    // Only a regular file is opened: opening a device may act (a watchdog
    // starts), and a socket cannot be.
    match std::fs::metadata(&path) {
        Ok(metadata) if metadata.is_file() => {}
        Ok(metadata) if metadata.is_dir() => return Ok(None),
        // A shell reads `/dev/null` as an empty script.
        Ok(_) if path == Path::new("/dev/null") => return Ok(Some(String::new())),
        Ok(_) => {
            return Err(format!(
                "{shown} is a named pipe, a socket or a device: what it gives is written later, \
                 where no gate reads it"
            ));
        }
        Err(err) if is_absent(&err) => return Ok(None),
        Err(err) => return Err(format!("{shown} cannot be read: {err}")),
    }
    let file = match open(&path) {
        Ok(file) => file,
        Err(err) if is_absent(&err) => return Ok(None),
        Err(err) => return Err(format!("{shown} cannot be opened: {err}")),
    };
    let metadata = file
        .metadata()
        .map_err(|err| format!("{shown} cannot be read: {err}"))?;
    if !metadata.is_file() {
        return Ok(None);
    }
    let mut bytes = Vec::with_capacity(metadata.len().min(MOST_BYTES) as usize);
    let read = |bytes: &mut Vec<u8>, most: u64| {
        (&file)
            .take(most)
            .read_to_end(bytes)
            .map_err(|err| format!("{shown} cannot be read: {err}"))
    };
    // A program is told by its first bytes, so the rest of it is never read.
    read(&mut bytes, SAMPLE as u64)?;
    if is_program(&bytes) {
        return Ok(None);
    }
    read(&mut bytes, MOST_BYTES + 1 - SAMPLE as u64)?;
    if bytes.len() as u64 > MOST_BYTES {
        return Err(format!(
            "{shown} holds more than the {} MiB of text Tama reads",
            MOST_BYTES >> 20
        ));
    }
    Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
}

/// `path` (absolute, or `~/…` under `home`) with the symbolic links along
/// it followed, as far as it exists; the parts that do not exist yet are
/// joined on as written. None when nothing changes or `path` is relative.
pub fn follow(path: &str, home: &Path) -> Option<String> {
    let path = absolute(path, home)?;
    let mut existing = path.as_path();
    let mut missing = Vec::new();
    let resolved = loop {
        match std::fs::canonicalize(existing) {
            Ok(resolved) => break resolved,
            Err(_) => {
                missing.push(existing.file_name()?);
                existing = existing.parent()?;
            }
        }
    };
    let followed = missing
        .iter()
        .rev()
        .fold(resolved, |path, part| path.join(part));
    (followed != path).then(|| followed.to_string_lossy().into_owned())
}

/// `path` made absolute, when it is absolute or under the home folder.
fn absolute(path: &str, home: &Path) -> Option<PathBuf> {
    match path.strip_prefix("~/") {
        Some(rest) if home.is_absolute() => Some(home.join(rest)),
        Some(_) => None,
        None => Some(PathBuf::from(path)).filter(|path| path.is_absolute()),
    }
}

/// Opens `path` without waiting: should a named pipe have taken the regular
/// file's place since, opening it to read would block until something
/// writes to it, and a gate's call must end.
fn open(path: &Path) -> std::io::Result<File> {
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::libc::O_NONBLOCK)
        .open(path)
}

fn is_absent(err: &std::io::Error) -> bool {
    use std::io::ErrorKind::{NotADirectory, NotFound};
    matches!(err.kind(), NotFound | NotADirectory)
}

/// The bytes bash looks at to tell a program from a script.
const SAMPLE: usize = 80;

/// Whether `bytes` start like a program rather than a script: as bash does,
/// a NUL byte in the first [`SAMPLE`] bytes before the first line ends.
fn is_program(bytes: &[u8]) -> bool {
    let sample = bytes.get(..SAMPLE).unwrap_or(bytes);
    let first_line = sample.split(|&b| b == b'\n').next().unwrap_or_default();
    first_line.contains(&0)
}

#[cfg(test)]
mod tests {
    use super::{MOST_BYTES, follow, read};
    use std::path::Path;

    #[test]
    fn links_along_a_path_are_followed_as_far_as_it_exists() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(home.join(".claude")).unwrap();
        std::fs::create_dir(home.join("project")).unwrap();
        std::os::unix::fs::symlink("../.claude", home.join("project/cfg")).unwrap();
        let shown = |path: &std::path::Path| path.to_str().unwrap().to_owned();
        let settings = shown(&home.join(".claude/settings.json"));
        assert_eq!(follow("~/project/cfg/settings.json", &home), Some(settings));
        assert_eq!(
            follow("~/project/cfg/new/x", &home),
            Some(shown(&home.join(".claude/new/x")))
        );
        for unchanged in [
            "~/project/notes.txt",
            "~/.claude/settings.json",
            "project/cfg",
        ] {
            assert_eq!(follow(unchanged, &home), None, "{unchanged}");
        }
    }

    #[test]
    fn a_script_reads_as_its_text_and_what_is_no_script_as_absent() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path();
        std::fs::write(home.join("notes.txt"), "git commit --no-verify\n").unwrap();
        std::fs::write(home.join("app"), b"\x7fELF\x02\x01\x01\0\0\0").unwrap();
        let script = home.join("notes.txt");
        assert_eq!(
            read(script.to_str().unwrap(), Path::new("/nowhere")).unwrap(),
            Some("git commit --no-verify\n".into())
        );
        assert_eq!(
            read("~/notes.txt", home).unwrap(),
            Some("git commit --no-verify\n".into())
        );
        for absent in ["~/app", "~/missing", "~/notes.txt/x", "notes.txt", "~/"] {
            assert_eq!(read(absent, home), Ok(None), "{absent}");
        }
        assert_eq!(read("/dev/null", home), Ok(Some(String::new())));
        // bash looks for a NUL only in a script's first 80 bytes.
        let late_nul = format!("git commit --no-verify #{}\0\n", "x".repeat(80));
        std::fs::write(home.join("late"), &late_nul).unwrap();
        assert_eq!(read("~/late", home), Ok(Some(late_nul)));
    }

    #[test]
    fn a_named_pipe_is_an_error_not_waited_on() {
        let dir = tempfile::tempdir().unwrap();
        nix::unistd::mkfifo(&dir.path().join("pipe"), nix::sys::stat::Mode::S_IRWXU).unwrap();
        let err = read("~/pipe", dir.path()).unwrap_err();
        assert!(
            err.contains("is a named pipe, a socket or a device"),
            "{err}"
        );
    }

    #[test]
    fn text_past_the_bound_and_a_file_that_cannot_be_read_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path();
        let padded = format!(
            "git commit --no-verify\n{}",
            "#".repeat(MOST_BYTES as usize)
        );
        std::fs::write(home.join("padded.sh"), padded).unwrap();
        let err = read("~/padded.sh", home).unwrap_err();
        assert!(err.contains("padded.sh holds more than the 1 MiB"), "{err}");
        std::fs::create_dir(home.join("folder")).unwrap();
        assert_eq!(read("~/folder", home), Ok(None), "a folder runs nothing");
    }
}
