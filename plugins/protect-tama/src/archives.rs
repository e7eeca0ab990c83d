//! Archive tools that unpack: the files they write are named inside the
//! archive, which the gate cannot read, so the folder they unpack into
//! counts as changed. Without a folder of their own that is the working
//! folder (`cd ~ && tar xf x.tar`). An archive `tar` creates or adds to
//! is a file it writes.

use crate::prelude::*;

use crate::commands::{operands, option_values, short_flags};
use crate::protected::Change;
use crate::walk::{Result, Walker};

const VERB: &str = "unpacks an archive into";

/// `tar`, `unzip`, `cpio`, `7z`, `ar`, `jar`, `pax`, `unrar` and `ditto`,
/// by the folder each unpacks into; other modes (listing, creating) write nothing
/// the gate follows here.
pub fn unpack(walker: &Walker<'_>, name: &str, args: &[String]) -> Result<()> {
    crate::file_writers::archived_away(walker, name, args)?;
    // Files tar keeps beside the archive: an incremental snapshot (`-g`),
    // an index of what it wrote, the volume number.
    if matches!(name, "tar" | "bsdtar") {
        let side_files = option_values(
            args,
            &["-g", "--listed-incremental", "--index-file", "--volno-file"],
        );
        for file in side_files {
            walker.changes(&file, Change::Write, "writes")?;
        }
    }
    if matches!(name, "tar" | "bsdtar") && tar_writes_archive(args) {
        let old_style = args
            .first()
            .filter(|first| !first.starts_with('-') && first.contains('f'))
            .and_then(|_| args.get(1).cloned());
        let archive = option_values(args, &["-f", "--file"])
            .into_iter()
            .chain(old_style);
        for archive in archive {
            walker.changes(&archive, Change::Write, "writes an archive to")?;
        }
    }
    let folders = match name {
        "tar" | "bsdtar" if tar_extracts(args) => {
            let mut folders = option_values(args, &["-C", "--directory"]);
            // `-P` keeps members' absolute names: they land anywhere.
            let absolute = args.iter().any(|arg| arg == "--absolute-names")
                || args
                    .iter()
                    .any(|arg| short_flags(arg).is_some_and(|f| f.contains('P')))
                || args
                    .first()
                    .is_some_and(|first| !first.starts_with('-') && first.contains('P'));
            if absolute {
                folders.push("/".to_owned());
            }
            folders
        }
        // Listing, testing or printing to standard output writes no file.
        "unzip"
            if !args.iter().any(|arg| {
                short_flags(arg).is_some_and(|f| f.contains(['l', 't', 'v', 'z', 'p', 'c', 'Z']))
            }) =>
        {
            option_values(args, &["-d"])
        }
        "cpio" => return cpio(walker, args),
        "7z" | "7za" | "7zr" | "7zz" if matches!(first_operand(args), Some("x" | "e")) => {
            option_values(args, &["-o"])
        }
        "unrar" if matches!(first_operand(args), Some("x" | "e")) => operands(args, &[])
            .into_iter()
            .skip(2)
            .filter(|operand| operand.ends_with('/'))
            .collect(),
        // GNU ar 2.34 and later extract into `--output DIR`.
        "ar" if args
            .first()
            .is_some_and(|key| key.trim_start_matches('-').contains('x')) =>
        {
            option_values(args, &["--output"])
        }
        // `dpkg-deb -x PACKAGE DIR`.
        "dpkg-deb"
            if args.iter().any(|arg| {
                matches!(
                    arg.as_str(),
                    "-x" | "-X" | "-R" | "--extract" | "--vextract" | "--raw-extract"
                )
            }) =>
        {
            operands(args, &[]).into_iter().skip(1).take(1).collect()
        }
        "jar"
            if args
                .first()
                .is_some_and(|key| key.trim_start_matches('-').starts_with('x')) =>
        {
            Vec::new()
        }
        // `pax -r` reads an archive into the working folder; `pax -rw
        // FILE… FOLDER` copies into its last operand.
        "pax"
            if args
                .iter()
                .any(|arg| short_flags(arg).is_some_and(|f| f.contains('r'))) =>
        {
            let copies = args
                .iter()
                .any(|arg| short_flags(arg).is_some_and(|f| f.contains('w')));
            let files = operands(args, &["-f", "-s", "-o", "-x", "-b", "-p"]);
            match files.split_last() {
                Some((folder, _)) if copies => vec![folder.clone()],
                _ => Vec::new(),
            }
        }
        // macOS's `ditto [-x] SOURCE… FOLDER`.
        "ditto" => operands(args, &["--arch", "--bom"])
            .split_last()
            .map(|(folder, _)| vec![folder.clone()])
            .unwrap_or_default(),
        _ => return Ok(()),
    };
    into(walker, &folders)
}

/// Python's modules that write files: `python -m zipfile -e ZIP FOLDER`
/// and `python -m tarfile -e TAR [FOLDER]`, `json.tool` and `venv`.
pub fn python_module(walker: &Walker<'_>, name: &str, args: &[String]) -> Result<()> {
    let Some((module, rest)) = crate::commands::python_module(name, args) else {
        return Ok(());
    };
    let extract = rest
        .iter()
        .position(|arg| arg == "-e" || arg == "--extract");
    match (module, extract) {
        ("zipfile" | "tarfile", Some(at)) => into(walker, rest.get(at + 2..).unwrap_or_default()),
        // `python -m json.tool IN OUT` writes its second operand.
        ("json.tool", _) => match operands(rest, &["--indent"]).get(1) {
            Some(out) => walker.changes(out, Change::Write, "writes"),
            None => Ok(()),
        },
        // `python -m py_compile FILE`, `-m compileall DIR`: the compiled
        // code lands in a `__pycache__` beside the source.
        ("py_compile" | "compileall", _) => {
            for source in operands(rest, &["-d", "-x", "-i", "-j", "-r", "-o", "-s", "-p"]) {
                let folder = match module {
                    "py_compile" => source.rsplit_once('/').map_or(".", |(folder, _)| folder),
                    _ => &source,
                };
                walker.changes(
                    &format!("{folder}/__pycache__"),
                    Change::Write,
                    "compiles into",
                )?;
            }
            Ok(())
        }
        // `python -m venv DIR` fills each folder it is given.
        ("venv", _) => {
            for folder in operands(rest, &["--prompt"]) {
                walker.changes(&folder, Change::Write, "makes an environment in")?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Each folder given, or the working folder when none is.
fn into(walker: &Walker<'_>, folders: &[String]) -> Result<()> {
    if folders.is_empty() {
        return walker.changes(".", Change::Remove, VERB);
    }
    for folder in folders {
        walker.changes(folder, Change::Remove, VERB)?;
    }
    Ok(())
}

/// Whether `tar` extracts: `--extract`, `--get`, `-x` among short flags, or
/// the old style's first word (`tar xf`).
fn tar_extracts(args: &[String]) -> bool {
    args.iter().any(|arg| {
        arg == "--extract" || arg == "--get" || short_flags(arg).is_some_and(|f| f.contains('x'))
    }) || args
        .first()
        .is_some_and(|first| !first.starts_with('-') && first.contains('x'))
}

/// Whether `tar` creates an archive or adds to one: `-c`, `-r`, `-u` or
/// `-A` among short flags or the old style's first word, or their long names.
pub(crate) fn tar_writes_archive(args: &[String]) -> bool {
    let modes = ['c', 'r', 'u', 'A'];
    args.iter().any(|arg| {
        matches!(
            arg.as_str(),
            "--create" | "--append" | "--update" | "--catenate" | "--concatenate"
        ) || short_flags(arg).is_some_and(|f| f.contains(modes))
    }) || args
        .first()
        .is_some_and(|first| !first.starts_with('-') && first.contains(modes))
}

/// `cpio -i` unpacks into the working folder or `-D`'s; `cpio -p FOLDER`
/// copies the files it is given into that folder.
fn cpio(walker: &Walker<'_>, args: &[String]) -> Result<()> {
    let mode = |long: &str, short: char| {
        args.iter()
            .any(|arg| arg == long || short_flags(arg).is_some_and(|f| f.contains(short)))
    };
    let valued = [
        "-D",
        "--directory",
        "-F",
        "--file",
        "-H",
        "--format",
        "-E",
        "-I",
        "-O",
    ];
    if mode("--pass-through", 'p') {
        return into(walker, &operands(args, &valued));
    }
    if mode("--extract", 'i') {
        return into(walker, &option_values(args, &["-D", "--directory"]));
    }
    Ok(())
}

fn first_operand(args: &[String]) -> Option<&str> {
    args.iter()
        .map(String::as_str)
        .find(|arg| !arg.starts_with('-'))
}

/// The files `tar` puts in the archive it creates: its operands, under
/// the folder `-C` names (`tar czf out.tgz -C ~ projects` reads
/// `~/projects`). An old-style first word (`czf`) and its archive are among
/// them, read as files too.
pub fn tar_members(args: &[String]) -> Vec<String> {
    let valued = [
        "-f",
        "--file",
        "-C",
        "--directory",
        "-T",
        "--files-from",
        "-X",
        "--exclude-from",
    ];
    let folder = option_values(args, &["-C", "--directory"]).pop();
    operands(args, &valued)
        .into_iter()
        .map(|file| match &folder {
            Some(folder) if !file.starts_with(['/', '~']) => format!("{folder}/{file}"),
            _ => file,
        })
        .collect()
}
