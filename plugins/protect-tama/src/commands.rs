//! What each command changes: the files its words name as written, moved,
//! deleted or re-moded, by the command's own reading of its arguments.

use crate::prelude::*;

use shell_reader::builtins;
use shell_reader::field::{UNKNOWN, UNKNOWN_TEXT};
use shell_reader::interpreters::{Language, Source, quoted};
use shell_reader::runners::{self, Runs};

use crate::archives;
use crate::diffs;
use crate::downloads;
use crate::file_writers;
use crate::git;
use crate::interpreters;
use crate::links;
use crate::protected::Change;
use crate::remote_copies;
use crate::walk::{Call, Result, Walker, shown};

/// Decides one command with its expanded words. A user switch among the
/// words up to its name (`sudo -u u`, `su` itself) runs it, and what it
/// hands a shell, as another user.
pub fn run(walker: &mut Walker<'_>, call: &Call<'_>) -> Result<()> {
    run_as(walker, call, false)
}

/// [`run`], for a command that may be only text in another program's
/// arguments when `probing`: a program the gate does not model is then read
/// no further.
pub fn run_as(walker: &mut Walker<'_>, call: &Call<'_>, probing: bool) -> Result<()> {
    // `$(cat)` as the command: what is typed into the terminal runs.
    if let Some(program) = call.argv.first() {
        crate::terminal::refuse_typed(program)?;
    }
    let unset: Vec<String> = match call.argv.split_first() {
        Some((program, args)) if basename(program) == "unset" => args.to_vec(),
        Some((program, args)) if basename(program) == "env" => {
            option_values(args, &["-u", "--unset"])
        }
        _ => Vec::new(),
    };
    crate::terminal::check_typing_guards(walker.own_variables(), &unset)?;
    let (name, args, fed) = match unwrap(walker, call.argv)? {
        Unwrapped::Runs(name, args, fed) => (name, args, fed),
        // `sudo -s`, `sudo unshare -r`: a wrapper with no command of its own may open a shell.
        Unwrapped::Bare(wrapper, args) => {
            return crate::terminal::check(wrapper, args, call.terminal_input);
        }
        Unwrapped::Nothing => return Ok(()),
    };
    let up_to_name = call
        .argv
        .get(..call.argv.len().saturating_sub(args.len()))
        .unwrap_or_default();
    let (before, cleared_before) = (walker.other_user, walker.environment_cleared);
    if let Some(switch) = crate::harnesses::user_switch(up_to_name) {
        walker.other_user = Some(switch);
    }
    walker.environment_cleared |= crate::terminal::clears_environment(up_to_name);
    let decided = file_writers::wrapper_writes(walker, up_to_name)
        .and_then(|()| decide(walker, call, name, args, fed, probing));
    (walker.other_user, walker.environment_cleared) = (before, cleared_before);
    decided
}

fn decide(
    walker: &mut Walker<'_>,
    call: &Call<'_>,
    name: &str,
    args: &[String],
    fed: bool,
    probing: bool,
) -> Result<()> {
    // `… | xargs rm`, `xargs rm <<< path`: what earlier commands of the
    // pipeline name, and what `xargs` reads, may be what it hands the command.
    // `xargs -I{} sh -c '{}'` puts each line it reads in place of `{}`.
    if fed && let Some(at) = call.argv.iter().position(|word| basename(word) == "xargs") {
        handed_to_shell(walker, "xargs", &call.argv[at + 1..], call.stdin)?;
    }
    let fed_args: Vec<String>;
    let args = if fed {
        let stdin_words = call.stdin.into_iter().flat_map(str::split_whitespace);
        fed_args = args
            .iter()
            .cloned()
            .chain(walker.piped.iter().cloned())
            .chain(stdin_words.map(str::to_owned))
            .collect();
        &fed_args[..]
    } else {
        args
    };
    crate::key_reads::check(walker, name, args, fed)?;
    crate::harnesses::check(walker, name, args)?;
    crate::terminal::check_served(name, args)?;
    crate::terminal::check_cleared_environment(walker.environment_cleared, name)?;
    if !fed {
        crate::terminal::check(name, args, call.terminal_input)?;
    } else if call.terminal_input
        && xargs_options(call.argv).is_none_or(|options| options.arg_file.is_none())
    {
        // `xargs git`, `xargs -I{} sh -c '{}'` reading the terminal run a
        // command with what is typed.
        crate::terminal::refuse_typed(crate::terminal::TYPED)?;
    }
    if matches!(name, "read" | "mapfile" | "readarray") {
        set_from_input(walker, name, args, call);
    }
    // `mapfile -C f`: the callback runs with each line it reads.
    if matches!(name, "mapfile" | "readarray") {
        let input = call.stdin.filter(|_| !call.terminal_input);
        for callback in builtins::mapfile_callbacks(args, input) {
            walker.source(&callback)?;
        }
    }
    crate::signals::check(walker, name, args, fed)?;
    remote_copies::fetched(walker, name, args)?;
    remote_copies::cloud(walker, name, args)?;
    file_writers::carry_written(walker, name, args, call.stdin)?;
    run_written(walker, call, args)?;
    handed_to_shell(walker, name, args, call.stdin)?;
    match name {
        _ if is_unknown(name) && probing => Ok(()),
        _ if is_unknown(name) => unknown_command(walker, name, args, call.stdin),
        "popd" => {
            walker.cd_back();
            Ok(())
        }
        "pushd"
            if operands(args, &[])
                .first()
                .is_none_or(|dir| dir.starts_with('+') || dir.starts_with('-')) =>
        {
            walker.cd_back();
            Ok(())
        }
        "cd" | "pushd" => {
            let target = operands(args, &[]).first().cloned();
            let folder = match &target {
                Some(dir) if dir != "-" => walker.resolve(dir),
                Some(_) => UNKNOWN_TEXT.to_owned(),
                None => walker.home().to_owned(),
            };
            // `CDPATH=~ cd .tama`: a relative name that does not start
            // with `./` or `../` is looked for under `CDPATH`'s folders first.
            let searched = target.filter(|dir| {
                !dir.starts_with(['/', '~'])
                    && !matches!(dir.as_str(), "." | "..")
                    && !dir.starts_with("./")
                    && !dir.starts_with("../")
            });
            let others = match (searched, walker.known("CDPATH")) {
                (Some(dir), Some(cdpath)) => cdpath
                    .split(':')
                    .filter(|folder| !folder.is_empty())
                    .map(|folder| walker.resolve(&format!("{folder}/{dir}")))
                    .collect(),
                _ => Vec::new(),
            };
            walker.cd(folder, others);
            Ok(())
        }
        "export" | "declare" | "typeset" | "local" | "readonly" => {
            // `declare -n r=x`: `r` stands for the variable `x`.
            let reference = shell_reader::values::declares_references(name, args);
            for arg in args {
                if let Some((key, value)) = arg.split_once('=') {
                    if reference {
                        walker.refer(key, value);
                    } else {
                        walker.assign(key, value.to_owned())?;
                    }
                }
            }
            Ok(())
        }
        _ if runners::is_shell(name) => shell(walker, name, args, call.stdin),
        "eval" => walker.source(&args.join(" ")),
        "source" | "." => match args.first().map(String::as_str) {
            Some("/dev/stdin" | "-") => call.stdin.map_or(Ok(()), |text| walker.source(text)),
            Some(script) => match walker.script_text(script)? {
                Some(text) => walker.script_source(script, &text),
                None => Ok(()),
            },
            None => Ok(()),
        },
        "trap" => match args.iter().find(|arg| *arg != "--") {
            Some(action) if action != "-" && !action.bytes().all(|b| b.is_ascii_digit()) => {
                walker.source(action)
            }
            _ => Ok(()),
        },
        "alias" => {
            for (name, value) in args.iter().filter_map(|arg| arg.split_once('=')) {
                walker.set_alias(name, value);
            }
            Ok(())
        }
        "exit" => {
            walker.exited = true;
            Ok(())
        }
        // `printf -v p '%s/.tama' ~`: the variable holds what printf prints.
        "printf" if args.first().is_some_and(|arg| arg == "-v") => {
            if let (Some(variable), Some(rest)) = (args.get(1), args.get(2..)) {
                walker.set(variable, shell_reader::output::printf(rest));
            }
            Ok(())
        }
        "tama" => tama(walker, args),
        "systemctl" | "launchctl" | "dbus-update-activation-environment" | "initctl"
            if sets_session_environment(name, args) && walker.affects_tama() =>
        {
            Err(format!(
                "`{}` sets a variable that names Tama or a harness's hook settings in the environment later sessions start with; a `TAMA_` variable or a harness pointed away from its hooks (`CODEX_HOME`) there changes Tama's policy, which is the operator's act, not the agent's",
                shown(&call.argv.join(" "))
            ))
        }
        _ if is_tama_binary(walker, call.argv) => tama(walker, args),
        "rm" | "unlink" | "rmdir" | "shred" | "srm" | "wipe" | "rimraf" | "del" | "del-cli"
        | "trash" | "trash-put" => each(walker, &operands(args, &[]), Change::Remove, "deletes"),
        "mv" => copy_like(walker, args, &GNU_COPY, true),
        "ln" | "link" => {
            links::link(walker, args)?;
            copy_like(walker, args, &LN, false)
        }
        "mount" => links::mount(walker, args),
        "docker" | "podman" | "nerdctl" | "bwrap" => {
            links::container_binds(walker, name, args)?;
            if probing {
                return Ok(());
            }
            arguments_as_commands(walker, name, args)
        }
        "cp" | "rsync" | "scp" => {
            // `cp -l` and `cp -s` make links, as `ln` does.
            let links = name == "cp"
                && args.iter().any(|arg| {
                    matches!(arg.as_str(), "--link" | "--symbolic-link")
                        || short_flags(arg).is_some_and(|flags| flags.contains(['l', 's']))
                });
            if links {
                links::link(walker, args)?;
            }
            // `rsync --link-dest=DIR` links the files it finds unchanged in DIR,
            // and writes its log and batch files where it is told.
            if name == "rsync" {
                for folder in option_values(args, &["--link-dest"]) {
                    walker.changes(&folder, Change::Remove, "links files out of")?;
                }
                let side_files =
                    option_values(args, &["--log-file", "--write-batch", "--only-write-batch"]);
                for file in side_files {
                    walker.changes(&file, Change::Write, "writes")?;
                }
            }
            let copy = match name {
                "rsync" => &RSYNC,
                "scp" => &SCP,
                _ => &GNU_COPY,
            };
            // `rsync --remove-source-files` moves what it copies.
            let moves = name == "rsync" && args.iter().any(|arg| arg == "--remove-source-files");
            copy_like(walker, args, copy, moves)
        }
        // `install -d DIR…` makes each folder it names.
        "install" if args.iter().any(|arg| arg == "-d" || arg == "--directory") => each(
            walker,
            &operands(args, INSTALL.valued),
            Change::Write,
            "makes",
        ),
        "install" => copy_like(walker, args, &INSTALL, false),
        // A named pipe holds what is written to it later: a shell reading it
        // (`bash < pipe`) runs that text.
        "mkfifo" => {
            let pipes = operands(args, &["-m", "--mode", "-Z", "--context"]);
            for pipe in &pipes {
                let pipe = walker.resolve(pipe);
                walker.record_written(pipe, &crate::terminal::typed_line(), false);
            }
            each(walker, &pipes, Change::Write, "writes")
        }
        "tee" | "sponge" | "touch" | "mkdir" | "mknod" => each(
            walker,
            &operands(
                args,
                &["-m", "--mode", "-d", "--date", "-r", "--reference", "-t"],
            ),
            Change::Write,
            "writes",
        ),
        "truncate" => each(
            walker,
            &operands(args, &["-s", "--size", "-r", "--reference"]),
            Change::Write,
            "truncates",
        ),
        "chmod" | "chown" | "chgrp" | "chattr" | "setfacl" => mode_change(walker, name, args),
        "dd" => {
            let input = args.iter().find_map(|arg| arg.strip_prefix("if="));
            for path in args.iter().filter_map(|arg| arg.strip_prefix("of=")) {
                walker.changes(path, Change::Write, "writes")?;
                if let Some(input) = input {
                    crate::harnesses::renamed(
                        &walker.resolve(input),
                        path,
                        &walker.protected.tama_binary,
                    )?;
                }
            }
            Ok(())
        }
        "sed" | "gsed" => sed(walker, args),
        "vi" | "vim" | "nvim" | "ex" | "ed" | "red" | "vim.basic" | "vim.tiny" | "emacs"
        | "emacs-nox" => editor(walker, name, args, call.stdin),
        // `perl -pi -e …` and `ruby -i -pe …` rewrite the files they read.
        "perl" | "ruby" => {
            interpreters::code(walker, name, args, call.stdin)?;
            if args
                .iter()
                .any(|a| short_flags(a).is_some_and(|f| f.contains('i')))
            {
                let files = operands_after_script(args, &["-e", "-E", "-M", "-I", "-r"]);
                each(walker, &files, Change::Write, "edits in place")?;
            }
            Ok(())
        }
        "find" => find(walker, args),
        "curl" | "wget" | "aria2c" | "yt-dlp" | "youtube-dl" => {
            downloads::download(walker, name, args)
        }
        "tar" | "bsdtar" | "unzip" | "cpio" | "7z" | "7za" | "7zr" | "7zz" | "ar" | "jar"
        | "pax" | "unrar" | "ditto" | "dpkg-deb" => archives::unpack(walker, name, args),
        "patch" => diffs::patch(walker, args, call.stdin),
        "apply_patch" | "applypatch" => match call.stdin.or(args.first().map(String::as_str)) {
            Some(patch) => patch_targets(walker, patch),
            None => Ok(()),
        },
        "git" => git::git(walker, args, call.stdin),
        "yq" | "jq"
            if args
                .iter()
                .any(|a| a == "-i" || a == "--inplace" || a == "--in-place") =>
        {
            each(
                walker,
                &operands(args, &[]),
                Change::Write,
                "edits in place",
            )
        }
        // A compiler's or linker's output: `gcc -o ~/.local/bin/tama x.c`.
        "cc" | "c++" | "gcc" | "g++" | "clang" | "clang++" | "tcc" | "ld" | "ld.lld"
        | "ld.gold" | "lld" | "as" | "rustc" | "go" | "zig" | "gfortran" | "nvcc" | "swiftc" => {
            output_option(walker, args, &["-o", "--output", "-femit-bin="])?;
            unmodelled(walker, name, args, call.stdin, probing)
        }
        "cargo" => {
            cargo_outputs(walker, args)?;
            cargo_config_commands(walker, args)?;
            unmodelled(walker, name, args, call.stdin, probing)
        }
        "cmake" => {
            crate::cmake::check(walker, args)?;
            unmodelled(walker, name, args, call.stdin, probing)
        }
        "sqlite3" => {
            crate::sqlite::check(walker, args, call.stdin)?;
            unmodelled(walker, name, args, call.stdin, probing)
        }
        // Programs that rewrite a binary where it lies.
        "strip" | "objcopy" | "patchelf" | "upx" | "sstrip" | "chrpath" | "install_name_tool" => {
            let valued = [
                "-o",
                "-R",
                "--remove-section",
                "-j",
                "--only-section",
                "-K",
                "-N",
                "--set-interpreter",
                "--set-rpath",
                "--add-rpath",
                "--add-needed",
                "--remove-needed",
                "--replace-needed",
                "-r",
            ];
            let mut files = operands(args, &valued);
            files.extend(option_values(args, &["-o"]));
            each(walker, &files, Change::Write, "rewrites")
        }
        _ => unmodelled(walker, name, args, call.stdin, probing),
    }
}

/// A program the gate models no further: the code it is handed, and the
/// commands its arguments may spell.
fn unmodelled(
    walker: &mut Walker<'_>,
    name: &str,
    args: &[String],
    stdin: Option<&str>,
    probing: bool,
) -> Result<()> {
    interpreters::code(walker, name, args, stdin)?;
    archives::python_module(walker, name, args)?;
    if let Some(written) = file_writers::writes(walker, name, args) {
        written?;
    }
    if !runners::inert(name) {
        file_writers::output_options(walker, name, args)?;
    }
    if probing || runners::inert(name) {
        return Ok(());
    }
    arguments_as_commands(walker, name, args)
}

/// The programs `cargo --config KEY=VALUE` has cargo start: a target's
/// `runner` or `linker`, and `build.rustc`, `rustdoc` and the wrappers.
fn cargo_config_commands(walker: &mut Walker<'_>, args: &[String]) -> Result<()> {
    for setting in option_values(args, &["--config"]) {
        let Some((key, command)) = setting
            .split_once('=')
            .and_then(|(key, value)| Some((key, runners::cargo_setting_command(key, value)?)))
        else {
            continue;
        };
        walker
            .probe_text(&command)
            .map_err(|why| format!("cargo's `{key}` runs a command, and {why}"))?;
    }
    Ok(())
}

/// Where `cargo install` (into `--root`, `CARGO_INSTALL_ROOT` or
/// `~/.cargo`) and `cargo build --artifact-dir` put the programs they
/// build: a crate's program by the crate's name or `--bin`, and any
/// program at all for a crate from a folder or a repository (`--path`,
/// `--git`), whose programs the command does not name. Also where `cargo
/// new` and `init` make a crate.
fn cargo_outputs(walker: &Walker<'_>, args: &[String]) -> Result<()> {
    let valued = [
        "--root",
        "--path",
        "--git",
        "--branch",
        "--tag",
        "--rev",
        "--bin",
        "--example",
        "--features",
        "-F",
        "--version",
        "--vers",
        "--index",
        "--registry",
        "--target",
        "--target-dir",
        "--profile",
        "-j",
        "--jobs",
        "--config",
        "-Z",
        "--artifact-dir",
        "--out-dir",
        "--manifest-path",
        "-p",
        "--package",
        "--color",
        "--message-format",
    ];
    let words = operands(args, &valued);
    match words.first().map(String::as_str) {
        Some("install") => {
            let root = option_values(args, &["--root"])
                .pop()
                .or_else(|| walker.known("CARGO_INSTALL_ROOT"))
                .unwrap_or_else(|| "~/.cargo".to_owned());
            let folder = format!("{root}/bin");
            let named = option_values(args, &["--bin"]);
            let unnamed = args
                .iter()
                .any(|arg| arg.starts_with("--path") || arg.starts_with("--git"));
            if named.is_empty() && (unnamed || words.len() < 2) {
                return walker.changes(&folder, Change::Remove, "installs programs into");
            }
            let programs = if named.is_empty() {
                &words[1..]
            } else {
                &named[..]
            };
            let programs: Vec<String> = programs
                .iter()
                .map(|program| format!("{folder}/{program}"))
                .collect();
            each(walker, &programs, Change::Remove, "installs")
        }
        // `cargo new PATH` and `cargo init [PATH]` write a crate there.
        Some("new" | "init") => {
            let folder = words.get(1).map_or(".", String::as_str);
            walker.changes(folder, Change::Write, "makes a crate in")
        }
        Some("build") => each(
            walker,
            &option_values(args, &["--artifact-dir", "--out-dir"]),
            Change::Remove,
            "builds programs into",
        ),
        _ => Ok(()),
    }
}

/// Whether a word holds a part the gate cannot know.
fn is_unknown(word: &str) -> bool {
    !word.is_ascii() && word.contains(UNKNOWN)
}

/// What `read` or `mapfile` sets from its input (`shell_reader::builtins`):
/// what is typed later, read from the terminal; from a known input (a file,
/// a pipe, a here-string), `read` its first line's words, the last name
/// taking the rest, and `mapfile` every line, as its array expands
/// unquoted; else a value the gate cannot know.
fn set_from_input(walker: &mut Walker<'_>, name: &str, args: &[String], call: &Call<'_>) {
    let from_descriptor = args.iter().any(|arg| arg == "-u");
    let input = call
        .stdin
        .filter(|_| !from_descriptor && !call.terminal_input);
    let assigned = match name {
        "read" => builtins::read(args, input, " "),
        _ => vec![builtins::mapfile(args, input, " ")],
    };
    for (variable, value) in assigned {
        let value = if call.terminal_input {
            crate::terminal::TYPED.to_owned()
        } else {
            value
        };
        walker.set(&variable, value);
    }
}

/// A program the gate does not model may run a command its arguments spell,
/// as `valgrind`, `systemd-run`, `uv run`, `firejail` or `hyperfine` do.
/// Each word that is not an option is read as the start of a command it may
/// run, and a word of several words as shell text it may run; an option's
/// value (`--exec=rm`, `--exec='…'`) is read as a word in its place. Only
/// the commands the gate models count there, so file names and prose pass;
/// so does every argument of a program that only prints or reads them
/// (`echo`, `grep`).
fn arguments_as_commands(walker: &mut Walker<'_>, name: &str, args: &[String]) -> Result<()> {
    if walker.trusts_unknowns() {
        return Ok(());
    }
    let may_run =
        |refusal: String| format!("`{name}` may run what its arguments spell, and {refusal}");
    // An interpreter's script is its code (`interpreters::code`), not a
    // command: `python3 tool.py` does not run `tool.py` as shell, nor does
    // `uv run tool.py`, by its name.
    let script = Language::of(name).and_then(|language| {
        shell_reader::interpreters::sources(language, args)
            .into_iter()
            .find_map(|source| match source {
                Source::File(path) => Some(path),
                _ => None,
            })
    });
    for (at, arg) in args.iter().enumerate() {
        let Some((word, option_value)) = runners::command_word(arg) else {
            continue;
        };
        if script == Some(arg.as_str()) || Language::of_script(word).is_some() {
            continue;
        }
        if word.contains(char::is_whitespace) {
            walker.probe_text(word).map_err(may_run)?;
            continue;
        }
        if word.is_empty() || is_unknown(word) {
            continue;
        }
        walker.step()?;
        let with_value: Vec<String>;
        let argv = if option_value {
            with_value = core::iter::once(word.to_owned())
                .chain(args[at + 1..].iter().cloned())
                .collect();
            &with_value[..]
        } else {
            &args[at..]
        };
        let command = Call {
            argv,
            stdin: None,
            terminal_input: false,
        };
        walker
            .in_child(|walker| {
                let outer = core::mem::replace(&mut walker.guessing_commands, true);
                let ran = run_as(walker, &command, true);
                walker.guessing_commands = outer;
                ran
            })
            .map_err(may_run)?;
    }
    Ok(())
}

/// Codex's `apply_patch` run as a shell command: the tool declaration reads
/// the patch's headers, as it does for the tool.
fn patch_targets(walker: &Walker<'_>, patch: &str) -> Result<()> {
    let input = serde_json::to_string(&serde_json::json!({ "command": patch })).unwrap_or_default();
    let Ok(call) = crate::tama::gate::declaration::classify("apply_patch", &input) else {
        return Ok(());
    };
    for target in call.targets {
        walker.changes(&target.path, Change::Write, "patches")?;
    }
    Ok(())
}

/// What a command runs past its wrappers (`sudo`, `env`, `nohup`, `command`, …).
enum Unwrapped<'a> {
    /// A program by its file name, with its arguments and whether `xargs` feeds it.
    Runs(&'a str, &'a [String], bool),
    /// The innermost wrapper, given no command (`sudo -s`, `unshare -r`).
    Bare(&'a str, &'a [String]),
    /// Nothing runs (`command -v`), or the command was walked here (`env -S`).
    Nothing,
}

/// What `argv` runs past its wrappers.
fn unwrap<'a>(walker: &mut Walker<'_>, argv: &'a [String]) -> Result<Unwrapped<'a>> {
    let mut rest = argv;
    let mut fed = false;
    let mut wrapper = None;
    loop {
        let Some((first, args)) = rest.split_first() else {
            return Ok(wrapper.map_or(Unwrapped::Nothing, |(name, args)| {
                Unwrapped::Bare(name, args)
            }));
        };
        let name = basename(first);
        fed |= name == "xargs";
        // `command -v python3` says where a program is and runs nothing.
        if name == "command"
            && args
                .first()
                .is_some_and(|arg| arg.starts_with(['-']) && arg.contains(['v', 'V']))
        {
            return Ok(Unwrapped::Nothing);
        }
        let skip = match name {
            "sudo" | "doas" => runners::after_options(
                args,
                &[
                    "-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "--user", "--group",
                ],
            ),
            "env" => {
                if let Some(split) = option_values(args, &["-S", "--split-string"]).first() {
                    // `env -S 'cmd args'` runs the string split into words.
                    let rest = args.iter().skip_while(|a| *a != split).skip(1);
                    let text: Vec<&str> = core::iter::once(split.as_str())
                        .chain(rest.map(String::as_str))
                        .collect();
                    walker.in_child(|walker| walker.source(&text.join(" ")))?;
                    return Ok(Unwrapped::Nothing);
                }
                let mut index = runners::after_options(
                    args,
                    &["-u", "--unset", "-C", "--chdir", "-S", "--split-string"],
                );
                // `env -C DIR cmd` runs the command in DIR.
                for dir in option_values(&args[..index], &["-C", "--chdir"]) {
                    let folder = walker.resolve(&dir);
                    walker.cd(folder, Vec::new());
                }
                while let Some(assignment) = args.get(index).filter(|a| a.contains('=')) {
                    if let Some((key, value)) = assignment.split_once('=') {
                        walker.assign(key, value.to_owned())?;
                    }
                    index += 1;
                }
                index
            }
            "runuser" if runners::command_option(args).is_none() => runners::after_options(
                args,
                &["-u", "--user", "-g", "--group", "-G", "--supp-group", "-w"],
            ),
            "pkexec" => runners::after_options(args, &["--user"]),
            "setpriv" => runners::after_options(args, &["--reuid", "--regid", "--groups"]),
            "xargs" => runners::Xargs::parse(args).command,
            "nohup" | "command" | "builtin" | "busybox" | "toybox" | "setsid" | "unbuffer" => {
                runners::after_options(args, &[])
            }
            "exec" => runners::after_options(args, &["-a"]),
            "time" => runners::after_options(args, &["-f", "-o", "--format", "--output"]),
            "nice" | "ionice" | "stdbuf" | "chrt" | "taskset" => {
                runners::after_options(args, &["-n", "-c", "-o", "-e", "-i"])
            }
            "chronic" => runners::after_options(args, &["-n", "--interval"]),
            // Each starts the user's shell when given no command.
            "unshare" => runners::after_options(
                args,
                &[
                    "-S", "-G", "-R", "-w", "--setuid", "--setgid", "--root", "--wd",
                ],
            ),
            "nsenter" => runners::after_options(
                args,
                &["-t", "--target", "-S", "--setuid", "-G", "--setgid"],
            ),
            "fakeroot" => {
                runners::after_options(args, &["-l", "--lib", "--faked", "-s", "-i", "-b"])
            }
            "firejail" | "proot" => runners::after_options(args, &["-r", "-b", "-w"]),
            "rlwrap" => runners::after_options(
                args,
                &[
                    "-b", "-C", "-D", "-e", "-f", "-g", "-H", "-l", "-M", "-O", "-P", "-q", "-s",
                    "-S", "-t", "-w", "-z",
                ],
            ),
            "strace" => runners::after_options(
                args,
                &[
                    "-o", "-e", "-p", "-s", "-u", "-a", "-E", "-P", "-O", "-S", "-X", "-b", "-I",
                ],
            ),
            "ltrace" => runners::after_options(
                args,
                &[
                    "-o", "-e", "-p", "-s", "-u", "-a", "-A", "-D", "-F", "-l", "-n", "-w", "-x",
                ],
            ),
            // `flock [options] FILE COMMAND…` (its `-c` is read above).
            "flock" if runners::command_option(args).is_none() => {
                runners::after_options(args, &["-w", "--timeout", "-E", "--conflict-exit-code"]) + 1
            }
            "timeout" => {
                runners::after_options(args, &["-s", "--signal", "-k", "--kill-after"]) + 1
            }
            _ => return Ok(Unwrapped::Runs(name, args, fed)),
        };
        wrapper = Some((name, args));
        rest = args.get(skip..).unwrap_or_default();
    }
}

/// The options of the `xargs` in `argv`, when one runs there.
fn xargs_options(argv: &[String]) -> Option<runners::Xargs<'_>> {
    let at = argv.iter().position(|word| basename(word) == "xargs")?;
    Some(runners::Xargs::parse(&argv[at + 1..]))
}

/// `argv` with what `xargs -I REPLACE` (or `-i`, for `{}`, or BSD's `-J`)
/// puts the items it reads in place of, unknown: `ls ~/.tama | xargs -I{}
/// cat ~/.tama/{}` reads whatever that folder holds. `None` without such
/// an `xargs`.
pub(crate) fn xargs_filled(argv: &[String]) -> Option<Vec<String>> {
    let options = xargs_options(argv)?;
    let token = options.replace.or(options.place)?;
    let unknown = String::from(UNKNOWN);
    Some(
        argv.iter()
            .map(|word| word.replace(token, &unknown))
            .collect(),
    )
}

/// The words that are not options, skipping the values of `valued` options.
pub(crate) fn operands(args: &[String], valued: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut index = 0;
    let mut options_end = false;
    while let Some(arg) = args.get(index) {
        index += 1;
        if options_end || !arg.starts_with('-') || arg == "-" {
            out.push(arg.clone());
        } else if arg == "--" {
            options_end = true;
        } else if valued.contains(&arg.as_str()) || ends_with_valued_flag(arg, valued) {
            index += 1;
        }
    }
    out
}

/// A short-option cluster whose last letter takes the next word (`-vt DIR`).
fn ends_with_valued_flag(arg: &str, valued: &[&str]) -> bool {
    short_flags(arg).is_some_and(|flags| {
        flags.len() > 1
            && valued
                .iter()
                .any(|name| name.len() == 2 && flags.ends_with(&name[1..]))
    })
}

/// The letters of a short-option cluster (`-pi` gives `pi`).
pub(crate) fn short_flags(arg: &str) -> Option<&str> {
    arg.strip_prefix('-')
        .filter(|rest| !rest.starts_with('-') && !rest.is_empty())
}

/// The value of an option among `names`, as `-o X`, `-oX`, `--output=X`.
pub(crate) fn option_values(args: &[String], names: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for (index, arg) in args.iter().enumerate() {
        for name in names {
            if arg == name || ends_with_valued_flag(arg, &[name]) {
                if let Some(value) = args.get(index + 1) {
                    out.push(value.clone());
                }
            } else if let Some(value) = arg.strip_prefix(name) {
                let value = if name.starts_with("--") {
                    value.strip_prefix('=')
                } else {
                    Some(value)
                };
                if let Some(value) = value.filter(|v| !v.is_empty()) {
                    out.push(value.to_owned());
                }
            }
        }
    }
    out
}

pub(crate) fn each(
    walker: &Walker<'_>,
    paths: &[String],
    change: Change,
    verb: &str,
) -> Result<()> {
    for path in paths {
        walker.changes(path, change, verb)?;
    }
    Ok(())
}

/// How a copying command spells its operands.
pub(crate) struct CopySyntax {
    /// Options whose value is the next word.
    valued: &'static [&'static str],
    /// Options that name the folder every source lands in.
    target_folder: &'static [&'static str],
    /// Options that make the destination the copy itself, not a folder the
    /// source lands in (`cp -rT src dest`).
    no_target_folder: &'static [&'static str],
    /// A source ending in `/` lands its contents in the destination
    /// (`rsync -a src/ dest`), not a folder of its own name.
    slash_means_contents: bool,
    /// A source may be on another host (`host:path`).
    remote_sources: bool,
}

/// The module `python -m MODULE args…` runs, and the arguments after it;
/// `None` for any other command.
pub(crate) fn python_module<'a>(name: &str, args: &'a [String]) -> Option<(&'a str, &'a [String])> {
    if !name.starts_with("python") {
        return None;
    }
    let at = args.iter().position(|arg| arg == "-m")?;
    let module = args.get(at + 1)?;
    Some((module.as_str(), args.get(at + 2..).unwrap_or_default()))
}

/// The sources a copy-like command names and where they go: the folders
/// its target option names, or its last operand (the working folder for
/// `ln -s /x`). `None` when it names nothing.
pub(crate) fn copied(args: &[String], syntax: &CopySyntax) -> Option<(Vec<String>, Vec<String>)> {
    let mut files = operands(args, syntax.valued);
    let mut destinations = option_values(args, syntax.target_folder);
    if destinations.is_empty() {
        match files.len() {
            0 => return None,
            1 => destinations.push(".".to_owned()),
            _ => destinations.extend(files.pop()),
        }
    }
    Some((files, destinations))
}

/// `cp` and `mv` (GNU coreutils).
pub(crate) const GNU_COPY: CopySyntax = CopySyntax {
    valued: &["-S", "--suffix", "-t", "--target-directory"],
    target_folder: &["-t", "--target-directory"],
    no_target_folder: &["-T", "--no-target-directory"],
    slash_means_contents: false,
    remote_sources: false,
};

/// `ln -n` replaces a link to a folder rather than linking inside it
/// (`ln -sfn /tmp/x ~/.claude` where `~/.claude` is a link), as `-T` does.
const LN: CopySyntax = CopySyntax {
    no_target_folder: &["-T", "--no-target-directory", "-n", "--no-dereference"],
    ..GNU_COPY
};

pub(crate) const INSTALL: CopySyntax = CopySyntax {
    valued: &[
        "-m",
        "--mode",
        "-o",
        "--owner",
        "-g",
        "--group",
        "-S",
        "--suffix",
        "-t",
        "--target-directory",
    ],
    ..GNU_COPY
};

/// rsync's `-t` keeps times and `-T` names a temporary folder; long options
/// may take their value as the next word, also after the operands.
const RSYNC: CopySyntax = CopySyntax {
    valued: &[
        "-e",
        "--rsh",
        "-f",
        "--filter",
        "-T",
        "--temp-dir",
        "-B",
        "--block-size",
        "-M",
        "--remote-option",
        "--rsync-path",
        "--exclude",
        "--include",
        "--exclude-from",
        "--include-from",
        "--files-from",
        "--partial-dir",
        "--backup-dir",
        "--suffix",
        "--chmod",
        "--chown",
        "--compare-dest",
        "--copy-dest",
        "--link-dest",
        "--log-file",
        "--log-file-format",
        "--out-format",
        "--password-file",
        "--timeout",
        "--contimeout",
        "--max-size",
        "--min-size",
        "--max-delete",
        "--bwlimit",
        "--usermap",
        "--groupmap",
        "--iconv",
        "--port",
        "--sockopts",
        "--skip-compress",
        "--compress-choice",
        "--checksum-choice",
        "--only-write-batch",
        "--write-batch",
        "--read-batch",
        "--stop-after",
        "--stop-at",
        "--modify-window",
        "--outbuf",
        "--info",
        "--debug",
    ],
    target_folder: &[],
    no_target_folder: &[],
    slash_means_contents: true,
    remote_sources: true,
};

const SCP: CopySyntax = CopySyntax {
    valued: &["-c", "-D", "-F", "-i", "-J", "-l", "-o", "-P", "-S", "-X"],
    target_folder: &[],
    no_target_folder: &[],
    slash_means_contents: false,
    remote_sources: true,
};

/// `cp`, `mv`, `ln`, `install`, `rsync`, `scp`: the destination is written,
/// also as the folder each source lands in; where a source's contents land
/// in the destination itself, its whole tree is replaced; `mv` removes its
/// sources too.
fn copy_like(walker: &Walker<'_>, args: &[String], syntax: &CopySyntax, moves: bool) -> Result<()> {
    let Some((files, destinations)) = copied(args, syntax) else {
        return Ok(());
    };
    for (source, destination) in files
        .iter()
        .flat_map(|f| destinations.iter().map(move |d| (f, d)))
    {
        let tama = &walker.protected.tama_binary;
        crate::harnesses::renamed(&walker.resolve(source), destination, tama)?;
    }
    if moves {
        each(walker, &files, Change::Remove, "moves away")?;
    }
    let is_copy_itself = args.iter().any(|arg| {
        syntax.no_target_folder.contains(&arg.as_str())
            || syntax.no_target_folder.iter().any(|option| {
                option.len() == 2
                    && short_flags(arg).is_some_and(|flags| flags.contains(&option[1..]))
            })
    });
    // `cp -b -S .json x ~/.claude/settings`: a file replaced is kept under
    // its name and the suffix, which may be a protected name.
    let backups = args.iter().any(|arg| {
        arg == "-b"
            || arg.starts_with("--backup")
            || arg.starts_with("--suffix")
            || short_flags(arg).is_some_and(|flags| flags.contains(['b', 'S']))
    });
    let suffix = option_values(args, &["-S", "--suffix"])
        .pop()
        .unwrap_or_else(|| "~".to_owned());
    // `cp --parents .tama/registry.json ~` writes `~/.tama/registry.json`.
    let parents = args.iter().any(|arg| {
        arg == "--parents"
            || arg == "--relative"
            || (core::ptr::eq(syntax, &RSYNC) && short_flags(arg).is_some_and(|f| f.contains('R')))
    });
    for destination in &destinations {
        if backups {
            walker.changes(
                &format!("{destination}{suffix}"),
                Change::Write,
                "renames a file it replaces onto",
            )?;
        }
        if is_copy_itself {
            // What lands there is written into the folder itself, too.
            walker.changes(destination, Change::Write, "replaces")?;
            walker.changes(destination, Change::Remove, "replaces")?;
            continue;
        }
        walker.changes(destination, Change::Write, "writes")?;
        for source in &files {
            let source = if syntax.remote_sources {
                remote_path(source)
            } else {
                source
            };
            if parents {
                let folder = destination.trim_end_matches('/');
                let path = source.trim_start_matches("./");
                walker.changes(&format!("{folder}/{path}"), Change::Remove, "writes")?;
            }
            if backups {
                let folder = destination.trim_end_matches('/');
                let landed = format!(
                    "{folder}/{}{suffix}",
                    basename(source.trim_end_matches('/'))
                );
                walker.changes(&landed, Change::Write, "renames a file it replaces onto")?;
            }
            // A source lands under its own name and replaces that whole tree;
            // one that lands its contents replaces the destination's.
            let trimmed = source.trim_end_matches('/');
            let name = basename(trimmed);
            let contents = (syntax.slash_means_contents && trimmed.len() < source.len())
                || matches!(name, "." | "..");
            if contents {
                walker.changes(
                    destination,
                    Change::Remove,
                    "copies a folder's contents over",
                )?;
            } else {
                let folder = destination.trim_end_matches('/');
                let landed = format!("{folder}/{name}");
                walker.changes(&landed, Change::Remove, "writes")?;
                // The file itself, when the destination is a folder
                // (`cp /tmp/claude ~/.local/bin`).
                walker.changes(&landed, Change::Write, "writes")?;
            }
        }
    }
    Ok(())
}

/// The path of a source on the host it names (`host:path`,
/// `user@host:path`, rsync's `host::module/path`), which lands under its own
/// name as a local one does; `.` for the remote home (`host:`).
fn remote_path(source: &str) -> &str {
    match source.split_once(':') {
        Some((host, path)) if !host.is_empty() && !host.contains('/') => {
            match path.trim_start_matches(':') {
                "" => ".",
                path => path,
            }
        }
        _ => source,
    }
}

/// `chmod`, `chown`, …: the first operand is the mode or owner unless a
/// reference file gives it; recursive changes count for the whole tree.
fn mode_change(walker: &Walker<'_>, name: &str, args: &[String]) -> Result<()> {
    let recursive = args
        .iter()
        .any(|a| a == "--recursive" || short_flags(a).is_some_and(|f| f.contains('R')));
    let referenced = args.iter().any(|a| a.starts_with("--reference"));
    let files = operands(args, &["-M"]);
    // `chmod -x f`: the mode reads as an option, so the operands are all files.
    let dashed_mode = args.iter().find(|a| {
        a.len() > 1
            && a.starts_with('-')
            && a[1..].chars().all(|c| "rwxXstugoa=+,-".contains(c))
            && *a != "-R"
    });
    let (mode, files) = match dashed_mode {
        _ if referenced => (None, &files[..]),
        Some(mode) => (Some(mode), &files[..]),
        None => (files.first(), files.get(1..).unwrap_or_default()),
    };
    // A folder its owner can no longer read or enter hides every file in
    // it: a harness cannot read its hook settings under `chmod 000 ~/.claude`.
    let locks_out = name == "chmod" && mode.is_some_and(|mode| locks_owner_out(mode));
    let change = if recursive || locks_out {
        Change::Remove
    } else {
        Change::Write
    };
    each(walker, files, change, "changes the mode or owner of")
}

/// Whether a `chmod` mode may take reading or entering away from the
/// owner: an octal mode whose owner digit lacks read or execute, or a
/// symbolic clause for the owner (`u`, `a` or nobody named) that removes
/// either or sets a mode without both.
fn locks_owner_out(mode: &str) -> bool {
    if mode.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
        let owner = mode
            .len()
            .checked_sub(3)
            .map_or(0, |at| mode.as_bytes()[at] - b'0');
        return owner & 0o5 != 0o5;
    }
    mode.split(',').any(|clause| {
        let operations = clause.trim_start_matches(['u', 'g', 'o', 'a']);
        let who = &clause[..clause.len() - operations.len()];
        if !(who.is_empty() || who.contains(['u', 'a'])) {
            return false;
        }
        let mut rest = operations;
        while let Some(operator) = rest.chars().next().filter(|c| "+-=".contains(*c)) {
            let perms_end = rest[1..]
                .find(['+', '-', '='])
                .map_or(rest.len(), |at| at + 1);
            let perms = &rest[1..perms_end];
            let reads = perms.contains('r');
            let enters = perms.contains(['x', 'X']);
            match operator {
                '-' if reads || enters => return true,
                '=' if !(reads && enters) => return true,
                _ => {}
            }
            rest = &rest[perms_end..];
        }
        false
    })
}

fn sed(walker: &Walker<'_>, args: &[String]) -> Result<()> {
    let scripts = option_values(args, &["-e", "--expression"]);
    let scripts = if scripts.is_empty() {
        operands(args, &["-f", "--file", "-l", "--line-length"])
            .into_iter()
            .take(1)
            .collect()
    } else {
        scripts
    };
    for script in &scripts {
        each(
            walker,
            &file_writers::sed_written(script),
            Change::Write,
            "writes",
        )?;
    }
    let in_place = args.iter().any(|a| {
        a.starts_with("--in-place") || short_flags(a).is_some_and(|flags| flags.contains('i'))
    });
    if !in_place {
        return Ok(());
    }
    let files = operands_after_script(
        args,
        &["-e", "--expression", "-f", "--file", "-l", "--line-length"],
    );
    each(walker, &files, Change::Write, "edits in place")
}

/// Operands after the script, which is the first operand unless a script
/// option gave it.
fn operands_after_script(args: &[String], script_options: &[&str]) -> Vec<String> {
    let scripted = args.iter().any(|a| {
        script_options
            .iter()
            .any(|o| a == o || (o.len() == 2 && a.starts_with(o)))
            || short_flags(a).is_some_and(|f| f.ends_with('e') || f.ends_with('E'))
    });
    let files = operands(args, script_options);
    if scripted {
        files
    } else {
        files.get(1..).unwrap_or_default().to_vec()
    }
}

/// Extensions of files a harness keeps as data, never its settings or code:
/// what `find -name '*.EXT' -delete` may clean out of its folder.
const DATA_EXTENSIONS: &[&str] = &[
    "jsonl", "log", "txt", "tmp", "bak", "old", "orig", "swp", "md", "csv", "pid",
];

/// A file `find` selects under `start`, when it selects only data files in
/// a harness's folder ([`DATA_EXTENSIONS`], [`in_harness_folder`]): a name
/// of the first pattern's kind (`~/.claude/found.jsonl`).
fn data_found(walker: &Walker<'_>, args: &[String], start: &str) -> Option<String> {
    let patterns = crate::key_reads::name_patterns(args)?;
    let data_only = patterns.iter().all(|pattern| {
        pattern
            .strip_prefix("*.")
            .is_some_and(|extension| DATA_EXTENSIONS.contains(&extension))
    });
    (data_only && in_harness_folder(&walker.resolve(start))).then(|| {
        let name = patterns[0].replace('*', "found");
        format!("{}/{name}", start.trim_end_matches('/'))
    })
}

/// Whether `path` lies in Claude Code's or Codex's own folder (`~/.claude`,
/// `~/.codex`, or a folder in one), where Tama's entries are settings files.
fn in_harness_folder(path: &str) -> bool {
    let mut parts = path.split('/');
    parts.any(|part| part == ".claude" || part == ".codex")
}

/// `find … -delete` or `-exec rm …`: everything under its starting points.
fn find(walker: &mut Walker<'_>, args: &[String]) -> Result<()> {
    let starts = args[runners::find_folders(args)].to_vec();
    let starts = if starts.is_empty() {
        vec![".".to_owned()]
    } else {
        starts
    };
    let changes = args
        .iter()
        .enumerate()
        .any(|(index, arg)| match arg.as_str() {
            "-delete" => true,
            "-exec" | "-execdir" | "-ok" | "-okdir" => args.get(index + 1).is_some_and(|command| {
                matches!(
                    basename(command),
                    "rm" | "mv"
                        | "cp"
                        | "chmod"
                        | "chown"
                        | "shred"
                        | "truncate"
                        | "tee"
                        | "sed"
                        | "perl"
                        | "unlink"
                        | "ln"
                        | "install"
                        | "sh"
                        | "bash"
                )
            }),
            _ => false,
        });
    if changes {
        // `find ~/.claude -name '*.jsonl' -delete`: transcripts and logs in a
        // harness's folder, none of them its settings or code.
        let changed: Vec<String> = starts
            .iter()
            .filter(|start| data_found(walker, args, start).is_none())
            .cloned()
            .collect();
        each(walker, &changed, Change::Remove, "changes files under")?;
    }
    // `-fprint FILE` and its kin write what find lists to FILE.
    let listings = option_values(args, &["-fprint", "-fprint0", "-fprintf", "-fls"]);
    each(walker, &listings, Change::Write, "writes")?;
    // `-exec COMMAND {} ;`: the command runs, on what is found under the
    // starting points.
    let mut rest = args;
    while let Some(at) = rest
        .iter()
        .position(|a| matches!(a.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir"))
    {
        let command: Vec<&String> = rest[at + 1..]
            .iter()
            .take_while(|a| *a != ";" && *a != "+")
            .collect();
        rest = &rest[at + 1 + command.len()..];
        for start in &starts {
            let found = data_found(walker, args, start).unwrap_or_else(|| start.clone());
            let argv: Vec<String> = command.iter().map(|a| a.replace("{}", &found)).collect();
            run(
                walker,
                // `-exec` commands read find's own input.
                &Call {
                    argv: &argv,
                    stdin: None,
                    terminal_input: true,
                },
            )?;
        }
    }
    Ok(())
}

fn output_option(walker: &Walker<'_>, args: &[String], names: &[&str]) -> Result<()> {
    let change = Change::Remove;
    each(walker, &option_values(args, names), change, "writes")
}

/// `sh -c TEXT`, `bash <<EOF`, `sh script`: the text that runs is walked,
/// a script file's when this command wrote it or it lies on disk, after the
/// file the shell reads first (bash's `BASH_ENV`, a POSIX shell's `ENV`).
fn shell(walker: &mut Walker<'_>, name: &str, args: &[String], stdin: Option<&str>) -> Result<()> {
    let shell = runners::ShellArgs::parse(name, args);
    let startup: Vec<String> = ["BASH_ENV", "ENV"]
        .iter()
        .filter_map(|name| walker.known(name))
        .chain(shell.startup.iter().map(|file| (*file).to_owned()))
        .collect();
    // The new shell reads its start-up files, then its commands.
    walker.in_child(|walker| {
        for file in startup {
            if let Some(text) = walker.script_text(&file)? {
                walker.script_source(&file, &text)?;
            }
        }
        for text in shell.init.iter().chain(&shell.runs.texts(stdin)) {
            walker.source(text)?;
        }
        match shell.runs {
            Runs::Script(file) => match walker.script_text(file)? {
                Some(text) => walker.script_source(file, &text),
                None => Ok(()),
            },
            _ => Ok(()),
        }
    })
}

/// A file run by its path (`/tmp/b`, `./b`): one this command wrote runs as
/// a shell script without a `#!` line (one with the line was read when it
/// was written, `walk::run_later`); one on disk, with a shell's line or none.
fn run_written(walker: &mut Walker<'_>, call: &Call<'_>, args: &[String]) -> Result<()> {
    let program = call.argv.len().checked_sub(args.len() + 1);
    let Some(path) = program
        .and_then(|at| call.argv.get(at))
        .filter(|path| path.contains('/'))
    else {
        return Ok(());
    };
    match walker.written(path).map(str::to_owned) {
        Some(script) if !script.starts_with("#!") => walker.child_source_if_shell(&script),
        Some(_) => Ok(()),
        None => match walker.script_text(path)? {
            Some(script) => walker.in_child(|walker| walker.script_source(path, &script)),
            None => Ok(()),
        },
    }
}

/// An editor edits the files it names when given commands
/// (`runners::editor_edits`); emacs also runs its Lisp.
fn editor(walker: &mut Walker<'_>, name: &str, args: &[String], stdin: Option<&str>) -> Result<()> {
    if name.starts_with("emacs") {
        interpreters::code(walker, name, args, stdin)?;
    }
    // `w FILE` in the commands it is given writes FILE, whatever it edits.
    let mut commands: Vec<String> = option_values(args, &["-c", "--cmd"]);
    commands.extend(
        args.iter()
            .filter_map(|arg| arg.strip_prefix('+'))
            .map(str::to_owned),
    );
    commands.extend(stdin.map(str::to_owned));
    let written: Vec<String> = commands
        .iter()
        .flat_map(|text| editor_writes(text))
        .collect();
    each(walker, &written, Change::Write, "writes")?;
    let fed = stdin.is_some() || matches!(name, "ed" | "red" | "ex");
    if !runners::editor_edits(args, fed) {
        return Ok(());
    }
    let valued = [
        "-c", "--cmd", "-u", "-U", "-i", "-T", "-w", "-W", "--eval", "-l", "--load",
    ];
    let files: Vec<String> = operands(args, &valued)
        .into_iter()
        .filter(|file| !file.starts_with('+'))
        .collect();
    each(walker, &files, Change::Write, "edits")
}

/// The files ed, ex or vim commands write by name: `w FILE`, `W FILE`
/// (appends), `wq FILE`, `:write FILE`, `:saveas FILE`, after any line
/// address (`1,$w FILE`), one command a line or between vim's `|`.
fn editor_writes(commands: &str) -> Vec<String> {
    const WRITES: &[&str] = &[
        "w", "W", "wq", "write", "sav", "saveas", "x", "xit", "up", "update",
    ];
    commands
        .split(['\n', '|'])
        .filter_map(|command| {
            let command = command.trim_start().trim_start_matches(':');
            let command = command.trim_start_matches(|c: char| {
                c.is_ascii_digit() || matches!(c, ',' | '.' | '$' | ';' | '%' | '+' | '-' | ' ')
            });
            let (word, file) = command.split_once(' ')?;
            let word = word.trim_end_matches('!');
            let file = file.trim();
            (WRITES.contains(&word) && !file.is_empty() && !file.starts_with('!'))
                .then(|| file.to_owned())
        })
        .collect()
}

/// Whether `name args…` sets the environment of the user's later sessions
/// and services (`systemctl --user set-environment`, `launchctl setenv`).
fn sets_session_environment(name: &str, args: &[String]) -> bool {
    match name {
        "systemctl" => args
            .iter()
            .any(|arg| matches!(arg.as_str(), "set-environment" | "import-environment")),
        "launchctl" => args.iter().any(|arg| arg == "setenv"),
        "initctl" => args.iter().any(|arg| arg == "set-env"),
        _ => true,
    }
}

/// What programs such as `tmux`, `at`, `make`, `su -c`, `watch`, `vim -c`
/// or `tar --to-command` hand a shell (`runners`), walked as a child
/// process runs it.
fn handed_to_shell(
    walker: &mut Walker<'_>,
    name: &str,
    args: &[String],
    stdin: Option<&str>,
) -> Result<()> {
    // The file `xargs -a` reads its items from may lie on disk; the files of
    // other programs (a makefile, a crontab) are read only when the command
    // wrote them: a repository's own hold what its user runs on purpose.
    let texts = runners::shell_texts(name, args, stdin, |path| match name {
        "xargs" => walker.file_text(path),
        _ => walker.written(path),
    });
    for text in texts {
        walker
            .as_program_input(|walker| walker.child_source_if_shell(&text))
            .map_err(|why| {
                format!(
                    "`{name}` hands a shell, now or in a script it writes, commands by which {why}"
                )
            })?;
    }
    Ok(())
}

/// A command whose name the gate cannot know (`$cmd …`, `"$(…)" …`): it may
/// be any command. Its operands are read as paths it may delete, the
/// command after it as one it may run (as `sudo` or `xargs` would), and a
/// script it is given as one a shell may run, when the script is shell.
fn unknown_command(
    walker: &mut Walker<'_>,
    name: &str,
    args: &[String],
    stdin: Option<&str>,
) -> Result<()> {
    // The unknown name may stand for several words (`"${cmd[@]}"`), the
    // later of them operands.
    let mut operands = operands(args, &[]);
    operands.push(name.to_owned());
    each(
        walker,
        &operands,
        Change::Remove,
        "may delete, by a command of unknown name,",
    )?;
    for script in runners::ShellArgs::parse("sh", args).runs.texts(stdin) {
        walker.child_source_if_shell(script)?;
    }
    run(
        walker,
        &Call {
            argv: args,
            stdin,
            terminal_input: false,
        },
    )
}

/// `tama` run by the agent: everything but the operator's commands passes.
fn tama(walker: &mut Walker<'_>, args: &[String]) -> Result<()> {
    let words: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| !a.starts_with('-'))
        .collect();
    // `tama registry seal FILE` rewrites FILE's checksum.
    if let ["registry", "seal", files @ ..] = words.as_slice() {
        let files: Vec<String> = files.iter().map(|file| (*file).to_owned()).collect();
        each(walker, &files, Change::Write, "seals")?;
    }
    // `tama doctor --codex PROGRAM` runs PROGRAM to ask it about trust.
    if words.first() == Some(&"doctor") {
        for codex in option_values(args, &["--codex"]) {
            walker.child_source_if_shell(&format!("{} app-server", quoted(&codex)))?;
        }
    }
    // `tama setup` with a registry of the agent's choosing installs hook
    // entries for that registry's events alone, and takes the others out.
    let operator = match words.as_slice() {
        ["sessions", "override" | "grant", ..] => true,
        ["setup", ..] => {
            args.iter().any(|a| {
                a == "--remove"
                    || a.starts_with("--remove=")
                    || a == "--registry"
                    || a.starts_with("--registry=")
            }) || walker.assigned("TAMA_REGISTRY").is_some()
        }
        _ => false,
    };
    if operator {
        return Err(format!(
            "`tama {}` is an operator's command: removing Tama, installing it for another registry or granting the agent rights is not the agent's act; ask the user to run it in a terminal",
            shown(&args.join(" "))
        ));
    }
    Ok(())
}

fn is_tama_binary(walker: &Walker<'_>, argv: &[String]) -> bool {
    let binary = &walker.protected.tama_binary;
    !binary.is_empty()
        && argv
            .first()
            .is_some_and(|first| first.contains('/') && walker.resolve(first) == *binary)
}

pub fn basename(path: &str) -> &str {
    // A loop over the bytes: on words this short, a `memrchr` costs more to
    // set up than the loop takes.
    match path.bytes().rposition(|byte| byte == b'/') {
        Some(slash) => path.get(slash + 1..).unwrap_or(path),
        None => path,
    }
}
