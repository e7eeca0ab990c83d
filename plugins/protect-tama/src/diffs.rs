//! Diffs handed to `git apply`, `git am` and `patch` (on standard input, or
//! in a file the command wrote): each file a header names is written.

use crate::prelude::*;

use shell_reader::diffs::{header_paths, stripped};

use crate::commands::{each, operands, option_values};
use crate::protected::Change;
use crate::walk::{Result, Walker};

/// `git apply` and `git am` (`args` after the subcommand): paths lose their
/// first component (`a/`, `b/`) unless `-p` says otherwise, and land under
/// `--directory`.
pub fn git_apply(
    walker: &Walker<'_>,
    folder: &str,
    args: &[String],
    stdin: Option<&str>,
) -> Result<()> {
    let strip = option_values(args, &["-p"])
        .last()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    // Paths are the work tree's (`git -C DIR`), under `--directory`.
    let root = match option_values(args, &["--directory"]).pop() {
        Some(directory) if folder != "." => Some(format!("{folder}/{directory}")),
        Some(directory) => Some(directory),
        None => (folder != ".").then(|| folder.to_owned()),
    };
    let files = operands(args, &["-p", "-C", "--directory", "--exclude", "--include"]);
    let diffs = texts(walker, &files, stdin);
    patches(walker, &diffs, root.as_deref(), |path| {
        stripped(path, strip)
    })
}

/// `patch`: the file operand, or each file the diff's headers name, read
/// with `-p`'s count of components taken off, or as the file's name alone
/// when no `-p` is given (GNU patch's default), under `-d`'s folder.
pub fn patch(walker: &Walker<'_>, args: &[String], stdin: Option<&str>) -> Result<()> {
    const VALUED: &[&str] = &[
        "-p",
        "-i",
        "--input",
        "-d",
        "--directory",
        "-o",
        "--output",
        "-r",
        "--reject-file",
        "-F",
        "--fuzz",
        "-B",
        "--prefix",
        "-z",
        "--suffix",
        "-V",
        "-Y",
        "-D",
        "--ifdef",
    ];
    // `-o FILE` writes the patched text to FILE in place of the files.
    let output = option_values(args, &["-o", "--output"]);
    each(walker, &output, Change::Write, "writes")?;
    if !output.is_empty() || args.iter().any(|a| a == "--dry-run") {
        return Ok(());
    }
    let files = operands(args, VALUED);
    // `patch FILE [PATCHFILE]` patches FILE whatever the headers say.
    if !files.is_empty() {
        return each(walker, &files[..1], Change::Write, "patches");
    }
    let strip: Option<usize> = option_values(args, &["-p", "--strip"])
        .last()
        .and_then(|n| n.parse().ok());
    let folder = option_values(args, &["-d", "--directory"]).pop();
    let diffs = texts(walker, &option_values(args, &["-i", "--input"]), stdin);
    patches(walker, &diffs, folder.as_deref(), |path| match strip {
        Some(strip) => stripped(path, strip),
        None => path.rsplit('/').next().unwrap_or(path),
    })
}

/// Each file the headers of `diffs` name, as `read` takes it (components
/// stripped), under `folder` when one is given, is written.
fn patches(
    walker: &Walker<'_>,
    diffs: &[String],
    folder: Option<&str>,
    read: impl Fn(&str) -> &str,
) -> Result<()> {
    for named in diffs.iter().flat_map(|diff| header_paths(diff)) {
        let path = match folder {
            Some(folder) => format!("{folder}/{}", read(&named)),
            None => read(&named).to_owned(),
        };
        walker.changes(&path, Change::Write, "patches")?;
    }
    Ok(())
}

/// The diffs a command reads: the files it names, as it wrote them or as
/// they lie on disk, or its standard input when it names none.
fn texts(walker: &Walker<'_>, files: &[String], stdin: Option<&str>) -> Vec<String> {
    let named: Vec<&str> = files
        .iter()
        .filter(|f| *f != "-")
        .map(String::as_str)
        .collect();
    let mut texts: Vec<String> = named
        .iter()
        .filter_map(|file| walker.file_text(file))
        .map(str::to_owned)
        .collect();
    if named.len() < files.len() || named.is_empty() {
        texts.extend(stdin.map(str::to_owned));
    }
    texts
}
