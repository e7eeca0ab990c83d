//! `cmake -E`, CMake's portable file commands, read as the shell commands
//! they stand for, and `cmake -P`'s script, read as interpreter code.

use crate::prelude::*;

use crate::walk::{Result, Walker};

/// Checks `cmake args…`: each `-E` command as the shell command that does
/// the same, and a script `-P` runs, when the command wrote it, as code
/// that may change files (a repository's own scripts, as its makefiles,
/// hold what its user runs on purpose).
pub fn check(walker: &mut Walker<'_>, args: &[String]) -> Result<()> {
    if let Some(at) = args.iter().position(|arg| arg == "-E")
        && let Some(command) = shell_reader::runners::cmake_command(&args[at + 1..])
    {
        walker.child_source_if_shell(&command)?;
    }
    let scripts = crate::commands::option_values(args, &["-P"]);
    for script in scripts {
        if let Some(text) = walker.written(&script).map(str::to_owned) {
            crate::interpreters::check(walker, &text)?;
        }
    }
    Ok(())
}
