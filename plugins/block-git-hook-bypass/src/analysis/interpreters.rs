//! Code for other interpreters (`python -c`, `node -e`, `perl -e`,
//! `ruby -e`, `php -r`, awk programs, and scripts they read from standard
//! input or a file: one this command wrote, or as it lies on disk, but for
//! an installed package's code). Code that runs programs has each
//! of its strings, and each run of strings an `exec` would take as its
//! arguments, read as a command, with the hook switches the code sets in
//! its environment exported first.

use crate::prelude::*;

use shell_reader::interpreters::{self, Language, MAX_CODE_DEPTH, Source, Strings};

use super::simple::Env;
use super::{Result, Walker, files};
use crate::field::Field;
use crate::finding::Finding;
use crate::hook_env;

impl Walker {
    /// Reads the code `name args…` runs, if `name` is an interpreter, and
    /// returns what it may print (`Strings::printed`), when it prints.
    pub(super) fn interpreter(
        &mut self,
        name: &str,
        args: &[Field<'_>],
        stdin: Option<&str>,
        env: &Env,
    ) -> Result<Option<String>> {
        let Some(language) = Language::of(name) else {
            return Ok(None);
        };
        let mut printed: Option<String> = None;
        let program = format!("{name} {}", args.first().map_or("", |arg| &*arg.text));
        for source in interpreters::sources(language, args) {
            let (code, label) = match source {
                Source::Text(code) => {
                    (Some(code.to_owned()), format!("The code given to `{name}`"))
                }
                Source::File(path) => (
                    self.code_text(path)?,
                    format!("The script `{path}` that `{name}` runs"),
                ),
                Source::Stdin => (
                    stdin.map(str::to_owned),
                    format!("The code `{name}` reads on its input"),
                ),
            };
            if let Some(code) = code {
                let given = if interpreters::reads_environment(&code) {
                    self.environment_words(env)
                } else {
                    String::new()
                };
                let strings = self.code(&program, &label, language, &code, &given, 0)?;
                // `python3 -c 'os.chmod(sys.argv[1], 0o644)' .git/hooks/pre-commit`
                let operands = args.iter().map(|arg| &*arg.text);
                let operands = operands.filter(|arg| !arg.starts_with('-') && *arg != code);
                self.hook_files_in_code(&program, language, &code, operands)?;
                if interpreters::prints(&code, language, args)
                    && let Some(lines) = strings.printed()
                {
                    printed.get_or_insert_default().push_str(&lines);
                }
            }
        }
        Ok(printed)
    }

    /// What code that reads its environment may hand the programs it runs:
    /// each value the command put there, as a word of its own.
    fn environment_words(&self, env: &Env) -> String {
        let assigned = env.assigned.iter().map(|(_, value)| value.as_str());
        let variables = self
            .variables
            .iter()
            .map(|variable| variable.value.as_str());
        let mut words = String::new();
        for value in assigned.chain(variables) {
            words.push(' ');
            words.push_str(&interpreters::quoted(value));
        }
        words
    }

    /// `program` names the command for the old form of refusal, `label`
    /// the code for a command found in its strings. Code that reads its
    /// environment has each command in its strings read with the words
    /// `given` after it (the values the environment holds, which it may
    /// pass). Strings that are code themselves (`exec("…")`) are read
    /// again, `depth` levels deep at most. Returns the strings read.
    fn code(
        &mut self,
        program: &str,
        label: &str,
        language: Language,
        code: &str,
        given: &str,
        depth: u32,
    ) -> Result<Strings> {
        if let Some(library) = library_commit(code) {
            return Err(Finding::CommitsUnverified {
                command: program.to_owned(),
                how: library.to_owned(),
                fix: "Commit and push with git, which runs the hooks",
            });
        }
        let strings = interpreters::strings(code, language);
        if strings.runs_programs {
            if code.contains("git") && code.contains("--no-verify") {
                return Err(Finding::Embedded {
                    program: program.to_owned(),
                    option: "--no-verify",
                });
            }
            let environment = strings.exports(|name, value| {
                name.starts_with("GIT_") || hook_env::switched_off_by(name, value).is_some()
            });
            let given = if interpreters::reads_environment(code) {
                given
            } else {
                ""
            };
            let outer = core::mem::replace(&mut self.in_code_strings, true);
            let walked = strings.commands().try_for_each(|command| {
                self.child_source_in(&format!("{environment}{command}{given}"), || {
                    label.to_owned()
                })
            });
            self.in_code_strings = outer;
            walked?;
            if depth < MAX_CODE_DEPTH {
                for nested in strings.nested_code().filter(|nested| *nested != code) {
                    self.code(program, label, language, nested, given, depth + 1)?;
                }
            }
        }
        self.hook_files_in_code(
            program,
            language,
            code,
            strings.values.iter().map(String::as_str),
        )?;
        Ok(strings)
    }

    /// Code that changes files and names a hook file
    /// (`open('.husky/pre-commit', 'w').write('')`, `os.remove(…)`,
    /// `shutil.rmtree('.git/hooks')`) disarms it, unless it writes a hook
    /// with commands of its own (`#!…`), which installs one. Code that
    /// changes files and names git's configuration may drop core.hooksPath.
    /// `values` are the code's strings, or the words the command hands it.
    fn hook_files_in_code<'v>(
        &self,
        program: &str,
        language: Language,
        code: &str,
        mut values: impl Iterator<Item = &'v str> + Clone,
    ) -> Result<()> {
        let within = self.within();
        let hook = values
            .clone()
            .find(|value| files::is_hook_path(value, within));
        let config = values.clone().find(|value| self.is_config_file(value));
        if hook.is_none() && config.is_none() {
            return Ok(());
        }
        let awk_writes = language == Language::Awk && interpreters::awk_redirects(code);
        if !awk_writes && !interpreters::changes_files(&code.to_ascii_lowercase()) {
            return Ok(());
        }
        if let Some(config) = config {
            return Err(self.config_files(format!("{program} … {config}"), "changes"));
        }
        let installs = values.any(|value| value.starts_with("#!") && !files::is_neutered(value));
        match hook {
            Some(hook) if !installs => {
                Err(self.hook_files(format!("{program} … {hook}"), "changes"))
            }
            _ => Ok(()),
        }
    }
}

/// How `code` writes a commit or pushes through a git library past the
/// hooks, if it does: libgit2's bindings (pygit2, rugged, nodegit) and
/// isomorphic-git run no hooks; GitPython and dulwich run them unless told
/// not to.
fn library_commit(code: &str) -> Option<&'static str> {
    let lowered = code.to_ascii_lowercase().replace(' ', "");
    let calls = |markers: &[&str]| markers.iter().any(|marker| lowered.contains(marker));
    if calls(&["skip_hooks=true"]) {
        return Some("commits through GitPython with `skip_hooks=True`");
    }
    if calls(&["no_verify=true"]) {
        return Some("commits through a git library with `no_verify=True`");
    }
    if calls(&["pygit2", "rugged", "nodegit", "libgit2", "git2"])
        && calls(&[
            "create_commit(",
            "createcommit(",
            "commit.create(",
            "createcommitonhead(",
            ".push(",
        ])
    {
        return Some("commits or pushes through libgit2, which runs no hooks");
    }
    if calls(&["isomorphic-git"]) && calls(&[".commit(", ".push(", "commit({", "push({"]) {
        return Some("commits or pushes through isomorphic-git, which runs no hooks");
    }
    None
}
