//! Running one command: shell builtins that change what later commands see,
//! and the dispatch to git, shells, wrappers and file tools.

use crate::prelude::*;

use super::simple::Env;
use super::{Frame, Result, Walker, commands, files, git_call, output, wrappers};
use crate::bytes::marks;
use crate::field::{Field, owned, shown};
use crate::finding::Finding;

pub(super) fn is_shell(name: &str) -> bool {
    matches!(
        name,
        "sh" | "bash" | "zsh" | "dash" | "ksh" | "mksh" | "ash" | "yash" | "fish"
    )
}

/// A command path's file name: `/usr/bin/git` is `git`.
pub(super) fn basename(path: &str) -> &str {
    if short_without_separator(path.as_bytes()) {
        return path;
    }
    match path.bytes().rposition(|byte| byte == b'/' || byte == b'\\') {
        Some(at) => path.get(at + 1..).unwrap_or(path),
        None => path,
    }
}

/// Whether `bytes`, four to eight of them as most command names are, hold
/// no `/` or `\`: two loads and a few operations, where a loop would check
/// the call's time bound at every byte inside the sandbox. `false` may also
/// mean "not known": the caller then looks byte by byte.
fn short_without_separator(bytes: &[u8]) -> bool {
    let (Some(head), Some(tail)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) else {
        return false;
    };
    if bytes.len() > 8 {
        return false;
    }
    let word = u64::from(u32::from_le_bytes(*head)) | u64::from(u32::from_le_bytes(*tail)) << 32;
    (marks(word, b'/') | marks(word, b'\\')) == 0
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
        if !self.written_files.is_empty()
            && path.contains('/')
            && let Some(script) = self.file_content(path).map(str::to_owned)
        {
            return self.child_source(&script, Some(owned(args)));
        }
        let name = basename(path);
        let name = name.strip_suffix(".exe").unwrap_or(name);
        if let Some(index) = frame
            .functions
            .iter()
            .rposition(|function| function.name == name)
        {
            return self.call_function(frame, index, Some(owned(args)));
        }
        let done = Ok(Some(String::new()));
        match name {
            "git" | "hub" => self.git(frame, args, env),
            // What nothing reads need not be worked out.
            "echo" | "printf" if unread => Ok(None),
            "echo" => Ok(Some(output::echo(args))),
            "printf" => Ok(Some(output::printf(args))),
            "cat" => Ok(self.cat(args, stdin)),
            ":" | "true" => done,
            "export" | "declare" | "typeset" | "local" | "readonly" => {
                self.declare(args)?;
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
            "cd" | "pushd" => {
                let directory = args.iter().find(|arg| !arg.text.starts_with('-'));
                self.hooks_dir = directory
                    .filter(|directory| files::is_hook_path(&directory.text, self.in_hooks_dir()))
                    .map(|directory| directory.shown());
                done
            }
            "eval" => self.source(&output::joined(args)),
            "source" | "." => {
                let script = args.first().and_then(|file| self.file_content(&file.text));
                match script.map(str::to_owned) {
                    Some(script) => self.source(&script),
                    None => Ok(None),
                }
            }
            "alias" => {
                self.shell_aliases(args)?;
                done
            }
            "env" => self.env_command(frame, args, env, stdin),
            "xargs" => self.xargs(frame, args, env, stdin),
            "find" => self.find(frame, argv, env),
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
            _ if is_shell(name) => self.shell(args, env, stdin),
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
            let (env, inner) = leading_assignments(env, inner)?;
            return self.run(frame, inner, &env, stdin);
        }
        let content_of = |path: &str| self.file_content(path);
        if let Some(tool) = known.file_tool
            && let Some(effect) = files::tampering(tool, args, self.in_hooks_dir(), content_of)
        {
            return Err(self.hook_files(shown(argv), effect));
        }
        if let Some(word) = known.uninstall
            && args.iter().any(|arg| arg.text == word)
        {
            return Err(Finding::Uninstall {
                command: shown(argv),
            });
        }
        if let Some(runner) = known.runner
            && let Some(code) = self.code_run_by(runner, name, argv, stdin)?
        {
            return self.child_source(&code, None);
        }
        if known.inert {
            return Ok(None);
        }
        self.scan_arguments(frame, args, env)
    }

    /// A command whose name is unknown (`$GIT commit -n`): read as git when
    /// its first argument is a subcommand that runs hooks.
    fn unknown_command(
        &mut self,
        frame: &mut Frame<'_>,
        argv: &[Field<'_>],
        env: &Env,
    ) -> Result<Option<String>> {
        let args = argv.get(1..).unwrap_or_default();
        if args
            .first()
            .and_then(Field::exact)
            .is_some_and(crate::git::runs_hooks)
        {
            return self.git(frame, args, env);
        }
        self.scan_arguments(frame, args, env)
    }

    /// For commands not modelled here (`docker exec c git …`, `uv run git …`):
    /// runs from the first argument that names git or a shell with `-c`.
    fn scan_arguments(
        &mut self,
        frame: &mut Frame<'_>,
        args: &[Field<'_>],
        env: &Env,
    ) -> Result<Option<String>> {
        for (index, arg) in args.iter().enumerate() {
            let Some(text) = arg.exact().filter(|text| !text.starts_with('-')) else {
                continue;
            };
            let name = basename(text);
            let shell_string = is_shell(name)
                && args
                    .get(index + 1)
                    .is_some_and(|next| next.text.starts_with('-') && next.text.contains('c'));
            if matches!(name, "git" | "hub" | "env") || shell_string {
                return self.run(frame, args.get(index..).unwrap_or_default(), env, None);
            }
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
                git_call::check_assignment(&name.text, &value.text)?;
                self.set_variable(&name.text, value.text.to_string());
            }
            _ => self.declare(args)?,
        }
        Ok(())
    }

    fn declare(&mut self, args: &[Field<'_>]) -> Result<()> {
        for arg in args {
            if let Some((name, value)) = wrappers::split_assignment(&arg.text) {
                git_call::check_assignment(name, value)?;
                self.set_variable(name, value.to_owned());
            }
        }
        Ok(())
    }

    /// `alias name='…'`: a definition that holds a bypass is refused.
    fn shell_aliases(&mut self, args: &[Field<'_>]) -> Result<()> {
        for arg in args {
            let Some((name, value)) = arg.text.split_once('=') else {
                continue;
            };
            match self.child_source(value, None) {
                Err(Finding::Unreadable { .. }) | Ok(_) => {}
                Err(inner) => {
                    return Err(Finding::InAlias {
                        alias: name.to_owned(),
                        inner: Box::new(inner),
                    });
                }
            }
        }
        Ok(())
    }
}

/// `NAME=value` words at the start of a wrapped command (`sudo A=1 cmd`),
/// added to the environment.
fn leading_assignments<'f>(env: &Env, argv: &'f [Field<'f>]) -> Result<(Env, &'f [Field<'f>])> {
    let mut env = env.clone();
    let mut start = 0;
    while let Some((name, value)) = argv
        .get(start)
        .and_then(|arg| wrappers::split_assignment(&arg.text))
    {
        git_call::check_assignment(name, value)?;
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
