//! What a command prints, where the gate can tell: the text a pipe hands
//! the next command (`echo 'rm -rf …' | sh`) and a redirection writes to a
//! file (`echo … > s.sh; sh s.sh`).

use crate::prelude::*;

use shell_reader::output;

use crate::commands::basename;
use crate::walk::Walker;

/// What `argv`, reading `stdin`, prints: `echo` and `printf` (as the shell
/// reader works them out), `cat` of its input or of files this command
/// wrote, and the filters that decode or reverse their input; `None` for
/// anything else.
pub fn of(walker: &Walker<'_>, argv: &[String], stdin: Option<&str>) -> Option<String> {
    let (name, args) = argv.split_first()?;
    match basename(name) {
        "echo" => Some(output::echo(args)),
        "printf" => Some(output::printf(args)),
        "cat" => {
            let files: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
            if files.is_empty() {
                return stdin.map(str::to_owned);
            }
            files.iter().map(|file| walker.written(file)).collect()
        }
        name => output::filtered(name, args, stdin?),
    }
}
