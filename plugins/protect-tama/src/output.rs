//! What a command prints, where the gate can tell: the text a pipe hands
//! the next command (`echo 'rm -rf …' | sh`), a redirection writes to a
//! file (`echo … > s.sh; sh s.sh`) and a substitution puts in a command
//! (`cp /bin/true "$(which tama)"`).

use crate::prelude::*;

use shell_reader::field::UNKNOWN_TEXT;
use shell_reader::output;

use crate::commands::basename;
use crate::walk::Walker;

/// What `argv`, reading `stdin`, prints: `echo` and `printf` (as the shell
/// reader works them out), `cat` of its input or of files, programs that
/// print some of their input's lines or reshape them (`head`, `cut`, `awk
/// '{print}'`, …, taken as all of them), the filters that encode, decode,
/// reverse or translate their input or a file they name, where `tama` is
/// found (`which`, `command -v`, `type -P`, `whereis`: the `tama` running
/// now), paths resolved (`realpath`, `readlink -f`: the paths as given)
/// or cut (`dirname`, `basename`)
/// what `find` lists (names it cannot know under its folders) and what
/// interpreter code prints (each of its strings); `None` for anything else.
pub fn of(walker: &Walker<'_>, argv: &[String], stdin: Option<&str>) -> Option<String> {
    let (name, args) = argv.split_first()?;
    match basename(name) {
        "echo" => Some(output::echo(args)),
        "printf" => Some(output::printf(args)),
        "cat" => {
            let files: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
            output::input_of(&files, stdin, |file| walker.file_text(file))
        }
        "which" => found(walker, args),
        name @ ("pgrep" | "pidof") => {
            crate::signals::listed(name, args, &walker.protected.tama_binary)
        }
        "command" if args.iter().any(|a| a == "-v" || a == "-V") => found(walker, args),
        "type"
            if args
                .iter()
                .any(|a| matches!(a.as_str(), "-P" | "-p" | "-a")) =>
        {
            found(walker, args)
        }
        "whereis" => found(walker, args).map(|path| format!("tama: {path}")),
        "realpath" => Some(operands(args)),
        "dirname" | "basename" => output::path_parts(basename(name), args),
        "find" | "ls" => output::listed(basename(name), args),
        "readlink"
            if args
                .iter()
                .any(|a| matches!(a.as_str(), "-f" | "-e" | "-m")) =>
        {
            Some(operands(args))
        }
        // Some of the lines of its input, or all of them reshaped, taken as
        // all of them; else what a filter makes of it, or interpreter code.
        // `cut -c2- <<< xtama`: the columns it keeps, when known.
        "cut"
            if let Some(output) =
                output::filtered_input(name, args, stdin, |file| walker.file_text(file)) =>
        {
            Some(output)
        }
        name => match output::selected_lines_of(name, args) {
            Some(files) => output::input_of(&files, stdin, |file| walker.file_text(file)),
            None => output::filtered_input(name, args, stdin, |file| walker.file_text(file))
                .or_else(|| crate::interpreters::printed(walker, name, args, stdin)),
        },
    }
}

/// Where a lookup of `tama` by name finds it: the `tama` running now, which
/// `tama setup` wrote into the harnesses' settings by its resolved path. A
/// harness's program, and a shell or prompt (`"$(which bash)"`), is found
/// by its own name in a `bin` folder the gate cannot know.
fn found(walker: &Walker<'_>, args: &[String]) -> Option<String> {
    let binary = &walker.protected.tama_binary;
    if args.iter().any(|arg| basename(arg) == "tama") && !binary.is_empty() {
        return Some(format!("{binary}\n"));
    }
    let program = args.iter().map(|arg| basename(arg)).find(|name| {
        crate::harnesses::is_harness(name) || crate::terminal::reads_terminal(name, &[])
    })?;
    Some(format!("{UNKNOWN_TEXT}/bin/{program}\n"))
}

/// The operands of a command, one per line: what `realpath` prints of
/// paths the gate cannot resolve further.
fn operands(args: &[String]) -> String {
    crate::commands::operands(args, &[])
        .into_iter()
        .map(|arg| arg + "\n")
        .collect()
}
