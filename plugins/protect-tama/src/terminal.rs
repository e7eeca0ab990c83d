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

use crate::commands::basename;
use crate::loaded::SHELLS;
use crate::walk::Result;
use shell_reader::field::UNKNOWN_TEXT;

/// What a command reading the terminal (`cat`, `read`) takes from it: text
/// typed later, which no hook reads whole.
pub const TYPED: &str = "\u{FFFC}typed\u{FFFC}";

/// Refuses running `text` (as shell, as code, as a command) that holds what
/// is typed into the terminal later: `eval "$(cat)"`, `read l; bash -c "$l"`.
pub fn refuse_typed(text: &str) -> Result<()> {
    if !text.contains(TYPED) {
        return Ok(());
    }
    Err("the tool call runs what is typed into the terminal later, read by `cat`, `read` or `xargs`: it reaches Tama's hooks in pieces or not at all (Codex runs no hook for `write_stdin`). Run each command as a tool call of its own".to_owned())
}

/// The variables `read args…` sets: its operands past the options that
/// take a value (`-p prompt`, `-d delim`), else `REPLY`.
pub fn read_variables(args: &[String]) -> Vec<&str> {
    let mut variables = Vec::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        match word.as_str() {
            "-p" | "-d" | "-n" | "-N" | "-t" | "-u" | "-i" => {
                words.next();
            }
            "-a" => variables.extend(words.next().map(String::as_str)),
            option if option.starts_with('-') => {}
            name => variables.push(name),
        }
    }
    if variables.is_empty() {
        variables.push("REPLY");
    }
    variables
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
    match name {
        _ if SHELLS.contains(&name) => shell_reads_input(args).then_some(SHELL),
        "su" | "login" | "newgrp" | "sg" => (!flag(&["-c", "--command"])).then_some(SHELL),
        "sudo" | "doas" => flag(&["-s", "-i", "--shell", "--login"]).then_some(SHELL),
        "script" => (!args
            .iter()
            .any(|arg| arg.starts_with("-c") || arg == "--command"))
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
            (interactive || !(flag(&["-c", "-m"]) || operands() > 0)).then_some(REPL)
        }
        "node" | "nodejs" => {
            let runs = flag(&NODE_RUNS) || args.iter().any(|arg| !arg.starts_with('-'));
            (interactive || !runs).then_some(REPL)
        }
        "deno" => (args.is_empty() || flag(&["repl"])).then_some(REPL),
        "bun" => flag(&["repl"]).then_some(REPL),
        "ruby" | "perl" | "php" | "lua" | "luajit" | "R" | "julia" | "ghci" | "guile" | "sbcl"
        | "racket" | "tclsh" | "wish" => {
            let runs = flag(&["-e", "-E", "-r", "--eval", "-f", "--file"]) || operands() > 0;
            let debugger = name == "perl" && args.iter().any(|arg| arg.starts_with("-d"));
            (debugger || interactive || flag(&["-a"]) || !runs).then_some(REPL)
        }
        "irb" | "pry" | "ipython" | "bpython" | "ptpython" => Some(REPL),
        "sqlite3" | "psql" | "mysql" | "mariadb" => {
            let runs = flag(&["-c", "--command", "-f", "--file", "-e", "--execute", "-cmd"])
                || (name == "sqlite3" && operands() > 1);
            (!runs).then_some(ESCAPE)
        }
        "gdb" | "lldb" | "pdb" | "ftp" | "sftp" | "lftp" => {
            (!flag(&["-batch", "--batch", "-b", "-ex"])).then_some(ESCAPE)
        }
        "vi" | "vim" | "nvim" | "view" | "ex" => (!editor_quits(args)).then_some(ESCAPE),
        "ed" | "red" | "emacs" | "nano" | "pico" | "mc" | "ranger" | "nnn" => {
            (!flag(&["--batch", "-batch", "-s"])).then_some(ESCAPE)
        }
        _ => None,
    }
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

/// Whether a shell given `args` reads its commands from its input: no
/// `-c` string and no script, or `-s`.
fn shell_reads_input(args: &[String]) -> bool {
    let mut words = args.iter();
    while let Some(word) = words.next() {
        match word.as_str() {
            "--" | "-" => return words.next().is_none(),
            "--rcfile" | "--init-file" | "-o" | "+o" | "-O" | "+O" => {
                words.next();
            }
            long if long.starts_with("--") => {}
            option if option.starts_with(['-', '+']) => {
                if option.contains('s') {
                    return true;
                }
                if option.contains('c') {
                    return false;
                }
            }
            script => return is_standard_input(script),
        }
    }
    true
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

/// Whether `xargs` handing what it reads to `name` runs it as commands: a
/// shell or an interpreter given it, or the read item standing as the
/// command (`xargs -I{} {}`).
pub fn runs_read_items(name: &str) -> bool {
    SHELLS.contains(&name)
        || is_python(name)
        || name.contains("{}")
        || matches!(name, "node" | "perl" | "ruby" | "php" | "eval")
}

/// The variables through which Codex's commands get pagers and editors
/// that take no typed commands (`tama setup codex`, `codex_env`), with the
/// other editor variables programs read.
const TYPING_GUARDS: &[&str] = &[
    "GIT_PAGER",
    "PAGER",
    "MANPAGER",
    "SYSTEMD_PAGER",
    "LESSSECURE",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "EDITOR",
    "VISUAL",
    "SUDO_EDITOR",
    "KUBE_EDITOR",
];

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

/// Refuses a command that sets one of [`TYPING_GUARDS`] to a pager or an
/// editor that takes typed commands, turns `less`'s secure mode off, or
/// takes one away (`unset`, `env -u`): what `git log` or `git commit`
/// then opens in Codex's terminal runs what is typed into it, unhooked.
pub fn check_typing_guards<'v>(
    assigned: impl Iterator<Item = (&'v str, &'v str)>,
    unset: &[String],
) -> Result<()> {
    for (name, value) in assigned {
        if !TYPING_GUARDS.contains(&name) {
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
    match unset
        .iter()
        .find(|name| TYPING_GUARDS.contains(&name.as_str()))
    {
        Some(name) => Err(typing_refusal(&format!("taking `{name}` away"))),
        None => Ok(()),
    }
}

fn typing_refusal(change: &str) -> String {
    format!(
        "the tool call changes what pager or editor its programs open: {change} lets a pager or editor opened in Codex's terminal (`git log`, `git commit`) run a shell command typed into it, which reaches no hook of Tama's (Codex runs none for `write_stdin`). Leave the pagers and editors `tama setup codex` set"
    )
}
