//! Commands that run other commands or code given as arguments, strings or
//! standard input: `env`, shells, `xargs`, `find -exec`, `ssh`, `su -c`,
//! and interpreters' `-c`/`-e` code.

use crate::prelude::*;

use super::find_selects::{self, Selection};
use super::simple::Env;
use super::wrappers::{skip_options, split_assignment};
use super::{Frame, Result, Walker, files};
use crate::field::{Field, UNKNOWN_TEXT, shown};
use crate::finding::Finding;
use shell_reader::interpreters::quoted;
use shell_reader::output;
use shell_reader::runners::{self, Runs};

/// Programs that run code given in their arguments or input.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Runner {
    /// `ssh host cmd`, or a remote shell reading standard input.
    Ssh,
    /// `npm pkg set scripts.name=…`.
    Npm,
    /// `su -c`, `runuser -c`, `script -c`.
    CommandOption,
    /// `nix-shell --run`.
    NixShell,
    /// An interpreter whose code may run git.
    Interpreter,
}

impl Walker {
    /// `env [-i] [-u NAME] [NAME=value]… [command]`.
    pub(super) fn env_command(
        &mut self,
        frame: &mut Frame<'_>,
        args: &[Field<'_>],
        env: &Env,
        stdin: Option<&str>,
    ) -> Result<Option<String>> {
        let mut env = env.clone();
        // `env -C DIR`: the folder the command runs in.
        let mut chdir = None;
        let mut index = 0;
        while let Some(arg) = args.get(index) {
            let text = &*arg.text;
            index += 1;
            match text {
                "-i" | "--ignore-environment" | "-" => {
                    env.cleared = true;
                    env.assigned.clear();
                }
                "-u" | "--unset" => {
                    if let Some(name) = args.get(index) {
                        env.unset(&name.text);
                    }
                    index += 1;
                }
                "-C" | "--chdir" => {
                    chdir = args.get(index).cloned();
                    index += 1;
                }
                _ if text.starts_with("--chdir=") => {
                    chdir = Some(Field::new(text.trim_start_matches("--chdir=").to_owned()));
                }
                _ if text.starts_with("-C") => chdir = Some(Field::new(text[2..].to_owned())),
                "--" => {}
                _ if split_string(text).is_some() => {
                    // `env -S 'cmd args'`: the string split into words, then the rest.
                    let (value, rest) = match split_string(text) {
                        Some("") => (args.get(index).map(|arg| &*arg.text), index + 1),
                        value => (value, index),
                    };
                    let mut split: Vec<Field<'_>> = value
                        .map(|value| value.split_whitespace().map(Field::new).collect())
                        .unwrap_or_default();
                    split.extend_from_slice(args.get(rest..).unwrap_or_default());
                    return self.env_command(frame, &split, &env, stdin);
                }
                _ if text.starts_with("--unset=") => env.unset(text.trim_start_matches("--unset=")),
                _ if text.starts_with("-u") => env.unset(text.trim_start_matches("-u")),
                _ if text.starts_with('-') => {}
                _ => match split_assignment(text) {
                    Some((name, value)) => {
                        self.check_assignment(name, value)?;
                        env.assigned.push((name.to_owned(), value.to_owned()));
                    }
                    None => {
                        index -= 1;
                        break;
                    }
                },
            }
        }
        let Some(inner) = args.get(index..).filter(|inner| !inner.is_empty()) else {
            return Ok(None);
        };
        let Some(dir) = chdir else {
            return self.run(frame, inner, &env, stdin);
        };
        // The command runs in DIR, as after a `cd` there, and this shell stays.
        let saved = self.snapshot();
        let output = self
            .run(frame, &[Field::new("cd"), dir], &env, None)
            .and_then(|_| self.run(frame, inner, &env, stdin));
        self.restore(saved);
        output
    }

    /// `sh -c 'string' [name args…]`, `bash script`, `… | sh`, `bash <<EOF`,
    /// `fish -C 'first' -c 'string'`.
    pub(super) fn shell(
        &mut self,
        name: &str,
        args: &[Field<'_>],
        env: &Env,
        stdin: Option<&str>,
    ) -> Result<Option<String>> {
        let words: Vec<&str> = args.iter().map(|arg| &*arg.text).collect();
        let shell = runners::ShellArgs::parse(name, &words);
        // Files the shell reads before its commands: bash's `--rcfile`, and
        // `BASH_ENV` or a POSIX shell's `ENV`.
        let startup: Vec<String> = ["BASH_ENV", "ENV"]
            .iter()
            .filter_map(|name| self.environment_value(env, name))
            .chain(shell.startup.iter().map(|file| (*file).to_owned()))
            .collect();
        let script = match shell.runs {
            Runs::Script(file) => self.script_text(file)?,
            ref runs => Some(runs.texts(stdin).join("\n")),
        };
        for file in startup {
            if let Some(text) = self.script_text(&file)? {
                self.child_source_in(&text, || {
                    format!("The file `{file}` the shell reads before its commands")
                })?;
            }
        }
        let exact = |at: usize| args.get(at).and_then(|arg| arg.exact()).map(str::to_owned);
        let saved = self.snapshot();
        // `sh -c 'script' name args…` gives the script `name` as `$0`, a
        // script its own path.
        let (arg0, first) = match shell.runs {
            Runs::Strings(_) => (exact(shell.positional), shell.positional + 1),
            Runs::Script(_) => (exact(shell.positional - 1), shell.positional),
            Runs::Input | Runs::Nothing => (None, shell.positional),
        };
        self.arg0 = arg0;
        let positional = args.get(first..).map(crate::field::owned);
        self.enter_environment(env);
        // fish's `-C` strings run first.
        let output = shell
            .init
            .iter()
            .try_for_each(|init| self.child_source(init, positional.clone()).map(drop))
            .and_then(|()| match (script, shell.runs) {
                (Some(text), Runs::Script(file)) => self.child_script(file, &text, positional),
                (Some(text), _) => self.child_source(&text, positional),
                (None, _) => Ok(None),
            });
        self.restore(saved);
        output
    }

    /// Makes `env` the shell's variables, as a child process sees them.
    fn enter_environment(&mut self, env: &Env) {
        if env.cleared {
            self.variables.clear();
        }
        for name in &env.unset {
            self.unset_variable(name);
        }
        for (name, value) in &env.assigned {
            self.set_variable(name, value.clone());
        }
    }

    /// `xargs [options] command [args]`, fed from a known pipe when there is one.
    pub(super) fn xargs(
        &mut self,
        frame: &mut Frame<'_>,
        args: &[Field<'_>],
        env: &Env,
        stdin: Option<&str>,
    ) -> Result<Option<String>> {
        let words: Vec<&str> = args.iter().map(|arg| &*arg.text).collect();
        let options = runners::Xargs::parse(&words);
        let mut argv: Vec<Field<'_>> = args.get(options.command..).unwrap_or_default().to_vec();
        if argv.is_empty() {
            argv.push(Field::new("echo"));
        }
        // `-a FILE` reads the items from a file instead of standard input.
        let file_input = options
            .arg_file
            .and_then(|file| self.file_text(file))
            .map(str::to_owned);
        let stdin = if options.arg_file.is_some() {
            file_input.as_deref()
        } else {
            stdin
        };
        let items = stdin.map(|input| options.items(input));
        if let Some(token) = options.replace {
            // Each line in place of the token.
            let mut printed = None;
            for line in items.unwrap_or_else(|| vec![UNKNOWN_TEXT]) {
                let replaced: Vec<Field<'_>> = argv
                    .iter()
                    .map(|arg| Field::new(arg.text.replace(token, line)))
                    .collect();
                printed = self.run(frame, &replaced, env, None)?;
            }
            return Ok(printed);
        }
        let items = items.unwrap_or_else(|| vec![UNKNOWN_TEXT]);
        let items = items.into_iter().map(Field::new);
        // BSD `-J`: every item in place of the token's word, else after the command.
        let placed = options
            .place
            .and_then(|token| argv.iter().position(|arg| arg.text == token));
        match placed {
            Some(at) => drop(argv.splice(at..=at, items)),
            None => argv.extend(items),
        }
        self.run(frame, &argv, env, None)
    }

    /// `find paths… [expression]`: its `-exec` commands run, `-delete` deletes.
    pub(super) fn find(
        &mut self,
        frame: &mut Frame<'_>,
        argv: &[Field<'_>],
        env: &Env,
    ) -> Result<Option<String>> {
        let args = argv.get(1..).unwrap_or_default();
        let folders = runners::find_folders(args);
        let (paths, expression) = (&args[folders.clone()], &args[folders.end..]);
        let selection = find_selects::selection(paths, expression, self.within());
        // What `{}` stands for in `-exec`: a hook, the folder walked, or
        // a file that is no hook, left as `{}`.
        let found = match selection {
            Selection::Hooks => ".git/hooks/pre-commit",
            Selection::Everything => paths.first().map_or(".", |path| &*path.text),
            Selection::NoHooks => "{}",
        };
        let as_find = |finding: Finding| match finding {
            Finding::HookFiles { effect, .. } => Finding::HookFiles {
                command: shown(argv),
                effect,
            },
            other => other,
        };
        let mut index = 0;
        while let Some(arg) = expression.get(index) {
            index += 1;
            match &*arg.text {
                "-delete" if selection != Selection::NoHooks => {
                    return Err(self.hook_files(shown(argv), "deletes"));
                }
                "-exec" | "-execdir" | "-ok" | "-okdir" => {
                    let mut words = Vec::new();
                    while let Some(word) = expression.get(index) {
                        index += 1;
                        if matches!(&*word.text, ";" | "+") {
                            break;
                        }
                        words.push(&*word.text);
                    }
                    // Every file under a folder that holds the repository's
                    // hooks, handed to a program that deletes, moves or
                    // re-modes them (`find . -type f -exec chmod 644 {} +`),
                    // reaches the hooks too.
                    let takes_hooks = selection == Selection::Everything
                        && words.first().is_some_and(|program| {
                            files::takes_files_away(super::run::basename(program))
                        });
                    let stand_ins = [Some(found), takes_hooks.then_some(".git/hooks/pre-commit")];
                    for stand_in in stand_ins.into_iter().flatten() {
                        let command: Vec<Field<'_>> = words
                            .iter()
                            .map(|word| Field::new(word.replace("{}", stand_in)))
                            .collect();
                        self.run(frame, &command, env, None).map_err(as_find)?;
                    }
                }
                _ => {}
            }
        }
        Ok(None)
    }

    /// `tee files…`: writes what it reads to each file.
    pub(super) fn tee(&mut self, argv: &[Field<'_>], stdin: Option<&str>) -> Result<()> {
        let append = argv
            .iter()
            .any(|arg| arg.text == "-a" || arg.text == "--append");
        let files = argv.iter().skip(1).filter(|arg| !arg.text.starts_with('-'));
        for file in files {
            if !append && stdin.is_none() && files::is_hook_path(&file.text, self.within()) {
                return Err(self.hook_files(shown(argv), super::simple::UNREAD_OUTPUT));
            }
            self.write_file(&file.text, || shown(argv), append, stdin)?;
        }
        Ok(())
    }

    /// What `cp`, `mv`, `install` and `ln` put into the files they write
    /// (or link) when the gate knows their sources (this command wrote them,
    /// or they lie on disk), or they copy `/dev/stdin`: a script copied
    /// under another name and run later is read as it runs.
    pub(super) fn carry_copies(&mut self, argv: &[Field<'_>], stdin: Option<&str>) -> Result<()> {
        let args = argv.get(1..).unwrap_or_default();
        let Some((sources, Some(destination))) = files::copy_operands(args) else {
            return Ok(());
        };
        let target = match &destination {
            files::Destination::Operand(target) => &*target.text,
            files::Destination::Folder(folder) => folder,
        };
        if files::copy_writes_branches(target, sources.iter().map(|source| &*source.text)) {
            return Err(Finding::branch_written(shown(argv)));
        }
        for source in sources {
            let text = match &*source.text {
                "/dev/stdin" | "-" => stdin,
                path => self.file_text(path),
            };
            let Some(text) = text.map(str::to_owned) else {
                self.carry_folder(argv, &source.text, &destination)?;
                continue;
            };
            let base = source.text.rsplit('/').next().unwrap_or_default();
            let targets = match destination {
                // A file, or a folder the source goes into.
                files::Destination::Operand(target) => {
                    vec![target.text.to_string(), format!("{}/{base}", target.text)]
                }
                files::Destination::Folder(folder) => vec![format!("{folder}/{base}")],
            };
            for target in targets {
                self.write_file(&target, || shown(argv), false, Some(&text))?;
            }
        }
        Ok(())
    }

    /// The files this command wrote under a folder `cp -r` copies (`cp -r
    /// /tmp/noop/. .git/hooks/`), each carried to where it lands: under the
    /// destination by its path below the folder, or below the folder's own
    /// name there.
    fn carry_folder(
        &mut self,
        argv: &[Field<'_>],
        source: &str,
        destination: &files::Destination<'_>,
    ) -> Result<()> {
        let folder = source.trim_end_matches("/.").trim_end_matches('/');
        let folder = files::normalize(folder);
        let under: Vec<(String, String)> = self
            .written_files
            .iter()
            .filter_map(|(path, content)| {
                let relative = path.strip_prefix(folder)?.strip_prefix('/')?;
                Some((relative.to_owned(), content.clone()))
            })
            .collect();
        let target = match destination {
            files::Destination::Operand(target) => target.text.trim_end_matches('/'),
            files::Destination::Folder(folder) => folder.trim_end_matches('/'),
        };
        let base = folder.rsplit('/').next().unwrap_or(folder);
        for (relative, content) in under {
            for landed in [
                format!("{target}/{relative}"),
                format!("{target}/{base}/{relative}"),
            ] {
                self.write_file(&landed, || shown(argv), false, Some(&content))?;
            }
        }
        Ok(())
    }

    /// `cat`: its input, or the files it names.
    pub(super) fn cat(&self, args: &[Field<'_>], stdin: Option<&str>) -> Option<String> {
        let files: Vec<&str> = args
            .iter()
            .map(|arg| &*arg.text)
            .filter(|arg| !arg.starts_with('-') || *arg == "-")
            .collect();
        output::input_of(&files, stdin, |file| self.file_text(file))
    }

    /// What programs such as `tmux`, `at`, `make`, `watch`, `vim -c` or
    /// `tar --to-command` hand a shell (`runners`), read as commands; text
    /// that is not shell is let be.
    pub(super) fn handed_to_shell(
        &mut self,
        name: &str,
        args: &[Field<'_>],
        stdin: Option<&str>,
    ) -> Result<()> {
        // The files of these programs (a makefile, a crontab) are read only
        // when the command wrote them: a repository's own hold what its user
        // runs on purpose. (`xargs`, which reads its file from disk too, is
        // walked by [`Walker::xargs`].)
        let texts = runners::shell_texts(name, args, stdin, |path| self.file_content(path));
        for text in texts {
            self.child_source_in(&text, || format!("What `{name}` hands a shell"))?;
        }
        Ok(())
    }

    /// `npm run NAME -- words`, `yarn NAME words`: the script `NAME` of the
    /// `package.json` on disk with the command's words put after it, as
    /// the package manager runs it (`npm run commit -- -n` is `git commit
    /// -n`). The script alone is the repository's own, which its user runs
    /// on purpose: only what the words add is refused.
    pub(super) fn package_script_with_words(
        &mut self,
        manager: &str,
        args: &[Field<'_>],
    ) -> Result<()> {
        let words: Vec<&str> = args.iter().map(|arg| &*arg.text).collect();
        let Some((script, extra)) = runners::script_call(manager, &words) else {
            return Ok(());
        };
        let Some(manifest) = self.code_text("package.json")? else {
            return Ok(());
        };
        let Some(command) = runners::manifest_script(&manifest, script) else {
            return Ok(());
        };
        if self.child_source(&command, None).is_err() {
            return Ok(());
        }
        let extra: Vec<String> = extra.iter().map(|word| quoted(word)).collect();
        let text = format!("{command} {}", extra.join(" "));
        self.child_source_in(&text, || format!("`{manager} {}`", shown(args)))
    }

    /// The shell code another program runs: `ssh host cmd`, `su -c`,
    /// `script -c`, `nix-shell --run`, an npm script being stored. Code for
    /// other interpreters (`python -c`, `node -e`) is not shell: the
    /// commands in its strings are read in place (see `interpreters`).
    pub(super) fn code_run_by(
        &mut self,
        runner: Runner,
        argv: &[Field<'_>],
        stdin: Option<&str>,
    ) -> Result<Option<String>> {
        let args = argv.get(1..).unwrap_or_default();
        let after = |flags: &[&str]| {
            args.iter()
                .position(|arg| flags.contains(&&*arg.text))
                .and_then(|at| args.get(at + 1))
                .map(|code| code.text.to_string())
        };
        Ok(match runner {
            Runner::Ssh => {
                let host = skip_options(args, "BbcDEeFIiJLlmOoPpQRSWw", &[]);
                let remote = args.get(host + 1..).unwrap_or_default();
                let remote_shell_reads_stdin = remote.first().is_none_or(|first| {
                    runners::is_shell(&first.text) && !remote.iter().any(|arg| arg.text == "-c")
                });
                if remote_shell_reads_stdin {
                    stdin.map(str::to_owned)
                } else {
                    Some(crate::output::joined(remote))
                }
            }
            // `npm pkg set scripts.name='command'` stores a command for later runs.
            Runner::Npm if args.first().is_some_and(|arg| arg.text == "pkg") => args
                .iter()
                .find_map(|arg| arg.text.strip_prefix("scripts."))
                .and_then(|script| script.split_once('='))
                .map(|(_, command)| command.to_owned()),
            Runner::Npm => None,
            Runner::CommandOption => runners::command_option(args).map(str::to_owned),
            Runner::NixShell => after(&["--run", "--command"]),
            // What the code prints is its output (`Walker::other`).
            Runner::Interpreter => None,
        })
    }
}

impl Env {
    fn unset(&mut self, name: &str) {
        self.assigned.retain(|(assigned, _)| assigned != name);
        self.unset.push(name.to_owned());
    }
}

/// The string of `env -S`/`--split-string` in `option`: empty when it is the
/// next word (`-S`, `--split-string`, a cluster ending in `S`), else joined
/// to the option (`-S'…'`, `--split-string=…`, `-iS'…'`).
fn split_string(option: &str) -> Option<&str> {
    if option == "--split-string" {
        return Some("");
    }
    if let Some(value) = option.strip_prefix("--split-string=") {
        return Some(value);
    }
    let flags = option.strip_prefix('-').filter(|f| !f.starts_with('-'))?;
    // Letters before `S` must be env's flags that take no value.
    let at = flags.find('S')?;
    flags[..at]
        .chars()
        .all(|flag| matches!(flag, 'i' | '0' | 'v'))
        .then(|| &flags[at + 1..])
}
