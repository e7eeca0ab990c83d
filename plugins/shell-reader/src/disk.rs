//! Files a command runs that it did not write: a script written by an
//! earlier tool call, checked out or downloaded, read from disk through the
//! host (`tama:gate/files`) so that it is read as the commands it runs.
//!
//! A gate walks a command without waiting on the host: a file the walk
//! needs and does not hold yet is noted as wanted, read once the walk ends,
//! and the command walked again with it ([`Disk::read_wanted`]).

use core::cell::RefCell;

use crate::field::UNKNOWN;
use crate::prelude::*;

/// Reads the text of the file at an absolute path, as `tama:gate/files`
/// does: none when there is no such script, an error when it cannot be read.
pub type ReadFile = fn(&str) -> Result<Option<String>, String>;

/// How many times a command is walked again with files it wanted: a script
/// may run another, which is only seen once the first is read.
pub const MOST_ROUNDS: usize = 4;

/// Files read from disk for one command, and those its last walk wanted.
#[derive(Default)]
pub struct Disk {
    /// Where each file lies ([`locate`]) and what reading it gave.
    read: Vec<(String, Result<Option<String>, Unreadable>)>,
    wanted: RefCell<Vec<String>>,
    /// Relative paths wanted while the folder the command starts in was
    /// unknown: read as no file, though one may lie there.
    unlocated: Vec<String>,
}

/// A file the host could not read.
struct Unreadable {
    why: String,
    /// What a command reading it takes in: [`unread_mark`].
    as_input: String,
}

/// Marks text a command takes in from a file that could not be read (see
/// [`unread_mark`]).
const UNREAD: &str = "\u{FFFC}unread\u{FFFC}";

/// What a command takes in from the file at `path` that the host could not
/// read because `why`: a named pipe, a socket or a device gives its text
/// only later, when a writer sends it; an unreadable file gives nothing
/// that can be checked. A gate refuses running text that holds this mark
/// as commands ([`unread_in`]), as it refuses running such a file as a
/// script.
fn unread_mark(path: &str, why: &str) -> String {
    format!("{UNREAD}{path}{UNREAD}{why}{UNREAD}\n")
}

/// The path and the reason of the first file in `text` that could not be
/// read ([`unread_mark`]), when text taken in from one is in it.
pub fn unread_in(text: &str) -> Option<(&str, &str)> {
    // Called on every text a gate runs: one scan for the mark's first
    // character settles most.
    if !text.contains('\u{FFFC}') {
        return None;
    }
    let mut parts = text.split(UNREAD).skip(1);
    Some((parts.next()?, parts.next()?))
}

impl Disk {
    /// What the file at `path` holds, located from `folder` ([`locate`]):
    /// its text, none when there is no such script or the gate cannot tell
    /// where it lies, or why it could not be read. A file not read yet is
    /// noted as wanted and is none for now.
    pub fn text(&self, folder: Option<&str>, path: &str) -> Result<Option<&str>, &str> {
        match self.entry(folder, path) {
            Some(Ok(text)) => Ok(text.as_deref()),
            Some(Err(unreadable)) => Err(&unreadable.why),
            None => Ok(None),
        }
    }

    /// Whether the file at `path`, located from `folder`, was wanted where
    /// the gate did not know the folder the command starts in: read as no
    /// file, though one may lie there.
    pub fn unlocated(&self, folder: Option<&str>, path: &str) -> bool {
        locate(folder, path).is_some_and(|located| self.unlocated.contains(&located))
    }

    /// What a command reading the file at `path` as its input takes in,
    /// located from `folder` as [`Disk::text`] does: its text, none when
    /// there is no such file or it is not read yet, or the mark of a file
    /// that could not be read ([`unread_in`]).
    pub fn input(&self, folder: Option<&str>, path: &str) -> Option<&str> {
        match self.entry(folder, path)? {
            Ok(text) => text.as_deref(),
            Err(unreadable) => Some(&unreadable.as_input),
        }
    }

    /// What reading the file at `path` gave, or none when the gate cannot
    /// tell where it lies or has not read it yet (it is then wanted).
    fn entry(
        &self,
        folder: Option<&str>,
        path: &str,
    ) -> Option<&Result<Option<String>, Unreadable>> {
        let located = locate(folder, path)?;
        let entry = self.read.iter().find(|(at, _)| *at == located);
        if entry.is_none() {
            let mut wanted = self.wanted.borrow_mut();
            if !wanted.contains(&located) {
                wanted.push(located);
            }
        }
        entry.map(|(_, read)| read)
    }

    /// Reads the files the last walk wanted, relative ones under `start`
    /// (the folder the command starts in, asked only for a relative one):
    /// whether any was read, so that the command is walked again.
    pub fn read_wanted(
        &mut self,
        mut start: impl FnMut() -> Option<String>,
        read: ReadFile,
    ) -> bool {
        let wanted = core::mem::take(self.wanted.get_mut());
        if wanted.is_empty() {
            return false;
        }
        for located in wanted {
            let absolute = if located.starts_with(['/', '~']) {
                Some(located.clone())
            } else {
                start().map(|folder| normal(&format!("{folder}/{located}")))
            };
            if absolute.is_none() {
                self.unlocated.push(located.clone());
            }
            let text = absolute.map_or(Ok(None), |path| read(&path));
            let text = text.map_err(|why| Unreadable {
                as_input: unread_mark(&located, &why),
                why,
            });
            self.read.push((located, text));
        }
        true
    }
}

/// Whether `path` is an installed package's code: a file named as code (an
/// interpreter's extension, or none, as a package's `bin` entries) under
/// `node_modules`, `site-packages` or `dist-packages`. Release tools there
/// name `--no-verify` among the options they pass on to git, and what a
/// package holds is what its user installed; a document put there is
/// still read.
pub fn installed_package_code(path: &str) -> bool {
    let mut parts = path.split('/');
    let name = parts.next_back().unwrap_or_default();
    let named_as_code = match name.rsplit_once('.') {
        None => true,
        Some((_, extension)) => {
            crate::interpreters::Language::of_script(name).is_some()
                || matches!(extension, "cjs" | "mjs")
        }
    };
    named_as_code
        && parts.any(|part| matches!(part, "node_modules" | "site-packages" | "dist-packages"))
}

/// The folder the event's `payload` (JSON text) says its command starts
/// in, when it names an absolute one.
pub fn payload_cwd(payload: &str) -> Option<String> {
    let payload: serde_json::Value = serde_json::from_str(payload).ok()?;
    let cwd = payload.get("cwd")?.as_str()?;
    cwd.starts_with('/').then(|| normal(cwd))
}

/// Where `path` lies, as a walk that has moved to `folder` can tell: an
/// absolute path, one under the home folder (`~/…`), or one relative to the
/// folder the command started in. `folder` is where the shell is now, in the
/// same form (empty for where it started), or none when the gate cannot
/// tell; a path with a part the gate cannot know lies nowhere it can tell.
pub fn locate(folder: Option<&str>, path: &str) -> Option<String> {
    if path.is_empty() || path.contains(UNKNOWN) {
        return None;
    }
    if path.starts_with('/') || path == "~" || path.starts_with("~/") {
        return Some(normal(path));
    }
    if path.starts_with('~') {
        // Another user's home folder.
        return None;
    }
    match folder? {
        "" => Some(normal(path)),
        folder => Some(normal(&format!("{folder}/{path}"))),
    }
}

/// `path` with `.` and empty parts taken out and `..` taking off the part
/// before it, as far as the text tells.
fn normal(path: &str) -> String {
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." if parts
                .last()
                .is_some_and(|last| *last != ".." && *last != "~") =>
            {
                parts.pop();
            }
            ".." if absolute => {}
            part => parts.push(part),
        }
    }
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

#[cfg(test)]
mod tests {
    use super::{Disk, locate};

    #[test]
    fn paths_are_located_from_where_the_shell_is() {
        assert_eq!(
            locate(Some(""), "./notes.txt").as_deref(),
            Some("notes.txt")
        );
        assert_eq!(
            locate(Some("sub"), "../a/./b.sh").as_deref(),
            Some("a/b.sh")
        );
        assert_eq!(locate(Some(""), "../b.sh").as_deref(), Some("../b.sh"));
        assert_eq!(locate(None, "/tmp//x/../s").as_deref(), Some("/tmp/s"));
        assert_eq!(locate(Some("/work"), "s").as_deref(), Some("/work/s"));
        assert_eq!(locate(Some(""), "~/s").as_deref(), Some("~/s"));
        assert_eq!(locate(None, "s"), None, "nowhere the gate can tell");
        assert_eq!(locate(Some(""), "~root/s"), None);
        assert_eq!(locate(Some(""), "\u{FFFC}.sh"), None);
    }

    #[test]
    fn an_installed_packages_code_is_told_from_a_document_put_there() {
        use super::installed_package_code;
        assert!(installed_package_code("node_modules/.bin/lerna"));
        assert!(installed_package_code(
            "/w/node_modules/release-it/lib/git.js"
        ));
        assert!(installed_package_code(
            "/v/lib/python3.12/site-packages/x/cli.py"
        ));
        assert!(!installed_package_code("node_modules/x/notes.txt"));
        assert!(!installed_package_code("scripts/release.js"));
        assert!(!installed_package_code("tool.py"));
    }

    #[test]
    fn the_start_folder_is_the_payloads_absolute_cwd() {
        use super::payload_cwd;
        assert_eq!(
            payload_cwd(r#"{"cwd":"/w/r/./x/.."}"#).as_deref(),
            Some("/w/r")
        );
        assert_eq!(payload_cwd(r#"{"cwd":"r"}"#), None);
        assert_eq!(payload_cwd(r#"{"cwd":1}"#), None);
        assert_eq!(payload_cwd("not json"), None);
    }

    #[test]
    fn a_file_is_wanted_then_read_once_under_the_start_folder() {
        fn read(path: &str) -> Result<Option<String>, String> {
            match path {
                "/work/run.txt" => Ok(Some("git commit -n".into())),
                "/etc/locked" => Err("/etc/locked cannot be opened: denied".into()),
                _ => Ok(None),
            }
        }
        let mut disk = Disk::default();
        assert_eq!(disk.text(Some(""), "run.txt"), Ok(None));
        assert_eq!(disk.text(None, "/etc/locked"), Ok(None));
        assert_eq!(disk.text(Some(""), "./run.txt"), Ok(None), "asked once");
        assert!(disk.read_wanted(|| Some("/work".into()), read));
        assert_eq!(disk.text(Some(""), "run.txt"), Ok(Some("git commit -n")));
        assert_eq!(
            disk.text(Some(""), "/etc/locked"),
            Err("/etc/locked cannot be opened: denied")
        );
        assert!(!disk.read_wanted(|| unreachable!("nothing wanted"), read));
        assert_eq!(disk.input(Some(""), "run.txt"), Some("git commit -n"));
        let taken_in = disk.input(Some(""), "/etc/locked").unwrap();
        assert_eq!(
            super::unread_in(&format!("cd /; {taken_in}")),
            Some(("/etc/locked", "/etc/locked cannot be opened: denied"))
        );
        assert_eq!(super::unread_in("git commit -n"), None);
    }
}
