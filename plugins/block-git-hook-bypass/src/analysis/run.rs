//! Running one command: shell builtins that change what later commands see,
//! and the dispatch to git, shells, wrappers and file tools.

use crate::prelude::*;

use shell_reader::builtins;
use shell_reader::disk;
use shell_reader::git_config;
use shell_reader::interpreters::quoted;
use shell_reader::runners::{self, command_word};

use super::execs::Runner;
use super::simple::Env;
use super::{Frame, Result, Walker, commands, committers, files, wrappers};
use crate::field::{Field, UNKNOWN, owned, shown};
use crate::finding::Finding;
use crate::output;
use shell_reader::runners::is_shell;

/// The effect of a file put in place of a hook under a `umask` that takes
/// the execute bit off.
pub(super) const UMASKED: &str =
    "puts a file made without the execute bit (by the `umask` set before) in place of";

/// Whether `umask args…` takes the owner's execute bit off new files: an
/// octal mask with it (`777`, `0100`), a symbolic one without `x` for the
/// owner (`u=rw`, `a-x`), or a mask the gate cannot know.
fn umask_strips_execute(args: &[Field<'_>]) -> bool {
    let Some(mask) = args.iter().find(|arg| !arg.text.starts_with('-')) else {
        return false;
    };
    let mask = &*mask.text;
    if mask.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
        let value = u32::from_str_radix(mask, 8).unwrap_or(0);
        return value & 0o100 != 0;
    }
    if mask.contains(UNKNOWN) {
        return true;
    }
    mask.split(',').any(|clause| {
        let owner = clause.starts_with(['u', 'a']) || clause.starts_with(['=', '-']);
        owner
            && ((clause.contains('=') && !clause.contains('x'))
                || (clause.contains('-') && clause.contains('x')))
    })
}

/// The effect of a link to hooks, said in a refusal.
const LINKS: &str = "links a second name, through which later commands may change them, to";

/// Whether `word`, followed by `next`, starts a command the gate reads in
/// the arguments of a program it does not model: git, a shell given `-c`,
/// an interpreter.
fn starts_command(word: &str, next: Option<&str>) -> bool {
    let name = basename(word);
    let shell_string =
        is_shell(name) && next.is_some_and(|next| next.starts_with('-') && next.contains('c'));
    matches!(name, "git" | "hub" | "env")
        || shell_string
        || shell_reader::interpreters::Language::of(name).is_some()
}

/// A command path's file name: `/usr/bin/git` is `git`.
pub(super) fn basename(path: &str) -> &str {
    match path.bytes().rposition(|byte| byte == b'/' || byte == b'\\') {
        Some(at) => path.get(at + 1..).unwrap_or(path),
        None => path,
    }
}

impl Walker {
    /// Runs `argv` with `env` added to its environment; returns its output
    /// when known.
    pub(super) fn run(
        &mut self,
        frame: &mut Frame<'_>,
        argv: &[Field<'_>],
        env: &Env,
        stdin: Option<&str>,
    ) -> Result<Option<String>> {
        let unread = core::mem::take(&mut self.output_unread);
        let Some((first, args)) = argv.split_first() else {
            return Ok(None);
        };
        let Some(path) = first.exact() else {
            return self.unknown_command(frame, argv, env);
        };
        if path.contains('/') {
            if let Some(script) = self.script_text(path)? {
                return self.child_script(path, &script, Some(owned(args)));
            }
            // `./release.py`: its `#!` line's interpreter runs it.
            if let Some(interpreter) = self
                .code_text(path)?
                .as_deref()
                .and_then(runners::shebang_program)
                && let Some(printed) = self.interpreter(interpreter, argv, stdin, env)?
            {
                self.scan_arguments(frame, args, env)?;
                return Ok(Some(printed));
            }
        }
        if let Some(index) = self.aliases.iter().rposition(|(alias, _)| alias == path) {
            return self.expand_alias(index, args);
        }
        let name = basename(path);
        let name = name.strip_suffix(".exe").unwrap_or(name);
        // A function that calls its own name runs the program by that name
        // (`git() { command git "$@" -n; }`): the gate does not recurse.
        if let Some(index) = frame
            .functions
            .iter()
            .rposition(|function| function.name == name)
            && frame
                .functions
                .get(index)
                .is_some_and(|function| !function.running)
        {
            return self.call_function(frame, index, Some(owned(args)));
        }
        if let Some(finding) = self.patches_hooks(name, argv, stdin) {
            return Err(finding);
        }
        if matches!(name, "sort" | "uniq" | "touch") {
            self.writes_by_operand(name, argv, stdin)?;
        }
        if runners::archives_away(name, args)
            && args.iter().any(|arg| {
                !arg.text.starts_with('-') && files::is_hook_path(&arg.text, self.within())
            })
        {
            return Err(self.hook_files(shown(argv), "deletes, moving them into an archive,"));
        }
        if matches!(name, "cp" | "ln" | "install" | "hash") {
            self.git_by_another_name(name, args);
        }
        // `ln -s .git/hooks h && rm h/pre-commit`: what is done through a
        // link to the hooks is done to them.
        if files::makes_links(name, args)
            && files::link_targets(args).iter().any(|target| {
                files::is_hook_path(&target.text, self.within()) || files::holds_hooks(&target.text)
            })
        {
            return Err(self.hook_files(shown(argv), LINKS));
        }
        let done = Ok(Some(String::new()));
        match name {
            "git" | "hub" => self.git(frame, args, env),
            "printf" if args.first().is_some_and(|arg| arg.text == "-v") => {
                self.printf_to_variable(args)?;
                done
            }
            "read" => {
                let stdin = stdin.map(str::to_owned).or_else(|| self.group_stdin.take());
                self.read_builtin(args, stdin.as_deref())?;
                done
            }
            "mapfile" | "readarray" => {
                let stdin = stdin.map(str::to_owned).or_else(|| self.group_stdin.take());
                self.mapfile_builtin(args, stdin.as_deref());
                for call in builtins::mapfile_callbacks(args, stdin.as_deref()) {
                    self.source(&call)?;
                }
                done
            }
            // What nothing reads need not be worked out.
            "echo" | "printf" if unread => Ok(None),
            "echo" => Ok(Some(output::echo(args))),
            "printf" => Ok(Some(output::printf(args))),
            "dirname" | "basename" if !unread => Ok(output::path_parts(name, args)),
            "cmake" => match args.iter().position(|arg| arg.text == "-E") {
                Some(at) => match runners::cmake_command(&args[at + 1..]) {
                    Some(command) => self.child_source(&command, None),
                    None => done,
                },
                None => done,
            },
            // The shell's folder, as `.` names it: `git clone "$(pwd)"`.
            "pwd" if !unread => Ok(Some(".\n".to_owned())),
            "ls" if !unread => Ok(output::listed(name, args)),
            "cat" if unread => done,
            "cat" => Ok(self.cat(args, stdin)),
            // What a program that selects or reshapes lines prints, as far as
            // a shell reading it goes: all the lines of its input. Only while
            // it writes no file (`sort -o`, `sed -i`), which the checks below
            // read.
            // `cut -c2- <<< x--no-verify`: the columns it keeps, when known.
            "cut"
                if !unread
                    && let Some(output) =
                        output::filtered_input(name, args, stdin, |file| self.file_text(file)) =>
            {
                Ok(Some(output))
            }
            _ if !unread && let Some(files) = output::selected_lines_of(name, args) => {
                Ok(output::input_of(&files, stdin, |file| self.file_text(file)))
            }
            // A plain `sed s/…/…/` on its input; any other sed is checked below.
            "sed" | "gsed"
                if !unread
                    && let Some(output) =
                        output::filtered_input(name, args, stdin, |file| self.file_text(file)) =>
            {
                Ok(Some(output))
            }
            "base64" | "openssl" | "xxd" | "rev" | "tr" if !unread => {
                Ok(output::filtered_input(name, args, stdin, |file| {
                    self.file_text(file)
                }))
            }
            // Where a no-op program lies, for a no-op copied or linked from it.
            "which" if !unread && args.iter().any(|arg| arg.text == "true") => {
                Ok(Some("/usr/bin/true\n".to_owned()))
            }
            ":" | "true" => done,
            // Outside a function bash refuses `local` and sets nothing.
            "local" if self.in_function == 0 => done,
            "export" | "declare" | "typeset" | "local" | "readonly" => {
                // `declare -a name=(…)` arrives as an assignment.
                for (name, value) in &env.assigned {
                    self.set_variable(name, value.clone());
                }
                self.declare(name, args)?;
                done
            }
            "unset" => {
                for arg in args.iter().filter(|arg| !arg.text.starts_with('-')) {
                    self.unset_variable(&arg.text);
                }
                done
            }
            "set" => {
                self.set_builtin(args)?;
                done
            }
            "umask" => {
                self.umask_strips_execute |= umask_strips_execute(args);
                done
            }
            "cd" | "pushd" => {
                let directory = args.iter().find(|arg| !arg.text.starts_with('-'));
                self.folder = match directory {
                    None if name == "cd" && args.is_empty() => Some("~".to_owned()),
                    None => None,
                    Some(directory) => directory
                        .exact()
                        .and_then(|folder| disk::locate(self.folder.as_deref(), folder)),
                };
                let entered = directory.and_then(|directory| {
                    let cdpath = env
                        .assigned
                        .iter()
                        .rfind(|(name, _)| name == "CDPATH")
                        .map(|(_, value)| value.as_str());
                    let git = self
                        .folders_entered(&directory.text, cdpath)
                        .find_map(|folder| {
                            if files::is_hook_path(&folder, self.within()) {
                                Some(false)
                            } else if files::is_git_dir(&folder) {
                                Some(true)
                            } else {
                                // A folder the gate cannot know may be a hooks folder.
                                folder.contains(UNKNOWN).then_some(false)
                            }
                        })?;
                    Some(super::Dir {
                        shown: directory.shown(),
                        git,
                    })
                });
                // A `cd` out of the hooks or git directory may fail, or sit
                // in a branch that does not run (`false && cd /tmp`).
                if entered.is_none() && self.dir.is_some() {
                    self.left_dir = self.dir.take();
                } else {
                    self.dir = entered;
                }
                done
            }
            "popd" => {
                self.folder = None;
                done
            }
            "eval" => self.source(&output::joined(args)),
            "source" | "." => match args.first().map(|file| &*file.text) {
                Some("/dev/stdin") => stdin.map_or(Ok(None), |script| self.source(script)),
                Some(path) => match self.script_text(path)? {
                    Some(script) => self.script_source(path, &script),
                    None => Ok(None),
                },
                None => Ok(None),
            },
            // The action runs when the signal comes, or as the shell exits.
            "trap" => match args.iter().find(|arg| arg.text != "--").filter(|action| {
                action.text != "-" && !action.text.bytes().all(|b| b.is_ascii_digit())
            }) {
                Some(action) => {
                    self.child_source(&action.text, None)?;
                    done
                }
                None => done,
            },
            "alias" => {
                self.shell_aliases(args)?;
                done
            }
            "env" => self.env_command(frame, args, env, stdin),
            "xargs" => self.xargs(frame, args, env, stdin),
            // What `find` prints once what it runs or deletes is checked.
            "find" => {
                self.find(frame, argv, env)?;
                Ok(if unread {
                    None
                } else {
                    output::listed(name, args)
                })
            }
            "tee" => {
                self.tee(argv, stdin)?;
                Ok(stdin.map(str::to_owned))
            }
            "command"
                if args.first().is_some_and(|arg| {
                    arg.text.starts_with("-v") || arg.text.starts_with("-V")
                }) =>
            {
                Ok(None)
            }
            _ if is_shell(name) => self.shell(name, args, env, stdin),
            _ if name.starts_with("git-") => {
                let mut git_args = vec![Field::new(name.trim_start_matches("git-"))];
                git_args.extend_from_slice(args);
                self.git(frame, &git_args, env)
            }
            _ => self.other(frame, name, argv, env, stdin),
        }
    }

    fn other(
        &mut self,
        frame: &mut Frame<'_>,
        name: &str,
        argv: &[Field<'_>],
        env: &Env,
        stdin: Option<&str>,
    ) -> Result<Option<String>> {
        let args = argv.get(1..).unwrap_or_default();
        self.handed_to_shell(name, args, stdin)?;
        self.package_script_with_words(name, args)?;
        if let Some(unverified) =
            committers::unverified(argv, |variable| self.environment_value(env, variable))
        {
            return Err(Finding::CommitsUnverified {
                command: shown(argv),
                how: unverified.how,
                fix: unverified.fix,
            });
        }
        let Some(known) = commands::known(name) else {
            return self.scan_arguments(frame, args, env);
        };
        if let Some(spec) = &known.wrapper {
            let inner = args
                .get(wrappers::inner_command(spec, args)..)
                .unwrap_or_default();
            if name == "flock" && inner.first().is_some_and(|arg| arg.text == "-c") {
                let script = inner.get(1).map_or("", |arg| &*arg.text);
                return self.child_source(script, None);
            }
            let (env, inner) = leading_assignments(self, env, inner)?;
            return self.run(frame, inner, &env, stdin);
        }
        let content_of = |path: &str| self.file_content(path);
        if let Some(tool) = known.file_tool {
            if let Some(effect) = files::tampering(tool, args, self.within(), content_of) {
                return Err(self.hook_files(shown(argv), effect));
            }
            let lands_on_hook = || match files::copy_operands(args) {
                Some((_, Some(files::Destination::Operand(target)))) => {
                    files::is_hook_path(&target.text, self.within())
                }
                _ => false,
            };
            if self.umask_strips_execute
                && matches!(tool, files::FileTool::Moves | files::FileTool::Copies)
                && lands_on_hook()
            {
                return Err(self.hook_files(shown(argv), UMASKED));
            }
            if let Some(effect) =
                files::config_tampering(tool, args, |path| self.is_config_file(path))
            {
                return Err(self.config_files(shown(argv), effect));
            }
        }
        if matches!(name, "cp" | "mv" | "install" | "ln") {
            self.carry_copies(argv, stdin)?;
        }
        if name == "rsync" && files::rsync_writes_branches(args) {
            return Err(Finding::branch_written(shown(argv)));
        }
        // `sed -i '…hooksPath…' .git/config`: an edit of git's configuration
        // that spells the setting.
        let edits_code = known.file_tool.is_some() || known.runner == Some(Runner::Interpreter);
        if edits_code
            && args.iter().any(|arg| git_config::is_file(&arg.text))
            && args
                .iter()
                .any(|arg| arg.text.to_ascii_lowercase().contains("hookspath"))
        {
            return Err(Finding::HooksPath {
                setting: shown(argv),
            });
        }
        if let Some(word) = known.uninstall
            && args.iter().any(|arg| arg.text == word)
        {
            return Err(Finding::Uninstall {
                command: shown(argv),
            });
        }
        if known.runner == Some(Runner::Interpreter) {
            let printed = self.interpreter(name, args, stdin, env)?;
            self.scan_arguments(frame, args, env)?;
            return Ok(printed);
        }
        if let Some(runner) = known.runner
            && let Some(code) = self.code_run_by(runner, argv, stdin)?
        {
            return self.child_source(&code, None);
        }
        if known.inert {
            return Ok(None);
        }
        self.scan_arguments(frame, args, env)
    }

    /// A command whose name is unknown (`$GIT commit -n`): read as git when
    /// its first argument after git's own options is a subcommand that runs
    /// hooks.
    fn unknown_command(
        &mut self,
        frame: &mut Frame<'_>,
        argv: &[Field<'_>],
        env: &Env,
    ) -> Result<Option<String>> {
        let args = argv.get(1..).unwrap_or_default();
        // Git's own options may come first: `"$(command -v git)" --no-pager am`.
        let subcommand = crate::git::global_options(args).subcommand;
        if subcommand
            .and_then(|index| args.get(index))
            .and_then(Field::exact)
            .is_some_and(crate::git::runs_hooks)
        {
            return self.git(frame, args, env);
        }
        self.scan_arguments(frame, args, env)
    }

    /// For commands not modelled here (`docker exec c git …`, `uv run git …`):
    /// runs from the first argument that names git, a shell with `-c` or an
    /// interpreter, an option's value standing in its place (`--exec=git`).
    /// An argument that spells such a command whole, alone or as an
    /// option's value (`hyperfine 'git commit -n'`, `nodemon --exec='…'`),
    /// is read as shell text the program may run.
    fn scan_arguments(
        &mut self,
        frame: &mut Frame<'_>,
        args: &[Field<'_>],
        env: &Env,
    ) -> Result<Option<String>> {
        for (index, arg) in args.iter().enumerate() {
            let Some((word, option_value)) = arg.exact().and_then(command_word) else {
                continue;
            };
            if word.contains(char::is_whitespace) {
                let mut words = word.split_whitespace();
                if starts_command(words.next().unwrap_or_default(), words.next()) {
                    self.child_source_if_shell(word)?;
                }
                continue;
            }
            let rest = args.get(index + 1..).unwrap_or_default();
            if !starts_command(word, rest.first().map(|next| &*next.text)) {
                continue;
            }
            if !option_value {
                return self.run(frame, args.get(index..).unwrap_or_default(), env, None);
            }
            let mut argv = vec![Field::new(word.to_owned())];
            argv.extend(rest.iter().cloned());
            return self.run(frame, &argv, env, None);
        }
        Ok(None)
    }

    /// `set -- args` sets the positional parameters. `set NAME=value`
    /// (cmd.exe) and `set -x NAME value` (fish) are read as assignments, as
    /// a harness running those shells would.
    fn set_builtin(&mut self, args: &[Field<'_>]) -> Result<()> {
        match args {
            [first, rest @ ..] if first.text == "--" => self.positional = Some(owned(rest)),
            [flags, name, value, ..] if flags.text.starts_with('-') && flags.text.contains('x') => {
                self.check_assignment(&name.text, &value.text)?;
                self.set_variable(&name.text, value.text.to_string());
            }
            _ => self.declare("set", args)?,
        }
        Ok(())
    }

    fn declare(&mut self, builtin: &str, args: &[Field<'_>]) -> Result<()> {
        // `declare -n r=x`: `r` stands for the variable `x` from then on.
        let reference = shell_reader::values::declares_references(builtin, args);
        // `export -f name`, `declare -fx name`: bash passes the function on
        // to the programs it starts as `BASH_FUNC_name%%`.
        let flags = |flag: char| {
            args.iter()
                .any(|arg| arg.text.starts_with('-') && arg.text.contains(flag))
        };
        if flags('f') && (builtin == "export" || flags('x')) {
            for name in args.iter().filter(|arg| !arg.text.starts_with('-')) {
                self.set_variable(&format!("BASH_FUNC_{}%%", name.text), "() {".to_owned());
            }
        }
        for arg in args {
            if let Some((name, value)) = wrappers::split_assignment(&arg.text) {
                if reference {
                    self.variables.refer(name, value);
                    continue;
                }
                self.check_assignment(name, value)?;
                self.set_variable(name, value.to_owned());
            }
        }
        Ok(())
    }

    /// `alias name='…'`: a definition that holds a bypass is refused, and
    /// the alias is kept for the commands that use it later.
    fn shell_aliases(&mut self, args: &[Field<'_>]) -> Result<()> {
        for arg in args {
            let Some((name, value)) = arg.text.split_once('=') else {
                continue;
            };
            self.aliases.push((name.to_owned(), value.to_owned()));
            self.child_source_if_shell(value)
                .map_err(|inner| Finding::InAlias {
                    alias: name.to_owned(),
                    inner: Box::new(inner),
                })?;
        }
        Ok(())
    }
}

impl Walker {
    /// A command named by an alias: the alias's text with the command's
    /// arguments after it, read as shell. An alias is not expanded again
    /// inside its own expansion, as in bash. Aliases are read as expanded
    /// wherever they are defined before use: an interactive shell or a
    /// harness's shell snapshot turns `expand_aliases` on.
    /// A name that runs git from then on: a copy or link of git's program
    /// (`cp /usr/bin/git gg; ./gg commit -n`), or a name `hash -p` gives it
    /// (`hash -p /usr/bin/git g; g commit -n`). It is kept as an alias of
    /// `git` under each way the command may spell it; a name `hash -p` gives
    /// another program runs that program (`hash -p /tmp/g git`).
    fn git_by_another_name(&mut self, name: &str, args: &[Field<'_>]) {
        let (program, names): (&str, Vec<&str>) = if name == "hash" {
            match args {
                [flag, program, names @ ..] if flag.text == "-p" => (
                    &program.text,
                    names.iter().map(|name| &*name.text).collect(),
                ),
                _ => return,
            }
        } else {
            match files::copy_operands(args) {
                Some((sources, Some(files::Destination::Operand(target)))) => {
                    match sources.last() {
                        Some(source) => (&source.text, vec![&*target.text]),
                        None => return,
                    }
                }
                _ => return,
            }
        };
        // `hash -p /tmp/g git`: the name runs that program from then on.
        if basename(program) != "git" {
            if name == "hash" {
                for spelled in names {
                    self.aliases.push((spelled.to_owned(), quoted(program)));
                }
            }
            return;
        }
        for spelled in names {
            let file = basename(spelled);
            for alias in [spelled.to_owned(), format!("./{file}"), file.to_owned()] {
                self.aliases.push((alias, "git".to_owned()));
            }
        }
    }

    fn expand_alias(&mut self, index: usize, args: &[Field<'_>]) -> Result<Option<String>> {
        let (name, value) = self.aliases.remove(index);
        let mut text = value.clone();
        for arg in args {
            text.push(' ');
            text.push_str(&quoted(&arg.text));
        }
        let output = self.source(&text);
        self.aliases.insert(index, (name, value));
        output
    }

    /// `printf -v NAME [--] FORMAT ARGS…`: the formatted text goes into NAME.
    fn printf_to_variable(&mut self, args: &[Field<'_>]) -> Result<()> {
        let Some(name) = args.get(1) else {
            return Ok(());
        };
        let value = output::printf(args.get(2..).unwrap_or_default());
        self.check_assignment(&name.text, &value)?;
        self.set_variable(&name.text, value);
        Ok(())
    }

    /// `mapfile [-t] [-d DELIM] [ARRAY]`: an array of the lines it reads
    /// (`MAPFILE` when unnamed), unknown for input the gate cannot know.
    fn mapfile_builtin(&mut self, args: &[Field<'_>], stdin: Option<&str>) {
        let (name, value) = builtins::mapfile(args, stdin, crate::field::ARRAY_SEPARATOR_TEXT);
        self.set_variable(&name, value);
    }

    /// `read [-r] [-a ARRAY] [-d DELIM] NAME…`: the first line of what it
    /// reads, split on blanks, the last name taking the rest. Input the gate
    /// cannot know leaves every name unknown, never unset.
    fn read_builtin(&mut self, args: &[Field<'_>], stdin: Option<&str>) -> Result<()> {
        let assigned = builtins::read(args, stdin, crate::field::ARRAY_SEPARATOR_TEXT);
        for (name, value) in assigned {
            self.check_assignment(&name, &value)?;
            self.set_variable(&name, value);
        }
        Ok(())
    }
}

/// `NAME=value` words at the start of a wrapped command (`sudo A=1 cmd`),
/// added to the environment.
fn leading_assignments<'f>(
    walker: &mut Walker,
    env: &Env,
    argv: &'f [Field<'f>],
) -> Result<(Env, &'f [Field<'f>])> {
    let mut env = env.clone();
    let mut start = 0;
    while let Some((name, value)) = argv
        .get(start)
        .and_then(|arg| wrappers::split_assignment(&arg.text))
    {
        walker.check_assignment(name, value)?;
        env.assigned.push((name.to_owned(), value.to_owned()));
        start += 1;
    }
    Ok((env, argv.get(start..).unwrap_or_default()))
}

#[cfg(test)]
mod tests {
    use super::basename;

    /// The file name is what follows the last `/` or `\`, whatever the
    /// length of the path and wherever the separator stands.
    #[test]
    fn basename_takes_what_follows_the_last_separator() {
        let names = [
            "",
            "g",
            "gi",
            "git",
            "make",
            "/git",
            "a/b",
            "a\\b",
            "./git",
            "git/",
            "0/.",
            "/usr/bin/git",
            "bin/make",
            "abcdefgh",
            "abcdefg/",
            "/bcdefgh",
            "abc/efgh",
            "C:\\git.exe",
            "é/é",
            "\u{2f2f}",
            "\u{0101}/",
        ];
        for name in names {
            let expected = match name.rfind(['/', '\\']) {
                Some(at) => &name[at + 1..],
                None => name,
            };
            assert_eq!(basename(name), expected, "{name}");
        }
    }
}
