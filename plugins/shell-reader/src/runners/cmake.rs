//! `cmake -E`'s commands, as the shell commands that do the same.

use crate::prelude::*;

use crate::interpreters::quoted;

/// The shell command that does the work of `cmake -E <words>` (CMake's
/// portable file commands), if it changes files or runs a command:
/// `cmake -E rename A B` is `mv A B`, `cmake -E chdir DIR cmd…` runs `cmd`
/// in DIR.
pub fn cmake_command<W: AsRef<str>>(words: &[W]) -> Option<String> {
    let (command, rest) = words.split_first()?;
    let command = command.as_ref();
    let quoted_words = |words: &[W]| -> String {
        words
            .iter()
            .map(|word| quoted(word.as_ref()))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let program = match command {
        "copy" | "copy_if_different" => "cp",
        "copy_directory" | "copy_directory_if_different" => "cp -rT",
        "rename" => "mv",
        "remove" | "rm" => "rm -f",
        "remove_directory" => "rm -rf",
        "make_directory" => "mkdir -p",
        "touch" | "touch_nocreate" => "touch",
        "create_symlink" => "ln -s",
        "create_hardlink" => "ln",
        "cat" => "cat",
        "tar" => "tar",
        "env" => "env",
        "time" => "",
        // `chdir DIR cmd…`: the command runs in DIR.
        "chdir" => {
            let (folder, command) = rest.split_first()?;
            return Some(format!(
                "cd {} && {}",
                quoted(folder.as_ref()),
                quoted_words(command)
            ));
        }
        _ => return None,
    };
    // cmake's own options of `rm` and `remove` (`-r`, `-f`) are not files.
    let removes = matches!(command, "rm" | "remove" | "remove_directory");
    let rest: Vec<&str> = rest
        .iter()
        .map(AsRef::as_ref)
        .filter(|word| !(removes && word.starts_with('-')))
        .collect();
    let rest: Vec<String> = rest.iter().map(|word| quoted(word)).collect();
    Some(format!("{program} {}", rest.join(" ")).trim().to_owned())
}
