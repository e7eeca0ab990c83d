//! Programs that hand text to a shell elsewhere or later: a terminal
//! multiplexer's new windows and typed keys, `at` and `crontab`, `make`'s
//! recipes, `expect`'s `spawn`, `newgrp`'s shell, PowerShell's `-Command`, `watch`, terminal
//! emulators' `-e`, editors' and text tools' shell escapes (`editors`), the
//! commands `tar`, `rsync`, `ssh`, `man`, `zip`, `socat` and `nc` are given
//! to start, and the jobs of `xargs -I` and GNU `parallel`. What each runs,
//! as shell text, where the command shows it.

use crate::prelude::*;

mod cmake;
mod editors;
mod make;
mod scheduled;
mod shell_args;
mod task_files;
mod variables;
mod workspace;
mod xargs;

pub use cmake::cmake_command;
pub use shell_args::{Runs, ShellArgs, is_shell};
pub use task_files::{cargo_setting_command, manifest_script, script_call};
pub use variables::{PAGERS_AND_EDITORS, command_in_variable};
pub use xargs::Xargs;

use crate::interpreters::{Language, quoted};
use crate::output::joined;

/// The shell text `name args…` hands on (`name` is the program's file name,
/// without its folder); `file` gives the content of a file the command
/// wrote earlier, when it did. Empty for other programs.
pub fn shell_texts<'a, W: AsRef<str>>(
    name: &str,
    args: &[W],
    stdin: Option<&str>,
    file: impl Fn(&str) -> Option<&'a str>,
) -> Vec<String> {
    let words = || args.iter().map(AsRef::as_ref);
    let option_value = |names: &[&str]| {
        let at = words().position(|arg| names.contains(&arg))?;
        args.get(at + 1).map(AsRef::as_ref)
    };
    // What a file operand holds: `-` and `/dev/stdin` are standard input.
    let content = |path: &str| match path {
        "-" | "/dev/stdin" => stdin.map(str::to_owned),
        path => file(path).map(str::to_owned),
    };
    let stdin_text = || stdin.map(str::to_owned);
    // What a command given as words runs: one word is shell text (as
    // `xterm -e 'a b'` and `watch` take it), several are a program and
    // its arguments, each quoted back.
    let command_words = |words: &[W]| match words {
        [one] => one.as_ref().to_owned(),
        words => joined(&words.iter().map(|w| quoted(w.as_ref())).collect::<Vec<_>>()),
    };
    match name {
        // Every word may be a command a pane runs or keys typed into its shell.
        "tmux" => words()
            .filter(|arg| !arg.starts_with('-'))
            .map(str::to_owned)
            .collect(),
        "screen" if words().any(|arg| arg == "-X") => words()
            .skip_while(|arg| !matches!(*arg, "stuff" | "exec" | "screen"))
            .skip(1)
            .map(str::to_owned)
            .collect(),
        // `newgrp` starts a shell that reads what standard input holds.
        "newgrp" => stdin_text().into_iter().collect(),
        "at" | "batch" => option_value(&["-f"])
            .map_or_else(stdin_text, content)
            .into_iter()
            .collect(),
        "crontab" if !words().any(|arg| matches!(arg, "-l" | "-r" | "-e")) => words()
            .rev()
            .find(|arg| !arg.starts_with('-') || *arg == "-")
            .map_or_else(stdin_text, content)
            .map_or_else(Vec::new, |table| cron_commands(&table)),
        "make" | "gmake" => {
            let makefile = match option_value(&["-f", "--file", "--makefile"]) {
                Some(path) => content(path),
                None => ["GNUmakefile", "makefile", "Makefile"]
                    .iter()
                    .find_map(|name| file(name))
                    .map(str::to_owned),
            };
            // `--eval TEXT` is read as more of the makefile.
            let evaluated = option_values(args, &["--eval", "-E"])
                .into_iter()
                .chain(words().filter_map(|arg| arg.strip_prefix("--eval=")));
            let makefile: Vec<String> = makefile
                .into_iter()
                .chain(evaluated.map(str::to_owned))
                .collect();
            let assigned: Vec<(&str, &str)> = words()
                .filter(|arg| !arg.starts_with('-'))
                .filter_map(|arg| arg.split_once('='))
                .collect();
            let mut texts = make::commands(&makefile.join("\n"), &assigned);
            // `make SHELL=prog`: each recipe line runs through that program.
            texts.extend(
                assigned
                    .iter()
                    .filter(|(name, _)| *name == "SHELL")
                    .map(|(_, program)| (*program).to_owned()),
            );
            texts
        }
        "expect" => option_value(&["-c"])
            .map(str::to_owned)
            .or_else(|| option_value(&["-f"]).map_or_else(stdin_text, content))
            .map_or_else(Vec::new, |code| spawned(&code)),
        "pwsh" | "powershell" | "powershell.exe" | "pwsh.exe" => {
            let lowered: Vec<String> = words().map(str::to_ascii_lowercase).collect();
            let value_of = |names: &[&str]| {
                let at = lowered
                    .iter()
                    .position(|arg| names.contains(&arg.as_str()))?;
                args.get(at + 1).map(AsRef::as_ref)
            };
            let mut texts: Vec<String> = value_of(&["-c", "-command"])
                .map(str::to_owned)
                .into_iter()
                .collect();
            texts.extend(value_of(&["-e", "-ec", "-encodedcommand"]).and_then(utf16_base64));
            texts
        }
        // `watch` joins its words for `sh -c`; `-x` runs them as they are.
        "watch" => {
            let start = after_options(args, &["-n", "--interval", "-q", "--equexit"]);
            let (options, command) = args.split_at(start);
            if command.is_empty() {
                Vec::new()
            } else if options
                .iter()
                .any(|arg| matches!(arg.as_ref(), "-x" | "--exec"))
            {
                vec![command_words(command)]
            } else {
                vec![joined(command)]
            }
        }
        "xterm" | "uxterm" | "urxvt" | "rxvt" | "st" | "alacritty" | "konsole" | "terminator"
        | "xfce4-terminal" | "tilix" | "gnome-terminal" | "mate-terminal" | "lxterminal"
        | "qterminal" | "sakura" | "terminology" | "kitty" | "foot" | "wezterm" => {
            let at = words().position(|arg| {
                matches!(
                    arg,
                    "-e" | "-x" | "--" | "--command" | "--execute" | "--exec"
                )
            });
            at.map(|at| &args[at + 1..])
                .filter(|words| !words.is_empty())
                .map(command_words)
                .into_iter()
                .collect()
        }
        // `entr -s 'text'` runs a shell; without `-s`, a program.
        "entr" => {
            let (options, command) = args.split_at(after_options(args, &[]));
            if command.is_empty() {
                Vec::new()
            } else if options.iter().any(|arg| arg.as_ref().contains('s')) {
                vec![joined(command)]
            } else {
                vec![command_words(command)]
            }
        }
        // `sg group [-c] command`: the command goes to `sh -c`.
        "sg" => {
            let start = after_options(args, &[]) + 1;
            let words = args.get(start..).unwrap_or_default();
            let words = match words.first() {
                Some(first) if first.as_ref() == "-c" => &words[1..],
                _ => words,
            };
            (!words.is_empty())
                .then(|| joined(words))
                .into_iter()
                .collect()
        }
        "su" | "runuser" | "script" | "flock" => command_option(args)
            .map(str::to_owned)
            .into_iter()
            .collect(),
        "gdb" | "gdb-multiarch" | "cgdb" => {
            let commands = option_values(
                args,
                &["-ex", "--ex", "-eval-command", "--eval-command", "-iex"],
            );
            let scripts = option_values(args, &["-x", "--command", "-ix"]);
            commands
                .into_iter()
                .map(str::to_owned)
                .chain(scripts.into_iter().filter_map(content))
                .flat_map(|script| {
                    script
                        .lines()
                        .filter_map(|line| {
                            let line = line.trim_start();
                            // `pipe COMMAND | SHELL`, `| COMMAND | SHELL`.
                            let piped = line
                                .strip_prefix("pipe ")
                                .or_else(|| line.strip_prefix('|'))
                                .and_then(|rest| rest.split_once('|'))
                                .map(|(_, shell)| shell);
                            // `python CODE` (or `py`, `pi`) runs Python code.
                            let python = ["python ", "py ", "pi "]
                                .iter()
                                .find_map(|command| line.strip_prefix(command))
                                .map(|code| {
                                    format!("python3 -c {}", crate::interpreters::quoted(code))
                                });
                            line.strip_prefix("shell ")
                                .or_else(|| line.strip_prefix('!'))
                                .or(piped)
                                .map(str::to_owned)
                                .or(python)
                        })
                        .collect::<Vec<_>>()
                })
                .collect()
        }
        // A database shell's escape to the system shell, in the commands it
        // is given or reads: sqlite3's `.shell` and `.system`, psql's `\!`,
        // mysql's `system` and `\!`.
        "sqlite3" | "psql" | "mysql" | "mariadb" => {
            let (valued, escapes): (&[&str], &[&str]) = match name {
                "sqlite3" => (
                    &["-cmd"],
                    &[
                        ".shell",
                        ".system",
                        ".once |",
                        ".output |",
                        ".once '|",
                        ".output '|",
                    ],
                ),
                "psql" => (&["-c", "--command"], &["\\!"]),
                _ => (&["-e", "--execute"], &["system", "\\!"]),
            };
            let mut scripts: Vec<String> = option_values(args, valued)
                .into_iter()
                .map(str::to_owned)
                .collect();
            if name == "sqlite3" {
                scripts.extend(operands(args, &["-cmd"]).into_iter().map(str::to_owned));
            }
            scripts.extend(
                option_values(args, &["-f", "--file", "-init"])
                    .into_iter()
                    .filter_map(content),
            );
            scripts.extend(stdin_text());
            scripts
                .iter()
                .flat_map(|script| shell_escapes(script, escapes))
                .collect()
        }
        // `npx -c 'text'`, `npm exec -c 'text'`: run in a shell; and the
        // scripts `npm pkg set` puts into `package.json` for a later run.
        "npx" | "pnpx" | "npm" | "pnpm" | "yarn" | "bun" => {
            // `--script-shell PROGRAM` runs each script through that program.
            let mut texts: Vec<String> = option_values(args, &["-c", "--call", "--script-shell"])
                .into_iter()
                .map(str::to_owned)
                .collect();
            texts.extend(task_files::scripts_set(&words().collect::<Vec<_>>()));
            texts
        }
        "man" => option_values(args, &["-P", "--pager", "-H", "--html"])
            .into_iter()
            .map(str::to_owned)
            .collect(),
        // `less +'!cmd'`: an initial command that is a shell escape.
        "less" | "more" | "most" => words()
            .filter_map(|arg| arg.strip_prefix('+'))
            .filter_map(|command| command.trim_start_matches(':').strip_prefix('!'))
            .map(str::to_owned)
            .collect(),
        "tar" | "gtar" | "bsdtar" => {
            let mut texts: Vec<String> = option_values(
                args,
                &[
                    "--to-command",
                    "--use-compress-program",
                    "-I",
                    "--info-script",
                    "--new-volume-script",
                    "-F",
                    "--rsh-command",
                ],
            )
            .into_iter()
            .map(str::to_owned)
            .collect();
            texts.extend(
                option_values(args, &["--checkpoint-action"])
                    .into_iter()
                    .filter_map(|action| action.strip_prefix("exec="))
                    .map(str::to_owned),
            );
            texts
        }
        "rsync" => option_values(args, &["-e", "--rsh", "--rsync-path"])
            .into_iter()
            .map(str::to_owned)
            .collect(),
        // `ssh -o ProxyCommand=…` runs the command in a shell; so do
        // `LocalCommand` and `KnownHostsCommand`.
        "ssh" | "scp" | "sftp" | "autossh" => option_values(args, &["-o"])
            .into_iter()
            .filter_map(|option| {
                let (key, value) = option.split_once(['=', ' '])?;
                matches!(
                    key.to_ascii_lowercase().as_str(),
                    "proxycommand" | "localcommand" | "knownhostscommand"
                )
                .then(|| value.trim_start_matches(['=', ' ']).to_owned())
            })
            .collect(),
        "zip" => option_values(args, &["-TT", "--unzip-command"])
            .into_iter()
            .map(str::to_owned)
            .collect(),
        // `socat - EXEC:'cmd'` and `SYSTEM:'cmd'`: an address that starts
        // a program, its options after an unescaped comma.
        "socat" => words()
            .filter_map(|address| {
                let (kind, rest) = address.split_once(':')?;
                matches!(kind.to_ascii_uppercase().as_str(), "EXEC" | "SYSTEM").then(|| {
                    let end = rest
                        .char_indices()
                        .find(|&(at, c)| c == ',' && !rest[..at].ends_with('\\'))
                        .map_or(rest.len(), |(at, _)| at);
                    rest[..end].to_owned()
                })
            })
            .collect(),
        "nc" | "ncat" | "netcat" | "nc.traditional" | "nc.openbsd" => {
            option_values(args, &["-e", "-c", "--exec", "--sh-exec"])
                .into_iter()
                .map(str::to_owned)
                .collect()
        }
        "mail" | "mailx" | "s-nail" | "bsd-mailx" => option_values(args, &["-E", "--exec", "-Y"])
            .into_iter()
            .filter_map(|command| command.trim_start().strip_prefix('!'))
            .map(str::to_owned)
            .collect(),
        "tclsh" | "wish" | "jimsh" => words()
            .find(|arg| !arg.starts_with('-'))
            .map_or_else(stdin_text, content)
            .map_or_else(Vec::new, |code| spawned(&code)),
        "vi" | "vim" | "nvim" | "view" | "gvim" | "vimdiff" | "rvim" | "ex" | "vim.basic"
        | "vim.tiny" | "vim.nox" | "vim.gtk3" | "ed" | "red" => {
            let mut scripts: Vec<&str> = option_values(args, &["-c", "--cmd"]);
            scripts.extend(
                words()
                    .filter_map(|arg| arg.strip_prefix('+'))
                    .filter(|command| !command.bytes().all(|b| b.is_ascii_digit())),
            );
            // `ex`, `ed` and `vim -e` read commands from standard input.
            let reads_commands = matches!(name, "ex" | "ed" | "red")
                || words().any(|arg| {
                    arg.starts_with('-')
                        && !arg.starts_with("--")
                        && (arg.contains('e') || arg.contains('E'))
                });
            let stdin_script = stdin.filter(|_| reads_commands);
            scripts
                .into_iter()
                .chain(stdin_script)
                .flat_map(editors::ex_commands)
                .collect()
        }
        "sed" | "gsed" => {
            let mut scripts: Vec<String> = option_values(args, &["-e", "--expression"])
                .into_iter()
                .map(str::to_owned)
                .collect();
            scripts.extend(
                option_values(args, &["-f", "--file"])
                    .into_iter()
                    .filter_map(content),
            );
            // Without -e or -f, the first operand is the script.
            let given = !scripts.is_empty();
            let mut files = operands(args, &["-e", "--expression", "-f", "--file", "-l"]);
            if !given && !files.is_empty() {
                scripts.push(files.remove(0).to_owned());
            }
            let mut texts: Vec<String> = scripts
                .iter()
                .flat_map(|s| editors::sed_commands(s))
                .collect();
            // What it writes into files it edits in place is read as their
            // content: a script edited so runs it later.
            if in_place(args, "nrEsuz") {
                let added: Vec<String> = scripts.iter().map(|s| editors::sed_added(s)).collect();
                texts.extend(written_later(&files, &added.join("\n")));
            }
            texts
        }
        // `perl -pi -e 's/…/…/' file`: its substitutions, read as sed's.
        "perl" if in_place(args, "pnlw0a") => {
            let code = option_values(args, &["-e", "-E"]);
            let added: Vec<String> = code.iter().map(|c| editors::sed_added(c)).collect();
            let files = operands(args, &["-e", "-E", "-I", "-M", "-m"]);
            written_later(&files, &added.join("\n"))
        }
        // `tee [-a] file`: what it reads is what it writes there.
        "tee" => stdin_text()
            .map(|text| written_later(&operands(args, &[]), &text))
            .unwrap_or_default(),
        "dc" => option_values(args, &["-e", "--expression"])
            .into_iter()
            .map(str::to_owned)
            .chain(stdin_text())
            .flat_map(|program| editors::dc_commands(&program))
            .collect(),
        "m4" => words()
            .filter(|arg| !arg.starts_with('-'))
            .filter_map(content)
            .chain(stdin_text())
            .flat_map(|text| editors::m4_commands(&text))
            .collect(),
        "emacs" | "emacsclient" | "emacs-nox" => {
            let mut code: Vec<String> =
                option_values(args, &["--eval", "-eval", "--execute", "-execute"])
                    .into_iter()
                    .map(str::to_owned)
                    .collect();
            code.extend(
                option_values(args, &["-l", "--load", "-load", "--script", "-script"])
                    .into_iter()
                    .filter_map(content),
            );
            code.iter()
                .flat_map(|code| editors::lisp_commands(code))
                .collect()
        }
        "xargs" => xargs::commands(args, stdin, content),
        "parallel" | "sem" => parallel_jobs(args, stdin, content),
        _ => Vec::new(),
    }
}

/// What a file written at `path` with `content` hands a shell each time it
/// is run later: all of it for a shell script, a makefile's recipes, and
/// for a script in another language (told, as a shell script is, by its
/// name or its `#!` line) the command that runs its code (`python3 -c …`),
/// all of a program without a `#!` line in a `bin` or hooks folder,
/// for the gate's reading of interpreter code, the scripts of a task file
/// (`package.json`, a justfile), what cron, systemd, a desktop session
/// or Python runs from the files it reads (`scheduled`), and what an editor
/// or a development container runs when a folder is opened (`workspace`).
/// Empty for other files.
pub fn run_later(path: &str, content: &str) -> Vec<String> {
    let name = path.rsplit_once('/').map_or(path, |(_, name)| name);
    if let Some(commands) = task_files::commands(name, content)
        .or_else(|| scheduled::commands(path, name, content))
        .or_else(|| workspace::commands(path, name, content))
    {
        return commands;
    }
    if matches!(name, "GNUmakefile" | "makefile" | "Makefile") || name.ends_with(".mk") {
        return make::commands(content, &[]);
    }
    if matches!(name, "config.toml" | "config") && path.ends_with(&format!(".cargo/{name}")) {
        return task_files::cargo_config_commands(content);
    }
    let script_name = [".sh", ".bash", ".zsh", ".ksh", ".dash", ".command"]
        .iter()
        .any(|extension| name.ends_with(extension));
    let program = shebang_program(content);
    let shell_line = program.is_some_and(is_shell_line);
    // bash and git run a program that has no `#!` line through a shell.
    let shell_program = !content.starts_with("#!") && in_program_folder(path);
    if script_name || shell_line || shell_program {
        return vec![content.to_owned()];
    }
    let language = program
        .and_then(Language::of)
        .or_else(|| Language::of_script(name));
    language.map_or_else(Vec::new, |language| vec![language.command_running(content)])
}

/// The program the `#!` line of `content` names, by its file name: `bash`
/// for `#!/usr/bin/env bash`.
pub fn shebang_program(content: &str) -> Option<&str> {
    content
        .strip_prefix("#!")
        .and_then(|line| line.lines().next())
        .and_then(|line| line.split_whitespace().find(|word| *word != "/usr/bin/env"))
        .map(|program| program.rsplit_once('/').map_or(program, |(_, base)| base))
}

/// Whether a `#!` line naming `program` has a shell read the file.
pub fn is_shell_line(program: &str) -> bool {
    matches!(
        program,
        "sh" | "bash" | "zsh" | "dash" | "ksh" | "ash" | "busybox"
    )
}

/// Whether a program file holding `content` runs as shell: it has a shell's
/// `#!` line, or none, so that bash runs it through a shell.
pub fn runs_as_shell(content: &str) -> bool {
    match shebang_program(content) {
        Some(program) => is_shell_line(program),
        None => !content.starts_with("#!"),
    }
}

/// Whether `path` names a program by where it lies: a file without an
/// extension in a `bin` folder, or in git's or a hook manager's hooks
/// folder (`.git/hooks/pre-commit`, `.husky/pre-push`).
fn in_program_folder(path: &str) -> bool {
    let Some((folder, name)) = path.rsplit_once('/') else {
        return false;
    };
    let folder = folder.rsplit_once('/').map_or(folder, |(_, last)| last);
    !name.contains('.') && matches!(folder, "bin" | "sbin" | "hooks" | ".husky" | ".githooks")
}

/// Where a command may start in one argument of a program that may run
/// what its arguments spell: the argument itself, or an option's value in
/// its place (`--exec=rm`), with whether it is such a value. `None` for an
/// option without a value.
pub fn command_word(arg: &str) -> Option<(&str, bool)> {
    match arg.strip_prefix('-') {
        Some(option) => option.split_once('=').map(|(_, value)| (value, true)),
        None => Some((arg, false)),
    }
}

/// Whether a program only prints, reads or tests its arguments and never
/// runs them (`echo`, `grep`, `ls`, …): words that spell a command in its
/// arguments are text to it. Matched as bytes, which compile to a tree of
/// byte compares rather than one string compare per name.
pub fn inert(name: &str) -> bool {
    matches!(
        name.as_bytes(),
        b":" | b"["
            | b"ack"
            | b"ag"
            | b"apropos"
            | b"basename"
            | b"cat"
            | b"cmp"
            | b"cut"
            | b"date"
            | b"diff"
            | b"dirname"
            | b"echo"
            | b"egrep"
            | b"exit"
            | b"false"
            | b"fgrep"
            | b"file"
            | b"grep"
            | b"head"
            | b"help"
            | b"info"
            | b"jq"
            | b"less"
            | b"logger"
            | b"ls"
            | b"man"
            | b"mkdir"
            | b"more"
            | b"printenv"
            | b"printf"
            | b"pwd"
            | b"read"
            | b"readlink"
            | b"realpath"
            | b"return"
            | b"rg"
            | b"shift"
            | b"sleep"
            | b"sort"
            | b"stat"
            | b"tail"
            | b"test"
            | b"touch"
            | b"tr"
            | b"true"
            | b"type"
            | b"uniq"
            | b"wait"
            | b"wc"
            | b"whatis"
            | b"whereis"
            | b"which"
            | b"yq"
    )
}

/// Where `find`'s folders to search stand among its arguments: after its
/// own options (`-H`, `-L`, `-P`, `-D debug`, `-O3`), before the first
/// test or action (or `(`, `!`). The expression follows them.
pub fn find_folders<W: AsRef<str>>(args: &[W]) -> core::ops::Range<usize> {
    let mut index = 0;
    while let Some(option) = args.get(index).map(AsRef::as_ref) {
        match option {
            "-H" | "-L" | "-P" => index += 1,
            "-D" => index += 2,
            _ if option.starts_with("-O") => index += 1,
            _ => break,
        }
    }
    let start = index.min(args.len());
    let count = args[start..]
        .iter()
        .take_while(|arg| !arg.as_ref().starts_with(['-', '(', '!']))
        .count();
    start..start + count
}

/// Whether an archiver (`name`) deletes the files it puts in the archive:
/// `tar --remove-files`, `zip -m` (`--move`, or `m` among short options).
pub fn archives_away<W: AsRef<str>>(name: &str, args: &[W]) -> bool {
    let mut args = args.iter().map(AsRef::as_ref);
    match name {
        "tar" | "bsdtar" | "gtar" => args.any(|arg| arg == "--remove-files"),
        "zip" => args.any(|arg| {
            arg == "--move"
                || arg
                    .strip_prefix('-')
                    .is_some_and(|flags| !flags.starts_with('-') && flags.contains('m'))
        }),
        _ => false,
    }
}

/// Whether an editor (`vi`, `vim`, `ex`, `ed`, `emacs`) given `args`, and
/// standard input when `fed`, edits the files it names: it is given
/// commands (`-c`, `+cmd`, a script, Lisp) or reads them on its input, and
/// is not opened read-only. Without commands it waits for a terminal an
/// agent's shell does not have, and changes nothing.
pub fn editor_edits<W: AsRef<str>>(args: &[W], fed: bool) -> bool {
    let mut commands = fed;
    for arg in args.iter().map(AsRef::as_ref) {
        match arg {
            "-R" | "-M" | "--readonly" | "-v" | "--view" => return false,
            "-c" | "--cmd" | "-s" | "-S" | "-e" | "-es" | "-E" | "--eval" | "-eval" | "-l"
            | "--load" | "-f" | "--funcall" | "--script" | "-batch" | "--batch" => commands = true,
            _ if arg.starts_with('+') && !arg[1..].bytes().all(|b| b.is_ascii_digit()) => {
                commands = true;
            }
            _ => {}
        }
    }
    commands
}

/// The options of GNU `parallel` that take a value as the next word.
const PARALLEL_VALUED: &[&str] = &[
    "-j",
    "-P",
    "--jobs",
    "-S",
    "--sshlogin",
    "--joblog",
    "--results",
    "--res",
    "-a",
    "--arg-file",
    "-d",
    "--delimiter",
    "-E",
    "--eof",
    "-n",
    "-N",
    "--max-args",
    "-L",
    "--max-lines",
    "-C",
    "--colsep",
    "--timeout",
    "--delay",
    "--retries",
    "--memfree",
    "--load",
    "--tmpdir",
    "--workdir",
    "--wd",
    "--tag-string",
    "--tagstring",
    "-I",
    "--env",
];

/// What GNU `parallel` runs, a shell text per argument: the argument itself
/// when no command is given, else the command (its words joined, as
/// `parallel` joins them) with the quoted argument in place of `{}` or
/// `{1}`…, or after it. Arguments follow `:::`, or are the lines of the
/// files after `::::`, or of standard input when neither is given.
fn parallel_jobs<W: AsRef<str>>(
    args: &[W],
    stdin: Option<&str>,
    content: impl Fn(&str) -> Option<String>,
) -> Vec<String> {
    let words: Vec<&str> = args.iter().map(AsRef::as_ref).collect();
    let is_source = |word: &str| matches!(word, ":::" | "::::" | ":::+" | "::::+");
    let split = words
        .iter()
        .position(|word| is_source(word))
        .unwrap_or(words.len());
    let (before, sources) = words.split_at(split);
    let command = before
        .get(after_options(before, PARALLEL_VALUED)..)
        .unwrap_or_default();
    let mut inputs: Vec<String> = Vec::new();
    let mut from_files = false;
    for word in sources {
        if is_source(word) {
            from_files = word.starts_with("::::");
        } else if from_files {
            inputs.extend(
                content(word)
                    .iter()
                    .flat_map(|text| text.lines().map(str::to_owned)),
            );
        } else {
            inputs.push((*word).to_owned());
        }
    }
    if sources.is_empty() {
        inputs.extend(
            stdin
                .iter()
                .flat_map(|text| text.lines().map(str::to_owned)),
        );
    }
    let template = command.join(" ");
    inputs
        .into_iter()
        .filter(|input| !input.is_empty())
        .map(|input| {
            if command.is_empty() {
                return input;
            }
            let argument = quoted(&input);
            let placeholders =
                core::iter::once(String::from("{}")).chain((1..10).map(|n| format!("{{{n}}}")));
            let mut text = template.clone();
            for placeholder in placeholders {
                text = text.replace(&placeholder, &argument);
            }
            if text == template {
                text.push(' ');
                text.push_str(&argument);
            }
            text
        })
        .collect()
}

/// The shell text after one of `escapes` that starts a statement of
/// `script` (a line, or what follows a `;` in it), to the end of its line.
/// A word escape (`system`) must end its word; `\\!` and a pipe (`.once |`)
/// need not.
fn shell_escapes(script: &str, escapes: &[&str]) -> Vec<String> {
    let escaped = |rest: &str| {
        escapes.iter().find_map(|escape| {
            let text = rest.strip_prefix(escape)?;
            let ends_word =
                escape.ends_with(['!', '|']) || text.is_empty() || text.starts_with([' ', '\t']);
            let text = if escape.ends_with("'|") {
                text.trim().trim_end_matches('\'')
            } else {
                text.trim()
            };
            (ends_word || escape.ends_with("'|")).then(|| text.to_owned())
        })
    };
    script
        .lines()
        .filter_map(|line| {
            let mut start = 0;
            line.split(';').find_map(|statement| {
                let at = start + statement.len() - statement.trim_start().len();
                start += statement.len() + 1;
                escaped(line.get(at..).unwrap_or_default())
            })
        })
        .collect()
}

/// The index of the first word after leading options (and the values of
/// `valued` ones), past a `--`: where the command a wrapper runs starts.
pub fn after_options<W: AsRef<str>>(args: &[W], valued: &[&str]) -> usize {
    let mut index = 0;
    while let Some(arg) = args.get(index).map(AsRef::as_ref) {
        if arg == "--" {
            return index + 1;
        }
        if !arg.starts_with('-') || arg == "-" {
            break;
        }
        index += if valued.contains(&arg) { 2 } else { 1 };
    }
    index.min(args.len())
}

/// What `files`, each given `text` by a command, run later (`run_later`).
fn written_later(files: &[&str], text: &str) -> Vec<String> {
    files
        .iter()
        .flat_map(|file| run_later(file, text))
        .collect()
}

/// Whether `args` hold `-i` (perhaps with a backup suffix, `-i.bak`, or
/// among short `flags`, `-pi`) or `--in-place`: the files are edited in place.
fn in_place<W: AsRef<str>>(args: &[W], flags: &str) -> bool {
    args.iter().map(AsRef::as_ref).any(|arg| {
        if arg == "--in-place" || arg.starts_with("--in-place=") {
            return true;
        }
        let Some(cluster) = arg.strip_prefix('-').filter(|a| !a.starts_with('-')) else {
            return false;
        };
        let before_suffix = cluster.split('i').next().unwrap_or_default();
        cluster.contains('i') && before_suffix.chars().all(|c| flags.contains(c))
    })
}

/// The operands of `args`: the words that are not options nor the values
/// of the options `valued`.
fn operands<'a, W: AsRef<str>>(args: &'a [W], valued: &[&str]) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut words = args.iter().map(AsRef::as_ref);
    while let Some(arg) = words.next() {
        if valued.contains(&arg) {
            words.next();
        } else if !arg.starts_with('-') || arg == "-" {
            out.push(arg);
        }
    }
    out
}

/// The values of the options `names`: `-o X`, `--opt X`, `--opt=X`, and
/// for a short option `-oX`.
pub fn option_values<'a, W: AsRef<str>>(args: &'a [W], names: &[&str]) -> Vec<&'a str> {
    let mut out = Vec::new();
    for (index, arg) in args.iter().enumerate() {
        let arg = arg.as_ref();
        for name in names {
            if arg == *name {
                out.extend(args.get(index + 1).map(AsRef::as_ref));
            } else if let Some(value) = arg.strip_prefix(name) {
                let value = if name.starts_with("--") || name.len() > 2 {
                    value.strip_prefix('=')
                } else {
                    Some(value)
                };
                out.extend(value.filter(|value| !value.is_empty()));
            }
        }
    }
    out
}

/// The text after `-c` or `--command` (also `-lc`, `--command=…`), which
/// `su`, `runuser`, `script`, `flock` and `sg` run in a shell.
pub fn command_option<W: AsRef<str>>(args: &[W]) -> Option<&str> {
    for (index, arg) in args.iter().enumerate() {
        let arg = arg.as_ref();
        let cluster = arg.len() > 2
            && arg.starts_with('-')
            && !arg.starts_with("--")
            && arg.ends_with('c')
            && arg.bytes().skip(1).all(|b| b.is_ascii_alphabetic());
        if arg == "-c" || arg == "--command" || cluster {
            return args.get(index + 1).map(AsRef::as_ref);
        }
        if let Some(text) = arg.strip_prefix("--command=") {
            return Some(text);
        }
    }
    None
}

/// The commands of a crontab: each line's after its five time fields (or
/// an `@reboot`-style name); comments and variable lines run nothing.
pub(super) fn cron_commands(table: &str) -> Vec<String> {
    table
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .filter_map(|line| {
            let fields = if line.starts_with('@') { 1 } else { 5 };
            let mut rest = line;
            for _ in 0..fields {
                rest = rest.trim_start().split_once(char::is_whitespace)?.1;
            }
            Some(rest.trim().to_owned())
        })
        .collect()
}

/// What Tcl's `spawn` and `exec` start in `expect` code, one command each.
fn spawned(code: &str) -> Vec<String> {
    code.split(['\n', ';'])
        .filter_map(|command| {
            let command = command.trim_start_matches([' ', '\t', '[']);
            command
                .strip_prefix("spawn ")
                .or_else(|| command.strip_prefix("exec "))
                .map(|rest| rest.trim_end_matches([']', ' ']).to_owned())
        })
        .collect()
}

/// PowerShell's `-EncodedCommand`: base64 of UTF-16LE text.
fn utf16_base64(encoded: &str) -> Option<String> {
    use base64::Engine as _;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .ok()?;
    let units: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|pair| u16::from_le_bytes([pair[0], pair[1]]))
        .collect();
    String::from_utf16(&units).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(name: &str, args: &[&str], stdin: Option<&str>) -> Vec<String> {
        shell_texts(name, args, stdin, |path| {
            (path == "Makefile").then_some("all:\n\t@git commit -m \"$$X\"\n")
        })
    }

    #[test]
    fn programs_that_run_shell_text_elsewhere_are_read() {
        assert!(texts("tmux", &["new", "-d", "git status"], None).contains(&"git status".into()));
        assert_eq!(
            texts("screen", &["-S", "s", "-X", "stuff", "ls\n"], None),
            ["ls\n"]
        );
        assert_eq!(texts("at", &["now"], Some("ls")), ["ls"]);
        assert_eq!(
            texts(
                "crontab",
                &["-"],
                Some("# x\nPATH=/bin\n* * * * * git status\n@reboot ls -l\n")
            ),
            ["git status", "ls -l"]
        );
        assert_eq!(texts("make", &[], None), ["git commit -m \"$X\""]);
        assert_eq!(texts("make", &["-f", "-"], Some("x:\n\tls\n")), ["ls"]);
        assert_eq!(
            texts("expect", &["-c", "spawn git status; expect eof"], None),
            ["git status"]
        );
        // "ls" in UTF-16LE, base64.
        assert_eq!(
            texts("pwsh", &["-EncodedCommand", "bABzAA=="], None),
            ["ls"]
        );
        assert_eq!(texts("pwsh", &["-Command", "ls"], None), ["ls"]);
        assert_eq!(
            texts(
                "emacs",
                &["--eval", "(shell-command (concat \"a\" \" b\"))"],
                None
            ),
            ["a", "a b"]
        );
        assert_eq!(
            texts("xargs", &["-I{}", "sh", "-c", "{}"], Some("git status\n")),
            ["'sh' '-c' 'git status'"]
        );
        assert_eq!(
            texts("parallel", &[":::", "git status", "ls"], None),
            ["git status", "ls"]
        );
        assert_eq!(
            texts(
                "parallel",
                &["-j", "2", "git", "commit", "{}", "-m", "x", ":::", "-n"],
                None
            ),
            ["git commit '-n' -m x"]
        );
        assert_eq!(
            texts("parallel", &["gzip"], Some("a.txt\nb.txt\n")),
            ["gzip 'a.txt'", "gzip 'b.txt'"]
        );
        assert!(texts("git", &["status"], None).is_empty());
        assert!(texts("crontab", &["-l"], None).is_empty());
    }
}
