//! A program started to read its commands from the terminal: a shell or an
//! interpreter given nothing to run, a database client or debugger that
//! runs shell commands, an editor or pager with a shell escape, a terminal
//! multiplexer or a user switch opening a shell. Codex sends what is typed
//! into a command it left running with its `write_stdin` tool, and Codex
//! runs no hook for that tool (checked with Codex 0.171.0): a `bash` started
//! so would run every later command past Tama. oh-my-pi's `hub` sends text
//! to a program it started, a piece per call, so a command typed in two
//! pieces passes each reading. Input the command gives it (a pipe, a file, a
//! here-document) is read as its script elsewhere. The pagers and editors
//! other programs open (`git log`, `git commit`) take no typed commands in
//! Codex, whose set-up gives them `cat`, `true` and `LESSSECURE=1`: a
//! command changing those back is refused ([`check_typing_guards`]).

use crate::prelude::*;

use crate::commands::{basename, option_values};
use crate::loaded::SHELLS;
use crate::walk::Result;
use shell_reader::field::UNKNOWN_TEXT;
use shell_reader::interpreters::{self, Language, Source};
use shell_reader::runners::{Runs, ShellArgs};

/// What a command reading the terminal (`cat`, `read`) takes from it: text
/// typed later, which no hook reads whole.
pub const TYPED: &str = "\u{FFFC}typed\u{FFFC}";

/// [`TYPED`] as a line of output: what `cat` prints of the terminal.
pub fn typed_line() -> String {
    format!("{TYPED}\n")
}

/// Refuses running `text` (as shell, as code, as a command) that holds what
/// is typed into the terminal later (`eval "$(cat)"`, `read l; bash -c
/// "$l"`), or what is read from a file the gate could not read (`bash <
/// pipe`).
pub fn refuse_typed(text: &str) -> Result<()> {
    // Both marks start with U+FFFC, which a command seldom holds.
    if !text.contains('\u{FFFC}') {
        return Ok(());
    }
    if let Some((path, why)) = shell_reader::disk::unread_in(text) {
        return Err(format!(
            "the tool call runs commands it reads from `{path}`, which protect-tama could not read ({why}): a named pipe's text comes later, from a writer no hook sees. Run those commands as a tool call of their own"
        ));
    }
    if !text.contains(TYPED) {
        return Ok(());
    }
    Err("the tool call runs text that comes later (typed into the terminal and read by `cat`, `read` or `xargs`, sent to a port it listens on, or appended to a file it follows): it reaches Tama's hooks in pieces or not at all (Codex runs no hook for `write_stdin`). Run each command as a tool call of its own".to_owned())
}

/// Refuses `name args…` when it reads its commands from the terminal:
/// `terminal_input` says nothing else feeds its standard input.
pub fn check(name: &str, args: &[String], terminal_input: bool) -> Result<()> {
    let Some(what) = reader(name, args, terminal_input) else {
        return Ok(());
    };
    Err(format!(
        "the tool call starts `{}` {what}: what is typed into it later reaches Tama's hooks in pieces or not at all (Codex runs no hook for `write_stdin`). Run each command as a tool call of its own",
        shown_call(name, args)
    ))
}

/// Whether `name args…`, run with the terminal as its input, reads its
/// commands from it.
pub fn reads_terminal(name: &str, args: &[String]) -> bool {
    reader(name, args, true).is_some()
}

/// How `name args…` reads commands from the terminal, if it does.
fn reader(name: &str, args: &[String], terminal_input: bool) -> Option<&'static str> {
    const SHELL: &str = "as a shell reading its commands from the terminal";
    const REPL: &str = "reading code from the terminal";
    const ESCAPE: &str = "in the terminal, where a typed command runs in a shell";
    let flag = |flags: &[&str]| args.iter().any(|arg| flags.contains(&arg.as_str()));
    // A program asked for its version or help prints it and ends.
    if flag(&["--version", "--help", "-V"]) {
        return None;
    }
    // These pagers read keys from the terminal even when their input is a
    // pipe, and `!` runs a shell (`less` runs in its secure mode for Codex).
    if matches!(name, "more" | "most" | "pg") {
        return Some(ESCAPE);
    }
    if !terminal_input {
        return None;
    }
    let operands = || args.iter().filter(|arg| !arg.starts_with('-')).count();
    let interactive = flag(&["-i", "--interactive"]);
    if runs_typed_code(name, args) || (matches!(name, "sed" | "gsed") && sed_runs_lines(args)) {
        return Some("running what is typed into it as commands");
    }
    match name {
        _ if SHELLS.contains(&name) => shell_reads_input(name, args).then_some(SHELL),
        // Other shells: no command string (`-c`, pwsh's `-Command`) and no script.
        _ if OTHER_SHELLS.contains(&name) => {
            let runs = operands() > 0
                || args.iter().any(|arg| {
                    let option = arg.trim_start_matches('-').to_ascii_lowercase();
                    matches!(
                        option.as_str(),
                        "c" | "command" | "commands" | "file" | "f" | "encodedcommand"
                    )
                });
            (!runs).then_some(SHELL)
        }
        // Programs that start the user's shell when given no command.
        "unshare" | "nsenter" | "fakeroot" | "firejail" | "pkexec" | "proot" => Some(SHELL),
        "zellij" => args
            .first()
            .is_none_or(|first| !ZELLIJ_COMMANDS.contains(&first.as_str()))
            .then_some(SHELL),
        "dtach" | "abduco" => flag(&["-a", "-A", "-c"]).then_some(SHELL),
        // A user switch or `script` runs its `-c` string, else a shell.
        "su" | "login" | "newgrp" | "sg" | "script" => command_string(args)
            .is_none_or(starts_reader)
            .then_some(SHELL),
        "sudo" | "doas" => flag(&["-s", "-i", "--shell", "--login"]).then_some(SHELL),
        // `expect -c 'spawn bash; interact'` hands the terminal to what it spawned.
        "expect" if args.iter().any(|arg| arg.contains("interact")) => Some(SHELL),
        // A makefile read from the terminal runs the recipes typed into it.
        "make" | "gmake" => option_values(args, &["-f", "--file", "--makefile"])
            .first()
            .is_some_and(|makefile| is_standard_input(makefile))
            .then_some(SHELL),
        // A session started in the background (`tmux new -d`, `screen -dmS`)
        // is typed into by `send-keys`, read elsewhere; one attached to is
        // typed into directly.
        "tmux" | "screen" | "byobu" => {
            let detached = args
                .iter()
                .any(|arg| arg.starts_with("-d") || arg.starts_with("-D"));
            let attaches = args
                .first()
                .is_none_or(|first| ATTACHING.contains(&first.as_str()));
            (attaches && !detached).then_some(SHELL)
        }
        "chroot" => (operands() <= 1).then_some(SHELL),
        "source" | "." => args
            .first()
            .is_some_and(|script| is_standard_input(script))
            .then_some(SHELL),
        // `parallel` with no command runs each line it reads as one.
        "parallel" => (operands() == 0).then_some(SHELL),
        // `at` and `batch` run later what they read; `crontab -` installs it.
        "at" | "batch" => (!flag(&["-f", "-l", "-r", "-d", "-c", "-V"])
            && !args.iter().any(|arg| arg == "-q" || arg.starts_with("-l")))
        .then_some(SHELL),
        "crontab" => flag(&["-"]).then_some(SHELL),
        "ssh" | "mosh" => {
            (ssh_operands(args) <= 1 && !flag(&["-N", "-f", "-O", "-V", "-G"])).then_some(SHELL)
        }
        _ if is_python(name) => {
            let module = args
                .iter()
                .position(|arg| arg == "-m")
                .and_then(|at| args.get(at + 1));
            if module.is_some_and(|module| PYTHON_PROMPTS.contains(&module.as_str())) {
                return Some(REPL);
            }
            (interactive || !(flag(&["-c", "-m"]) || operands() > 0)).then_some(REPL)
        }
        "node" | "nodejs" => {
            let runs = flag(&NODE_RUNS) || args.iter().any(|arg| !arg.starts_with('-'));
            (interactive || !runs).then_some(REPL)
        }
        "deno" => (args.is_empty() || flag(&["repl"])).then_some(REPL),
        "bun" => flag(&["repl"]).then_some(REPL),
        "php"
            if args
                .first()
                .is_some_and(|script| script.ends_with("artisan"))
                && args.iter().any(|arg| arg == "tinker") =>
        {
            Some(REPL)
        }
        "ruby" | "perl" | "php" | "lua" | "luajit" | "R" | "julia" | "ghci" | "guile" | "sbcl"
        | "racket" | "tclsh" | "wish" => {
            // PHP's `-i`, `-m` and `-v` print what it was built with and end.
            let runs = flag(&["-e", "-E", "-r", "--eval", "-f", "--file"])
                || operands() > 0
                || (name == "php" && flag(&["-i", "-m", "-v", "--info", "--modules"]));
            let debugger = name == "perl" && args.iter().any(|arg| arg.starts_with("-d"));
            // Perl's and Ruby's `-i` edits files in place, PHP's prints its
            // configuration; PHP's prompt is `-a`.
            let prompt = match name {
                "perl" | "ruby" => false,
                "php" => flag(&["-a"]),
                _ => interactive,
            };
            (debugger || prompt || !runs).then_some(REPL)
        }
        "iex" => Some(REPL),
        "irb" | "pry" | "ipython" | "ipython3" | "bpython" | "ptpython" | "utop" | "jshell"
        | "groovysh" | "expect" | "octave" | "dc" | "spark-shell" | "pyspark" | "scala" | "erl"
        | "ocaml" | "kotlinc" | "swift" => {
            let runs = flag(&["-c", "-e", "--eval", "-f", "-noshell", "-eval", "-script"])
                || operands() > 0;
            (!runs).then_some(REPL)
        }
        "clojure" | "clj" => {
            let runs = operands() > 0
                || args.iter().any(|arg| {
                    ["-M", "-X", "-T", "-e", "-m", "-P", "-S"]
                        .iter()
                        .any(|option| arg.starts_with(option))
                });
            (!runs).then_some(REPL)
        }
        // A framework's console: `rails console`, `php artisan tinker`, `lein repl`.
        "rails" | "artisan" | "lein" | "sbt" | "cabal" | "stack" | "jupyter" => args
            .iter()
            .any(|arg| FRAMEWORK_PROMPTS.contains(&arg.as_str()))
            .then_some(REPL),
        "mongosh" | "mongo" => {
            let runs =
                flag(&["--eval", "-f", "--file"]) || args.iter().any(|arg| arg.ends_with(".js"));
            (!runs).then_some(REPL)
        }
        "sqlite3" | "duckdb" | "psql" | "mysql" | "mariadb" => {
            let runs = flag(&["-c", "--command", "-f", "--file", "-e", "--execute", "-cmd"])
                || (matches!(name, "sqlite3" | "duckdb") && operands() > 1);
            (!runs).then_some(ESCAPE)
        }
        "gdb" | "lldb" | "pdb" | "ipdb" | "pudb" | "ftp" | "sftp" | "lftp" => {
            (!flag(&["-batch", "--batch", "-b", "-ex"])).then_some(ESCAPE)
        }
        "vi" | "vim" | "nvim" | "view" | "ex" => (!editor_quits(args)).then_some(ESCAPE),
        "ed" | "red" | "emacs" | "nano" | "pico" | "mc" | "ranger" | "nnn" => {
            (!flag(&["--batch", "-batch", "-s"])).then_some(ESCAPE)
        }
        "emacsclient" => flag(&["-t", "-nw", "--tty"]).then_some(ESCAPE),
        "git" => git_tool_opens_editor(args).then_some(ESCAPE),
        "man" => option_values(args, &["-P", "--pager"])
            .first()
            .and_then(|pager| pager.split_whitespace().next())
            .is_some_and(|pager| basename(pager) != "less" && TYPED_INTO.contains(&basename(pager)))
            .then_some(ESCAPE),
        _ if ESCAPING.contains(&name) => Some(ESCAPE),
        _ => crate::containers::reader(name, args),
    }
}

/// Shells besides the POSIX family's [`SHELLS`], whose options differ.
const OTHER_SHELLS: &[&str] = &[
    "nu",
    "nushell",
    "xonsh",
    "pwsh",
    "powershell",
    "elvish",
    "murex",
    "ion",
    "osh",
    "ysh",
    "oil",
    "yash",
    "rc",
    "es",
    "posh",
    "ash",
    "hush",
    "loksh",
    "oksh",
    "pdksh",
    "toybox",
];

/// Editors, file managers and other full-screen programs in which a typed
/// key or command runs a shell (`:sh`, `!`): they read the terminal even
/// when given a file.
const ESCAPING: &[&str] = &[
    "hx",
    "helix",
    "micro",
    "kak",
    "joe",
    "jed",
    "mg",
    "ne",
    "vis",
    "mcedit",
    "zile",
    "tig",
    "lazygit",
    "gitui",
    "vifm",
    "lf",
    "yazi",
    "broot",
    "xplr",
    "ncdu",
    "w3m",
    "lynx",
    "links",
    "elinks",
    "mutt",
    "neomutt",
    "aerc",
    "alpine",
    "k9s",
    "lazydocker",
];

/// Python's modules that read code or debugger commands from the terminal.
const PYTHON_PROMPTS: &[&str] = &[
    "pdb", "code", "asyncio", "IPython", "ptpython", "bpython", "pudb", "ipdb",
];

/// The words that open a framework's console or prompt.
const FRAMEWORK_PROMPTS: &[&str] = &["console", "c", "tinker", "repl", "ghci", "dbconsole", "db"];

/// zellij's words that do not open or attach to a session.
const ZELLIJ_COMMANDS: &[&str] = &[
    "action",
    "run",
    "edit",
    "list-sessions",
    "ls",
    "kill-session",
    "k",
    "kill-all-sessions",
    "delete-session",
    "d",
    "delete-all-sessions",
    "setup",
    "options",
    "plugin",
    "pipe",
    "-V",
    "--version",
    "-h",
    "--help",
];

/// Whether interpreter code given on the command line (`awk
/// '{system($0)}'`, `perl -ne 'system $_'`) reads its input, here the
/// terminal, and runs programs.
fn runs_typed_code(name: &str, args: &[String]) -> bool {
    const READS_INPUT: &[&str] = &[
        "stdin",
        "input(",
        "<>",
        "gets",
        "readline",
        "argf",
        "fileinput",
        "getline",
        "read(",
    ];
    let Some(language) = Language::of(name) else {
        return false;
    };
    let line_loop = matches!(language, Language::Perl | Language::Ruby)
        && args.iter().any(|arg| {
            arg.strip_prefix('-')
                .is_some_and(|cluster| !cluster.starts_with('-') && cluster.contains(['n', 'p']))
        });
    interpreters::sources(language, args).iter().any(|source| {
        let Source::Text(code) = source else {
            return false;
        };
        let lowered = code.to_ascii_lowercase();
        let awk_reads = language == Language::Awk
            && !lowered.trim_start().starts_with("begin")
            && args
                .iter()
                .skip_while(|arg| arg.as_str() != *code)
                .nth(1)
                .is_none();
        let reads =
            line_loop || awk_reads || READS_INPUT.iter().any(|marker| lowered.contains(marker));
        reads && interpreters::runs_programs(code)
    })
}

/// Whether `git args…` is a `difftool` or `mergetool` that opens a
/// terminal editor (vim, by git's own choice when no tool is named), whose
/// `:!` runs a shell; a tool named outside the terminal, `-x` or
/// `--tool-help` pass.
fn git_tool_opens_editor(args: &[String]) -> bool {
    const TERMINAL_TOOLS: &[&str] = &[
        "vimdiff",
        "vimdiff1",
        "vimdiff2",
        "vimdiff3",
        "nvimdiff",
        "nvimdiff1",
        "nvimdiff2",
        "nvimdiff3",
        "emerge",
        "vim",
        "nvim",
    ];
    let mut words = args.iter().map(String::as_str);
    let subcommand = loop {
        match words.next() {
            Some("-C" | "-c" | "--git-dir" | "--work-tree" | "--namespace") => {
                words.next();
            }
            Some(option) if option.starts_with('-') => {}
            Some(subcommand) => break subcommand,
            None => return false,
        }
    };
    if !matches!(subcommand, "difftool" | "mergetool") {
        return false;
    }
    let rest: Vec<String> = words.map(str::to_owned).collect();
    let runs_other = rest
        .iter()
        .any(|word| word == "--tool-help" || word == "-x" || word.starts_with("--extcmd"));
    let tool = option_values(&rest, &["-t", "--tool"]);
    !runs_other
        && tool
            .first()
            .is_none_or(|tool| TERMINAL_TOOLS.contains(&tool.as_str()))
}

/// The command string a `-c` option gives (`-c cmd`, `-qc cmd`,
/// `--command=cmd`), if one is given.
fn command_string(args: &[String]) -> Option<&str> {
    args.iter().enumerate().find_map(|(at, arg)| {
        if let Some(command) = arg.strip_prefix("--command=") {
            return Some(command);
        }
        let short = arg.strip_prefix('-').is_some_and(|cluster| {
            !cluster.starts_with('-')
                && cluster.ends_with('c')
                && cluster.chars().all(|c| c.is_ascii_alphabetic())
        });
        (short || arg == "--command")
            .then(|| args.get(at + 1).map(String::as_str))
            .flatten()
    })
}

/// Whether shell text starts a program that reads its commands from the
/// terminal (`su -c bash`).
fn starts_reader(command: &str) -> bool {
    let words: Vec<String> = command.split_whitespace().map(str::to_owned).collect();
    words
        .split_first()
        .is_some_and(|(program, args)| reads_terminal(basename(program), args))
}

/// Whether GNU sed, given `args` and reading its input, runs lines as
/// commands: its bare `e` command (`sed e`, `1e`) or the `e` flag of `s`
/// (`s/^/x/e`). Given a file to read, it reads no terminal.
fn sed_runs_lines(args: &[String]) -> bool {
    let expressions = option_values(args, &["-e", "--expression"]);
    let operands = crate::commands::operands(args, &["-e", "--expression", "-f", "--file", "-l"]);
    let (scripts, files) = if expressions.is_empty() {
        match operands.split_first() {
            Some((script, files)) => (vec![script.clone()], files.len()),
            None => return false,
        }
    } else {
        (expressions, operands.len())
    };
    let runs = |piece: &str| {
        let command = piece
            .trim()
            .trim_start_matches(|c: char| c.is_ascii_digit() || "$,".contains(c));
        // `e` alone runs the line; `e command` runs its own command.
        if command == "e" {
            return true;
        }
        let mut chars = command.chars();
        match (chars.next(), chars.next()) {
            (Some('s'), Some(delimiter)) if !delimiter.is_alphanumeric() => chars
                .as_str()
                .split(delimiter)
                .nth(2)
                .is_some_and(|flags| flags.contains('e')),
            _ => false,
        }
    };
    files == 0
        && scripts
            .iter()
            .any(|script| script.split([';', '\n']).any(runs))
}

/// tmux's and screen's words that open or attach to a session's shell.
const ATTACHING: &[&str] = &[
    "new",
    "new-session",
    "attach",
    "attach-session",
    "a",
    "at",
    "-r",
    "-x",
    "-S",
    "-s",
];

/// node's options that run something other than its prompt.
const NODE_RUNS: [&str; 9] = [
    "-e",
    "--eval",
    "-p",
    "--print",
    "--test",
    "-v",
    "--version",
    "-h",
    "--help",
];

/// Whether vim, given `args`, runs its commands and quits (`vim -c 'wq'
/// f`, `+x`, `-es`) rather than waiting for keys.
fn editor_quits(args: &[String]) -> bool {
    let quits = |command: &str| {
        let last = command.rsplit('|').next().unwrap_or(command).trim();
        let last = last.trim_start_matches(':');
        matches!(
            last,
            "q" | "q!"
                | "qa"
                | "qa!"
                | "qall"
                | "qall!"
                | "wq"
                | "wq!"
                | "wqa"
                | "wqa!"
                | "x"
                | "x!"
                | "xa"
                | "xa!"
                | "quit"
                | "quit!"
                | "wqall"
                | "xit"
                | "exit"
        )
    };
    let mut commands = Vec::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        match word.as_str() {
            "-es" | "-Es" | "-e" | "-s" => return true,
            "-c" => commands.extend(words.next().map(String::as_str)),
            plus if plus.starts_with('+') => commands.push(plus.trim_start_matches('+')),
            _ => {}
        }
    }
    commands.last().is_some_and(|command| quits(command))
}

/// Whether the shell `name` given `args` reads its commands from its
/// input: no command string and no script, `-s`, or a script that is the
/// input.
fn shell_reads_input(name: &str, args: &[String]) -> bool {
    match ShellArgs::parse(name, args).runs {
        Runs::Input => true,
        Runs::Script(script) => is_standard_input(script),
        Runs::Strings(_) | Runs::Nothing => false,
    }
}

/// Whether `path` names standard input, as a script read from there does.
fn is_standard_input(path: &str) -> bool {
    matches!(
        path,
        "/dev/stdin" | "/dev/tty" | "/dev/fd/0" | "/proc/self/fd/0" | "-"
    )
}

/// ssh's operands, the host and the remote command, past its options and
/// their values (`-p 22`, `-i key`).
fn ssh_operands(args: &[String]) -> usize {
    let mut count = 0;
    let mut words = args.iter();
    while let Some(word) = words.next() {
        match word.strip_prefix('-') {
            Some(options) => {
                if options.ends_with(|c| "bcDEeFIiJLlmOopQRSWw".contains(c)) {
                    words.next();
                }
            }
            None => count += 1,
        }
    }
    count
}

fn is_python(name: &str) -> bool {
    name.strip_prefix("python")
        .or_else(|| name.strip_prefix("pypy"))
        .is_some_and(|version| version.chars().all(|c| c.is_ascii_digit() || c == '.'))
}

/// The command as the refusal shows it.
fn shown_call(name: &str, args: &[String]) -> String {
    let mut words = vec![basename(name).to_owned()];
    words.extend(args.iter().take(4).cloned());
    words.join(" ")
}

/// Whether `argv` prints text that comes later, whatever its input: what a
/// peer sends to a port it listens on (`nc -l`, a `socat` listener), or
/// what is appended to a file it follows (`tail -f`).
pub fn relays_later_text(argv: &[String]) -> bool {
    let Some((program, args)) = argv.split_first() else {
        return false;
    };
    match basename(program) {
        name if NETCATS.contains(&name) => {
            has_flag(args, 'l') || args.iter().any(|arg| arg == "--listen")
        }
        "socat" => args.iter().any(|arg| listens(arg)),
        "tail" => {
            has_flag(args, 'f')
                || has_flag(args, 'F')
                || args.iter().any(|arg| arg.starts_with("--follow"))
        }
        _ => false,
    }
}

/// netcat's names.
const NETCATS: &[&str] = &["nc", "netcat", "ncat", "nc.openbsd", "nc.traditional"];

/// Whether `args` hold the short option `letter`, alone or among others (`-lvp`).
fn has_flag(args: &[String], letter: char) -> bool {
    args.iter()
        .any(|arg| crate::commands::short_flags(arg).is_some_and(|flags| flags.contains(letter)))
}

/// Refuses a program that hands a shell or a prompt to a network peer or
/// another process (`nc -l -e /bin/sh`, `socat TCP-LISTEN:9 EXEC:bash`,
/// `ncat --sh-exec bash`): the commands sent to it later reach no hook.
pub fn check_served(name: &str, args: &[String]) -> Result<()> {
    let served = match name {
        _ if NETCATS.contains(&name) => {
            let mut words = args.iter();
            let mut served = None;
            while let Some(word) = words.next() {
                if matches!(
                    word.as_str(),
                    "-e" | "-c" | "--exec" | "--sh-exec" | "--lua-exec"
                ) {
                    served = words.next().cloned();
                } else if let Some(value) = word
                    .strip_prefix("--exec=")
                    .or_else(|| word.strip_prefix("--sh-exec="))
                {
                    served = Some(value.to_owned());
                }
            }
            served
        }
        "socat" => args.iter().find_map(|address| {
            let (kind, rest) = address.split_once(':')?;
            matches!(kind.to_ascii_uppercase().as_str(), "EXEC" | "SYSTEM")
                .then(|| rest.split(',').next().unwrap_or(rest).to_owned())
        }),
        _ => None,
    };
    let Some(command) = served else {
        return Ok(());
    };
    // `SYSTEM:sh` and `nc -c sh` run the text with `sh -c`: what it names reads the input.
    let unknown = command
        .split_whitespace()
        .next()
        .is_some_and(|program| program.contains(UNKNOWN_TEXT));
    if starts_reader(&command) || unknown {
        return Err(format!(
            "the tool call hands `{}` to whatever connects to it or feeds it: commands sent to it later reach no hook of Tama's. Run each command as a tool call of its own",
            crate::walk::shown(&command)
        ));
    }
    Ok(())
}

/// Whether a `socat` address listens or reads a named pipe: what comes
/// through it arrives later.
fn listens(address: &str) -> bool {
    let kind = address
        .split([':', ','])
        .next()
        .unwrap_or("")
        .to_ascii_uppercase();
    kind.contains("LISTEN") || kind.ends_with("-L") || kind.contains("RECV") || kind == "PIPE"
}

/// Whether `argv`, reading the terminal, copies what is typed there to its
/// output: `cat`, `tee`, `dd` or `pv` given no file to read instead.
pub fn copies_input(argv: &[String]) -> bool {
    let Some((program, args)) = argv.split_first() else {
        return false;
    };
    let reads_no_file = || {
        crate::commands::operands(args, &[])
            .iter()
            .all(|operand| operand == "-")
    };
    match basename(program) {
        "tee" => true,
        "cat" | "pv" => reads_no_file(),
        "dd" => !args.iter().any(|arg| arg.starts_with("if=")),
        _ => false,
    }
}

/// Whether `name` is a variable through which Codex's commands get pagers
/// and editors that take no typed commands (`tama setup codex`,
/// `codex_env`), another pager or editor variable programs read, or
/// `LESSSECURE`.
fn guards_typing(name: &str) -> bool {
    name == "LESSSECURE" || shell_reader::runners::PAGERS_AND_EDITORS.contains(&name)
}

/// Pagers and editors that run a shell command typed into them (`!cmd`).
const TYPED_INTO: &[&str] = &[
    "less",
    "more",
    "most",
    "pg",
    "vi",
    "vim",
    "nvim",
    "view",
    "vim.basic",
    "vim.tiny",
    "ex",
    "emacs",
    "emacsclient",
    "nano",
    "pico",
    "micro",
    "hx",
    "kak",
    "joe",
    "mcedit",
    "jed",
];

/// Refuses a command that sets a variable [`guards_typing`] to a pager or an
/// editor that takes typed commands, turns `less`'s secure mode off, or
/// takes one away (`unset`, `env -u`): what `git log` or `git commit`
/// then opens in Codex's terminal runs what is typed into it, unhooked.
pub fn check_typing_guards<'v>(
    assigned: impl Iterator<Item = (&'v str, &'v str)>,
    unset: &[String],
) -> Result<()> {
    for (name, value) in assigned {
        if !guards_typing(name) {
            continue;
        }
        let program = value.split_whitespace().next().map_or("", basename);
        let opens = if name == "LESSSECURE" {
            value != "1"
        } else {
            TYPED_INTO.contains(&program) || program.contains(UNKNOWN_TEXT)
        };
        if opens {
            return Err(typing_refusal(&format!(
                "`{name}={}`",
                crate::walk::shown(value)
            )));
        }
    }
    match unset.iter().find(|name| guards_typing(name)) {
        Some(name) => Err(typing_refusal(&format!("taking `{name}` away"))),
        None => Ok(()),
    }
}

/// Programs that open a pager or an editor in the terminal by themselves
/// (`git log`, `man`, `systemctl status`, `gh pr view`).
const OPENS_PAGER: &[&str] = &[
    "git",
    "man",
    "less",
    "systemctl",
    "journalctl",
    "gh",
    "glab",
    "psql",
    "bat",
    "delta",
    "aws",
    "crontab",
    "visudo",
    "vipw",
    "vigr",
    "sudoedit",
    "kubectl",
    "hg",
    "svn",
];

/// Whether the wrappers `words` (up to the program they run) hold `env -i`
/// (`--ignore-environment`, `env -`).
pub fn clears_environment(words: &[String]) -> bool {
    words
        .iter()
        .skip_while(|word| basename(word) != "env")
        .skip(1)
        .take_while(|word| word.starts_with('-') || word.contains('='))
        .any(|word| matches!(word.as_str(), "-i" | "--ignore-environment" | "-"))
}

/// Refuses `name`, a program that opens a pager or an editor, run with the
/// environment cleared (`env -i git log`): the pagers and editors Codex's
/// set-up gives its commands went with it.
pub fn check_cleared_environment(cleared: bool, name: &str) -> Result<()> {
    if cleared && OPENS_PAGER.contains(&name) {
        return Err(typing_refusal(&format!("`env -i` before `{name}`")));
    }
    Ok(())
}

fn typing_refusal(change: &str) -> String {
    format!(
        "the tool call changes what pager or editor its programs open: {change} lets a pager or editor opened in Codex's terminal (`git log`, `git commit`) run a shell command typed into it, which reaches no hook of Tama's (Codex runs none for `write_stdin`). Leave the pagers and editors `tama setup codex` set"
    )
}
