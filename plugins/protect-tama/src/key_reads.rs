//! Commands that read every file under the folders they name (`cp -r`,
//! `tar -c`, `grep -r`, …): naming a folder that holds Tama's control key
//! reads the key too, and a copy or an archive of that folder is a copy of
//! the key, readable later where the gate no longer sees it.

use crate::prelude::*;

use crate::commands::{operands, short_flags};
use crate::walk::{Result, Walker, shown};

/// Refuses `name args…` when it reads the files under a folder that holds
/// the control key.
pub fn check(walker: &Walker<'_>, name: &str, args: &[String]) -> Result<()> {
    let Some(reads_working_folder) = reads_recursively(name, args) else {
        return Ok(());
    };
    let mut folders = operands(args, &[]);
    // A search's first operand is its pattern; with no folder after it, it
    // searches the working folder.
    if reads_working_folder && folders.len() <= 1 {
        folders.push(".".to_owned());
    }
    for folder in &folders {
        if walker.protected.holds_key(&walker.resolve(folder)) {
            return Err(format!(
                "`{name}` reads every file under `{}`, Tama's control key among them, which only the operator's `tama sessions` commands may read or write; name the files it needs instead",
                shown(folder)
            ));
        }
    }
    Ok(())
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
        "rsync" | "7z" | "7za" => true,
        "zip" => flag(&['r'], &["--recurse-paths"]),
        "tar" | "bsdtar" => {
            flag(&['c', 'r', 'u'], &["--create", "--append", "--update"])
                || args
                    .first()
                    .is_some_and(|first| !first.starts_with('-') && first.contains('c'))
        }
        "grep" | "egrep" | "fgrep" => {
            let recursive = flag(&['r', 'R'], &["--recursive", "--dereference-recursive"]);
            return recursive.then_some(true);
        }
        // ripgrep and ag skip hidden folders such as `.tama` unless told not to.
        "rg" | "ag" => {
            let hidden = flag(&['.'], &["--hidden", "-uu", "-uuu", "--unrestricted"]);
            return hidden.then_some(true);
        }
        "find" => args
            .iter()
            .any(|arg| matches!(arg.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir")),
        _ => false,
    };
    recursive.then_some(false)
}
