//! Code for interpreters other than the shell (`python -c`, `node -e`,
//! `perl -e`, `ruby -e`, `php -r`, awk programs, `lua -e`, `Rscript -e`,
//! `julia -e`, `osascript -e`, `emacs --eval`, `tclsh`, and source handed
//! to a compiler, `gcc -x c -` or `go run`): where a command takes its
//! code from, and what the code's string literals hold once joined and
//! filled in. The code is never run; a gate reads the strings it could hand
//! to a shell or to `exec`.
//!
//! Written here rather than taken from a crate: the gates are built without
//! `std`, and what is needed is not a parser for five languages but their
//! common ground, quotes, escapes, `+`/`.` joins and plain assignments, read
//! the same way whatever the language.

use crate::prelude::*;

mod methods;
mod strings;
#[cfg(test)]
mod tests;

pub use strings::{Strings, quoted, strings};

/// How many times a gate reads a string of code again as code
/// ([`Strings::nested_code`]).
pub const MAX_CODE_DEPTH: u32 = 3;

/// A language whose code a command runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Language {
    Python,
    JavaScript,
    Ruby,
    Perl,
    Php,
    Awk,
    Lua,
    R,
    Julia,
    /// macOS's `osascript`, whose `do shell script` runs a shell.
    AppleScript,
    /// Emacs Lisp (`emacs --batch --eval`), whose shell calls `runners` reads.
    Lisp,
    /// Tcl (`tclsh`, `wish`), whose `exec` runs programs.
    Tcl,
    /// Source that a compiler builds for the command to run: C and C++
    /// (`cc`, `gcc`, `clang`, `tcc -run`), Go, Rust, Java, Swift, Kotlin,
    /// Haskell, Zig, Nim and D. Read where the command gives it: on its
    /// input, or in a file the command wrote.
    Compiled,
}

impl Language {
    /// The language `command` runs code in: `python3.12`, `/usr/bin/node`,
    /// `gawk`. Looked up for every command a gate reads, so matched as
    /// bytes, which compiles to a tree of compares.
    pub fn of(command: &str) -> Option<Self> {
        let base = command.rsplit_once('/').map_or(command, |(_, base)| base);
        let bytes = base.as_bytes();
        let version = bytes
            .iter()
            .rev()
            .take_while(|byte| byte.is_ascii_digit() || **byte == b'.')
            .count();
        Some(match bytes.get(..bytes.len() - version)? {
            b"python" | b"pypy" | b"uv" => Self::Python,
            b"node" | b"nodejs" | b"bun" | b"deno" => Self::JavaScript,
            b"ruby" => Self::Ruby,
            b"perl" => Self::Perl,
            b"php" => Self::Php,
            b"awk" | b"gawk" | b"mawk" | b"nawk" => Self::Awk,
            b"lua" | b"luajit" => Self::Lua,
            b"Rscript" | b"R" => Self::R,
            b"julia" => Self::Julia,
            b"osascript" => Self::AppleScript,
            b"emacs" | b"emacs-nox" | b"emacsclient" => Self::Lisp,
            b"tclsh" | b"wish" | b"jimsh" => Self::Tcl,
            b"cc" | b"c++" | b"gcc" | b"gcc-" | b"g++" | b"g++-" | b"clang" | b"clang-"
            | b"clang++" | b"clang++-" | b"tcc" | b"go" | b"rustc" | b"javac" | b"java"
            | b"jshell" | b"swift" | b"swiftc" | b"kotlinc" | b"kotlin" | b"ghc" | b"runghc"
            | b"runhaskell" | b"zig" | b"nim" | b"dmd" | b"rdmd" | b"ldc" => Self::Compiled,
            _ => return None,
        })
    }

    /// The language of a script by its file name's extension: `tool.py`,
    /// `build.mjs`, `report.R`.
    pub fn of_script(name: &str) -> Option<Self> {
        let (_, extension) = name.rsplit_once('.')?;
        Some(match extension {
            "py" | "pyw" => Self::Python,
            "js" | "mjs" | "cjs" | "ts" | "mts" | "cts" => Self::JavaScript,
            "rb" => Self::Ruby,
            "pl" | "pm" => Self::Perl,
            "php" => Self::Php,
            "awk" => Self::Awk,
            "lua" => Self::Lua,
            "R" | "r" => Self::R,
            "jl" => Self::Julia,
            "applescript" | "scpt" => Self::AppleScript,
            "el" => Self::Lisp,
            "tcl" => Self::Tcl,
            // Source files of compiled languages are left out: build tools
            // the gate cannot follow compile them, and a program's own
            // source spells its paths and file calls side by side.
            _ => return None,
        })
    }

    /// A shell command that runs `code` in this language: how a gate reads
    /// a script written now as the command that runs it later.
    pub fn command_running(self, code: &str) -> String {
        let (program, option) = match self {
            Self::Python => ("python3", "-c"),
            Self::JavaScript => ("node", "-e"),
            Self::Ruby => ("ruby", "-e"),
            Self::Perl => ("perl", "-e"),
            Self::Php => ("php", "-r"),
            Self::Awk => ("awk", "--"),
            Self::Lua => ("lua", "-e"),
            Self::R => ("Rscript", "-e"),
            Self::Julia => ("julia", "-e"),
            Self::AppleScript => ("osascript", "-e"),
            Self::Tcl | Self::Compiled => {
                let program = if self == Self::Tcl {
                    "tclsh"
                } else {
                    "tcc -run"
                };
                return format!("{program} - <<< {}", quoted(code));
            }
            Self::Lisp => {
                return format!(
                    "emacs --batch --eval {}",
                    quoted(&format!("(progn {code})"))
                );
            }
        };
        format!("{program} {option} {}", quoted(code))
    }

    /// The options whose value is code, and those whose value is something else.
    fn options(self) -> (&'static [&'static str], &'static [&'static str]) {
        match self {
            Self::Python => (&["-c"], &["-W", "-X", "-Q"]),
            Self::JavaScript => (
                &["-e", "--eval", "-p", "--print", "eval"],
                &["-r", "--require", "--import", "--loader"],
            ),
            Self::Ruby => (&["-e"], &["-I", "-r", "-C"]),
            Self::Perl => (&["-e", "-E"], &["-I", "-M", "-m"]),
            Self::Php => (&["-r"], &["-c", "-d", "-z"]),
            Self::Awk => (&[], &["-F", "-v", "--field-separator", "--assign"]),
            Self::Lua => (&["-e"], &["-l"]),
            Self::R => (&["-e"], &[]),
            Self::Julia => (&["-e", "--eval", "-E", "--print"], &["-L", "--load"]),
            Self::AppleScript => (&["-e"], &["-l"]),
            Self::Lisp => (&["--eval", "-eval", "--execute", "-execute"], &[]),
            Self::Tcl => (&[], &[]),
            Self::Compiled => (
                &[],
                &[
                    "-o",
                    "-x",
                    "-I",
                    "-L",
                    "-D",
                    "-U",
                    "-include",
                    "-isystem",
                    "-MF",
                    "-MT",
                    "--edition",
                    "--crate-type",
                    "--crate-name",
                    "--extern",
                    "--cfg",
                    "--target",
                    "-cp",
                    "-classpath",
                    "--class-path",
                    "--source",
                ],
            ),
        }
    }

    fn comment_starts(self, rest: &str) -> bool {
        match self {
            Self::JavaScript | Self::Compiled => rest.starts_with("//"),
            Self::Php => rest.starts_with("//") || rest.starts_with('#'),
            Self::Lua => rest.starts_with("--"),
            Self::AppleScript => rest.starts_with("--") || rest.starts_with('#'),
            Self::Lisp => rest.starts_with(';'),
            _ => rest.starts_with('#'),
        }
    }
}

/// Where a command takes its code from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Source<'a> {
    /// Given on the command line (`-c`, `-e`, awk's program).
    Text(&'a str),
    /// A script file.
    File(&'a str),
    /// Standard input: no script named, or `-`.
    Stdin,
}

/// Where `args` (after the command's name) have `language` take its code.
/// Code options count wherever they stand (`uv run python -c …`); without
/// one, the first operand is the script.
pub fn sources<W: AsRef<str>>(language: Language, args: &[W]) -> Vec<Source<'_>> {
    let (code_options, value_options) = language.options();
    let mut found = Vec::new();
    let mut operand = None;
    let mut index = 0;
    while let Some(arg) = args.get(index).map(AsRef::as_ref) {
        index += 1;
        let next = args.get(index).map(AsRef::as_ref);
        if code_options.contains(&arg) || perl_code_cluster(language, arg) {
            found.extend(next.map(Source::Text));
            index += 1;
        } else if let Some(code) = attached(arg, code_options) {
            found.push(Source::Text(code));
        } else if language == Language::Awk && matches!(arg, "-f" | "--file")
            || language == Language::Lisp
                && matches!(arg, "-l" | "--load" | "-load" | "--script" | "-script")
        {
            found.extend(next.map(Source::File));
            index += 1;
        } else if value_options.contains(&arg) {
            index += 1;
        } else if language == Language::Python && arg == "-m" {
            // A module runs, not code the command gives.
            return found;
        } else if language == Language::Compiled && (arg == "-" || !arg.starts_with('-')) {
            // Every operand may be a source file (`go run a.go b.go`).
            found.push(if arg == "-" {
                Source::Stdin
            } else {
                Source::File(arg)
            });
        } else if operand.is_none()
            && (arg == "-" || !arg.starts_with('-'))
            && !(language == Language::JavaScript && arg == "run")
        {
            operand = Some(arg);
        }
    }
    // Emacs's operands are files to visit, not code; a compiler's are
    // taken above.
    if found.is_empty() && !matches!(language, Language::Lisp | Language::Compiled) {
        found.push(match operand {
            Some(program) if language == Language::Awk => Source::Text(program),
            None | Some("-") => Source::Stdin,
            Some(file) => Source::File(file),
        });
    }
    found
}

/// perl's `-ne`, `-pe`, `-lane`: single-letter switches ending in `-e`.
fn perl_code_cluster(language: Language, arg: &str) -> bool {
    matches!(language, Language::Perl | Language::Ruby)
        && arg.len() > 2
        && arg.starts_with('-')
        && !arg.starts_with("--")
        && arg.bytes().skip(1).all(|byte| byte.is_ascii_alphabetic())
        && (arg.ends_with('e') || arg.ends_with('E'))
}

/// `-cCODE`, `--eval=CODE`.
fn attached<'a>(arg: &'a str, options: &[&str]) -> Option<&'a str> {
    options.iter().find_map(|option| {
        if option.starts_with("--") {
            arg.strip_prefix(option)?.strip_prefix('=')
        } else if option.len() == 2 && !arg.starts_with("--") {
            arg.strip_prefix(option).filter(|rest| !rest.is_empty())
        } else {
            None
        }
    })
}

/// Code that writes, moves, deletes or re-modes a file, or runs a shell.
const CHANGES: &[&str] = &[
    "'w",
    "\"w",
    "'a",
    "\"a",
    "'x'",
    "\"x\"",
    "r+",
    "mode=",
    "write",
    "append",
    "unlink",
    "remove",
    "rmtree",
    "rmdir",
    "rmsync",
    "rename",
    "replace",
    "chmod",
    "chown",
    "symlink",
    "link(",
    "truncate",
    "copy",
    "move",
    "mkdir",
    "delete",
    "system",
    "subprocess",
    "popen",
    "spawn",
    "exec",
    "fileutils",
    "'>",
    "\">",
    "`",
    "dump(",
    "utime",
    "touch",
    // Julia's `rm`, `mv` and `cp`; `open` for writing in C; `File::create`, `os.Create`.
    "rm(",
    "mv(",
    "cp(",
    "o_wronly",
    "o_rdwr",
    "o_trunc",
    "create(",
    // Opens whose mode is a number or a call (`os.open(p, 513)`,
    // `fs.openSync(p, 577)`, `open(p, chr(119))`), Perl's `sysopen`, its
    // quoted modes (`q{>}`) and read-write opens (`+<`).
    "os.open(",
    "opensync(",
    "fs.open(",
    "chr(",
    "sysopen",
    "q{>",
    "q(>",
    "q[>",
    "q/>",
    "+<",
    // Emacs Lisp's own.
    "with-temp-file",
    "file-modes",
    "symbolic-link",
    "make-directory",
];

/// Whether code, lower-cased, may write, move, delete or re-mode a file or
/// run a shell, by the names and modes of the calls that do in each
/// language. A marker, not a reading: a gate pairs it with a path the code
/// spells.
pub fn changes_files(lowered_code: &str) -> bool {
    CHANGES.iter().any(|marker| lowered_code.contains(marker))
}

/// Whether an awk program sends what it prints to a file or a command:
/// `print … > FILE`, `>> FILE`, `| CMD` within one statement, where awk
/// reads `>` as a redirection, never a comparison.
pub fn awk_redirects(code: &str) -> bool {
    code.match_indices("print").any(|(at, _)| {
        // The statement's end, and its redirection, outside its strings.
        let mut in_string = false;
        let mut escaped = false;
        for c in code[at..].chars() {
            match c {
                _ if escaped => escaped = false,
                '\\' if in_string => escaped = true,
                '"' => in_string = !in_string,
                ';' | '}' | '\n' if !in_string => return false,
                '>' | '|' if !in_string => return true,
                _ => {}
            }
        }
        false
    })
}

/// Whether code calls out to other programs, by the names of the calls
/// that do in each language.
pub fn runs_programs(code: &str) -> bool {
    const CALLS: &[&str] = &[
        "subprocess",
        "system",
        "popen",
        "exec",
        "spawn",
        "`",
        "getoutput",
        "check_output",
        "shell_exec",
        "passthru",
        "proc_open",
        "Command(",
        "%x",
        "qx",
        "$(",
        // A pipe opened by mode or by a `|` at either end of the command
        // (Perl's and Ruby's `open`).
        "\"|",
        "'|",
        "|\"",
        "|'",
        "execute",
        "shell script",
        "run(",
        "ProcessBuilder",
    ];
    CALLS.iter().any(|call| code.contains(call))
}

/// Whether code reads its environment's variables, by the names the
/// languages read them with.
pub fn reads_environment(code: &str) -> bool {
    const READS: &[&str] = &[
        "environ",
        "getenv",
        "process.env",
        "$ENV",
        "ENV[",
        "ENV.fetch",
        "ENVIRON",
        "Sys.getenv",
    ];
    READS.iter().any(|read| code.contains(read))
}

/// Whether code reads its standard input, by the names the languages
/// read it with.
pub fn reads_input(code: &str) -> bool {
    const READS: &[&str] = &[
        "stdin",
        "STDIN",
        "input(",
        "readline",
        "gets",
        "getline",
        "<>",
        "readFileSync(0",
        "io.read",
        "readLines(",
    ];
    READS.iter().any(|read| code.contains(read))
}

/// Whether `code`, run with `args`, prints: by the calls each language
/// prints with, or as `node -p` and `julia -E` print their code's value.
/// What it may print is then [`Strings::printed`].
pub fn prints<W: AsRef<str>>(code: &str, language: Language, args: &[W]) -> bool {
    const PRINTS: &[&str] = &[
        "print", "puts", "console.", "stdout", "say", "echo", "write", "cat(", "display",
    ];
    let prints_value = args.iter().any(|arg| match language {
        Language::JavaScript => matches!(arg.as_ref(), "-p" | "--print"),
        Language::Julia => matches!(arg.as_ref(), "-E" | "--print"),
        _ => false,
    });
    prints_value || PRINTS.iter().any(|call| code.contains(call))
}
