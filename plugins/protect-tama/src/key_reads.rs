//! Commands that read every file under the folders they name (`cp -r`,
//! `tar -c`, `grep -r`, …): naming a folder that holds Tama's control key
//! reads the key too, and a copy or an archive of that folder is a copy of
//! the key, readable later where the gate no longer sees it.

use crate::prelude::*;

use crate::commands::{operands, option_values, short_flags};
use crate::protected::Protected;
use crate::walk::{Result, Walker, shown};

/// Refuses `name args…` when it reads the files under a folder that holds
/// the control key; `fed` when `xargs` hands it names earlier commands of
/// the pipeline print (`cd ~/.tama && ls | xargs cat`).
pub fn check(walker: &Walker<'_>, name: &str, args: &[String], fed: bool) -> Result<()> {
    if let Some(folder) = served(name, args) {
        return refuse_if_key_under(walker, "serves", name, &[folder]);
    }
    if reads_names_on_stdin(name, args) || (fed && !handles_names_only(name)) {
        // Relative names (`find . | cpio -o`, `ls | zip -@`) are under the
        // working folder.
        let relative = walker.piped_relative.then(|| ".".to_owned());
        let fed: Vec<String> = walker.piped.iter().cloned().chain(relative).collect();
        return refuse_if_key_under(walker, "reads", name, &fed);
    }
    if matches!(name, "rg" | "ag") && !searches_hidden(args) {
        return refuse_if_in_key_folder(walker, name, &searched(args));
    }
    let Some(reads_working_folder) = reads_recursively(name, args) else {
        return Ok(());
    };
    let mut folders = match name {
        "tar" | "bsdtar" => crate::archives::tar_members(args),
        _ => operands(args, &[]),
    };
    // A search's first operand is its pattern; with no folder after it, it
    // searches the working folder.
    if reads_working_folder && folders.len() <= 1 {
        folders.push(".".to_owned());
    }
    refuse_if_key_under(walker, "reads", name, &folders)
}

/// Whether ripgrep or ag is told to search hidden folders such as `.tama`,
/// which they skip below the folders they are given.
fn searches_hidden(args: &[String]) -> bool {
    args.iter().any(|arg| {
        matches!(arg.as_str(), "--hidden" | "-uu" | "-uuu" | "--unrestricted")
            || short_flags(arg).is_some_and(|flags| flags.contains('.'))
    })
}

/// The folders a search reads: those after its pattern, or the working one.
fn searched(args: &[String]) -> Vec<String> {
    let mut folders = operands(args, &[]);
    if folders.len() <= 1 {
        folders.push(".".to_owned());
    }
    folders
}

/// Refuses a search that skips hidden folders when it is given Tama's home
/// or runs in it (`rg . ~/.tama`, `cd ~/.tama && rg .`): nothing hidden
/// then stands between it and the key.
fn refuse_if_in_key_folder(walker: &Walker<'_>, name: &str, folders: &[String]) -> Result<()> {
    let reader = format!("`{name}` reads every file in");
    refuse_reading_key(walker, &reader, folders, Protected::in_key_folder)
}

pub(crate) fn refuse_if_key_under(
    walker: &Walker<'_>,
    verb: &str,
    name: &str,
    folders: &[String],
) -> Result<()> {
    let reader = format!("`{name}` {verb} every file under");
    refuse_reading_key(walker, &reader, folders, Protected::holds_key)
}

/// Refuses `reader` (`` `rg` reads every file in ``) of the first folder
/// from which, resolved, it `reaches` the key.
pub(crate) fn refuse_reading_key(
    walker: &Walker<'_>,
    reader: &str,
    folders: &[String],
    reaches: fn(&Protected, &str) -> bool,
) -> Result<()> {
    for folder in folders {
        let mut resolutions = walker.resolutions(folder);
        if resolutions.any(|resolved| reaches(walker.protected, &resolved)) {
            return Err(format!(
                "{reader} `{}`, Tama's control key among them, which only the operator's `tama sessions` commands may read or write; name the files it needs instead",
                shown(folder)
            ));
        }
    }
    Ok(())
}

/// Whether a program handed file names reads no file's content (`xargs
/// echo`, `xargs ls -l`).
fn handles_names_only(name: &str) -> bool {
    matches!(
        name,
        "echo"
            | "printf"
            | "ls"
            | "stat"
            | "basename"
            | "dirname"
            | "realpath"
            | "readlink"
            | "test"
            | "["
            | "du"
            | "wc"
            | "file"
            | "true"
    )
}

/// Whether `name args…` copies the files named on its standard input
/// (`find ~/.tama | cpio -o`): `cpio -o` or `-p`, `zip -@`, `tar -T -` and
/// `rsync --files-from=-`. The names are those `find` lists under the
/// folders earlier commands of the pipeline name, or under the working
/// folder when one may print relative names.
fn reads_names_on_stdin(name: &str, args: &[String]) -> bool {
    let from_stdin = |options: &[&str]| {
        crate::commands::option_values(args, options)
            .iter()
            .any(|value| value == "-")
    };
    match name {
        "cpio" => args.iter().any(|arg| {
            matches!(arg.as_str(), "--create" | "--pass-through")
                || short_flags(arg).is_some_and(|f| f.contains(['o', 'p']))
        }),
        "zip" => args.iter().any(|arg| arg == "-@" || arg == "--names-stdin"),
        "tar" | "bsdtar" => from_stdin(&["-T", "--files-from"]),
        "rsync" => from_stdin(&["--files-from"]),
        _ => false,
    }
}

/// The folder a file server started here serves to whoever asks, a later
/// `curl` included: Python's `http.server` (`-d`, else the working folder),
/// `php -S … -t`, `ruby -run -e httpd`, `busybox httpd -h`, and the npm
/// servers `http-server` and `serve`.
fn served(name: &str, args: &[String]) -> Option<String> {
    // The folder an option names, else the working one.
    let value = |options: &[&str]| {
        let value = crate::commands::option_values(args, options).pop();
        value.unwrap_or_else(|| ".".to_owned())
    };
    let first_operand = |args: &[String]| {
        args.iter()
            .find(|arg| !arg.starts_with('-'))
            .cloned()
            .unwrap_or_else(|| ".".to_owned())
    };
    if let Some(("http.server", _)) = crate::commands::python_module(name, args) {
        return Some(value(&["-d", "--directory"]));
    }
    match name {
        "php" if args.iter().any(|arg| arg == "-S") => Some(value(&["-t"])),
        "ruby" if args.iter().any(|arg| arg == "-run") => {
            let at = args.iter().position(|arg| arg == "httpd")?;
            Some(first_operand(&args[at + 1..]))
        }
        "httpd" if args.iter().any(|arg| arg == "-h") => {
            crate::commands::option_values(args, &["-h"]).pop()
        }
        "http-server" | "serve" => Some(first_operand(args)),
        _ => None,
    }
}

/// Whether `name args…` reads the files of the folders it names, all the
/// way down: `Some(true)` for a search, which reads the working folder when
/// it names none.
fn reads_recursively(name: &str, args: &[String]) -> Option<bool> {
    let flag = |short: &[char], long: &[&str]| {
        args.iter().any(|arg| {
            long.contains(&arg.as_str())
                || short_flags(arg).is_some_and(|flags| flags.contains(short))
        })
    };
    let recursive = match name {
        "cp" | "scp" => flag(&['r', 'R', 'a'], &["--recursive", "--archive"]),
        "rsync" | "7z" | "7za" | "ditto" | "unison" | "borg" | "restic" | "kopia" | "duplicity" => {
            true
        }
        // Copies between this machine and a remote, in either direction.
        "rclone" => args.iter().any(|arg| {
            matches!(
                arg.as_str(),
                "copy" | "sync" | "move" | "copyto" | "moveto" | "bisync" | "serve"
            )
        }),
        "pax" => flag(&['w'], &[]),
        // Two folders compared: the files of each are read, and where they
        // differ (`-N` counts a missing file as empty), printed.
        "diff" | "colordiff" | "sdiff" | "diff3" => true,
        "git" => args.iter().any(|arg| arg == "--no-index"),
        "gzip" | "pigz" | "zstd" => flag(&['r'], &["--recursive"]),
        // `python -m zipfile -c out.zip FOLDER…`, and tarfile's alike.
        _ if name.starts_with("python") => {
            let module = crate::commands::python_module(name, args);
            matches!(module, Some(("zipfile" | "tarfile", _))) && flag(&['c'], &["--create"])
        }
        "jar" => args
            .first()
            .is_some_and(|key| key.trim_start_matches('-').starts_with('c')),
        "zip" => flag(&['r'], &["--recurse-paths"]),
        "tar" | "bsdtar" => crate::archives::tar_writes_archive(args),
        "grep" | "egrep" | "fgrep" => {
            let recursive = flag(&['r', 'R'], &["--recursive", "--dereference-recursive"]);
            return (recursive && !skips_key(&option_values(args, &["--include"]), false))
                .then_some(true);
        }
        "rg" | "ag" => return Some(true),
        "find" => {
            args.iter()
                .any(|arg| matches!(arg.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir"))
                && !find_skips_key(args)
        }
        _ => false,
    };
    recursive.then_some(false)
}

/// Whether `find`'s expression picks only names the key's cannot be: each
/// of its base-name tests (`-name '*.py'`) is matched against the key
/// file's name, when it has any, none is negated and no `-o` joins them.
fn find_skips_key(args: &[String]) -> bool {
    let fold = args.iter().any(|arg| arg == "-iname");
    name_patterns(args).is_some_and(|patterns| skips_key(&patterns, fold))
}

/// The base-name patterns of `find`'s expression (`-name`, `-iname`), when
/// each file it selects must match one: there is one at least, none is
/// negated and no `-o` joins them.
pub fn name_patterns(args: &[String]) -> Option<Vec<String>> {
    let mut patterns = Vec::new();
    for (at, arg) in args.iter().enumerate() {
        match arg.as_str() {
            "-o" | "-or" | "!" | "-not" => return None,
            "-name" | "-iname" => patterns.extend(args.get(at + 1).cloned()),
            _ => {}
        }
    }
    (!patterns.is_empty()).then_some(patterns)
}

/// Whether file-name globs given to pick files (`grep --include`, `find
/// -name`) are there and none matches the key file's name.
fn skips_key(patterns: &[String], fold: bool) -> bool {
    let key = crate::protected::KEY_FILE;
    !patterns.is_empty()
        && !patterns.iter().any(|pattern| {
            let pattern = match fold {
                true => pattern.to_ascii_lowercase(),
                false => pattern.clone(),
            };
            pattern.contains(shell_reader::field::UNKNOWN)
                || shell_reader::values::glob_matches(pattern.as_bytes(), key.as_bytes())
        })
}
