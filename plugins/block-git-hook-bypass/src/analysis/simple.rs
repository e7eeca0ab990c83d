//! A simple command's assignments, words and redirections.

use crate::prelude::*;

use super::{Frame, Result, Walker, files};
use crate::field::{ARRAY_SEPARATOR_TEXT, Field, UNKNOWN, shown};
use crate::finding::Finding;
use crate::shell::{self, AssignedValue, Assignment, Redirect, RedirectKind, Simple, Word};
use shell_reader::{disk, git_config, runners};

/// Variables set for one command: `A=1 cmd`, `env A=1 cmd`.
#[derive(Clone, Default)]
pub(super) struct Env {
    pub assigned: Vec<(String, String)>,
    /// Variables `env -u` removes.
    pub unset: Vec<String>,
    /// `env -i`: the shell's own variables are not passed on.
    pub cleared: bool,
}

/// The environment a command without assignments adds: nothing.
static NO_ASSIGNMENTS: Env = Env {
    assigned: Vec::new(),
    unset: Vec::new(),
    cleared: false,
};

/// The effect of a hook overwritten with output the gate cannot read.
pub(super) const UNREAD_OUTPUT: &str = "overwrites, with output the gate cannot read,";

impl Walker {
    pub(super) fn simple<'p>(
        &mut self,
        frame: &mut Frame<'p>,
        simple: &'p Simple<'p>,
        input: Option<&str>,
        unread: bool,
    ) -> Result<Option<String>> {
        let assigned;
        let env = match simple.assignments.as_slice() {
            [] => &NO_ASSIGNMENTS,
            assignments => {
                assigned = self.prefix_assignments(frame, assignments)?;
                &assigned
            }
        };
        let words = frame.program.words(simple.words);
        let mut argv = frame.spare_argv.pop().unwrap_or_default();
        for word in words {
            self.expand_into(frame, word, &mut argv)?;
        }
        // `x='a[$(git commit -n)]'; (( x ))`: a substitution held in a
        // variable, or in what a builtin evaluates again, runs there.
        let evaluated = argv
            .first()
            .is_some_and(|name| shell_reader::values::evaluates_arguments(&name.text));
        let held = argv.iter().filter(|_| evaluated).map(|arg| &*arg.text);
        let held = held.chain(env.assigned.iter().map(|(_, value)| value.as_str()));
        for text in held {
            for command in shell_reader::values::substitutions(text) {
                self.source(command)?;
            }
        }
        if let Some((name, value)) = powershell_assignment(words, &argv) {
            self.check_assignment(name, value)?;
            self.set_variable(name, value.to_owned());
            return Ok(Some(String::new()));
        }
        let stdin = self.stdin(frame, &simple.redirects, input)?;
        let output = if argv.is_empty() {
            for (name, value) in &env.assigned {
                self.set_variable(name, value.clone());
            }
            Some(String::new())
        } else {
            self.output_unread = unread && simple.redirects.is_empty();
            self.run(frame, &argv, env, stdin.as_deref())?
        };
        if !simple.redirects.is_empty() {
            self.redirects(frame, &simple.redirects, output.as_deref(), &argv)?;
        }
        argv.clear();
        frame.spare_argv.push(argv);
        Ok(output)
    }

    /// `A=1 B+=2 cmd`: the values, checked, as the command's environment.
    fn prefix_assignments<'p>(
        &mut self,
        frame: &mut Frame<'p>,
        assignments: &'p [Assignment<'p>],
    ) -> Result<Env> {
        let mut env = Env::default();
        for assignment in assignments {
            let value = match &assignment.value {
                AssignedValue::Scalar(word) => self.expand_joined(frame, word)?.text.into_owned(),
                AssignedValue::Array(words) => {
                    let mut elements = Vec::new();
                    for word in words {
                        self.expand_into(frame, word, &mut elements)?;
                    }
                    // `([key]=value …)`: the values, keys dropped.
                    let elements: Vec<&str> = elements
                        .iter()
                        .map(|field| keyed_value(&field.text))
                        .collect();
                    elements.join(ARRAY_SEPARATOR_TEXT)
                }
            };
            let value = match self.variable(assignment.name) {
                Some(existing) if assignment.append => {
                    let array = matches!(assignment.value, AssignedValue::Array(_));
                    let separator = if array && !existing.is_empty() {
                        ARRAY_SEPARATOR_TEXT
                    } else {
                        ""
                    };
                    format!("{existing}{separator}{value}")
                }
                _ => value,
            };
            self.check_assignment(assignment.name, &value)?;
            self.hash_or_alias_entry(assignment, &value);
            env.assigned.push((assignment.name.to_owned(), value));
        }
        Ok(env)
    }

    /// An entry written into bash's table of programs found or of aliases:
    /// `BASH_CMDS[g]=/usr/bin/git` has `g` run git, as `hash -p` does;
    /// `BASH_ALIASES[gc]='git commit -n'` defines an alias, as `alias` does.
    fn hash_or_alias_entry(&mut self, assignment: &Assignment<'_>, value: &str) {
        let Some(name) = assignment.index else {
            return;
        };
        let text = match assignment.name {
            "BASH_CMDS" if super::run::basename(value) == "git" => "git",
            "BASH_ALIASES" => value,
            _ => return,
        };
        self.aliases.push((name.to_owned(), text.to_owned()));
    }

    /// What a command reads on standard input, when known.
    pub(super) fn stdin<'p>(
        &mut self,
        frame: &mut Frame<'p>,
        redirects: &'p [Redirect<'p>],
        input: Option<&str>,
    ) -> Result<Option<String>> {
        let heredocs = &frame.program.heredocs;
        let mut stdin = input.map(str::to_owned);
        for redirect in redirects {
            let read = match redirect.kind {
                RedirectKind::HereDoc(index) => match heredocs.get(index) {
                    Some(doc) => Some(self.expand_joined(frame, &doc.body)?.text.into_owned()),
                    None => None,
                },
                RedirectKind::HereString => {
                    let mut text = self
                        .expand_joined(frame, &redirect.target)?
                        .text
                        .into_owned();
                    text.push('\n');
                    Some(text)
                }
                RedirectKind::Read => {
                    let path = self.expand_joined(frame, &redirect.target)?;
                    self.file_text(&path.text).map(str::to_owned)
                }
                // `<&3`: standard input read from a descriptor opened before.
                RedirectKind::Duplicate if redirect.fd == Some(0) => {
                    let fd = self.expand_joined(frame, &redirect.target)?;
                    self.file_content(&format!("/dev/fd/{}", fd.text))
                        .map(str::to_owned)
                }
                _ => continue,
            };
            match redirect.fd {
                Some(0) => stdin = read,
                Some(fd) => self.open_descriptor(fd, read),
                None => {}
            }
        }
        Ok(stdin)
    }

    /// What a descriptor other than standard input is opened on (`3< file`,
    /// `exec 3< <(…)`), read later as `/dev/fd/3` or by `<&3`.
    fn open_descriptor(&mut self, fd: u32, content: Option<String>) {
        let path = format!("/dev/fd/{fd}");
        let content = content.unwrap_or_else(|| UNKNOWN.to_string());
        self.written_files.retain(|(written, _)| *written != path);
        self.written_files.push((path, content));
    }

    /// Checks and records the files a command's output goes to.
    pub(super) fn redirects<'p>(
        &mut self,
        frame: &mut Frame<'p>,
        redirects: &'p [Redirect<'p>],
        output: Option<&str>,
        argv: &[Field<'_>],
    ) -> Result<()> {
        for redirect in redirects {
            let append = match redirect.kind {
                RedirectKind::Write => false,
                RedirectKind::Append => true,
                _ => continue,
            };
            let target = self.expand_joined(frame, &redirect.target)?;
            let operator = if append { ">>" } else { ">" };
            let command = || {
                format!("{} {operator} {}", shown(argv), target.shown())
                    .trim()
                    .to_owned()
            };
            // `git rev-parse … > .git/hooks/pre-commit`: a hook replaced by
            // what a program prints, which may be nothing or `true`; a
            // listing prints nothing of paths that are not there
            // (`ls /nonexistent`). A download (`curl … > .git/hooks/commit-msg`)
            // installs one.
            let program = argv
                .first()
                .map(|program| super::run::basename(&program.text));
            let downloads = matches!(program, Some("curl" | "wget"));
            let lists = matches!(program, Some("ls" | "find"));
            if !append
                && (output.is_none() || lists)
                && !argv.is_empty()
                && !downloads
                && files::is_hook_path(&target.text, self.within())
            {
                return Err(self.hook_files(command(), UNREAD_OUTPUT));
            }
            if self.umask_strips_execute && files::is_hook_path(&target.text, self.within()) {
                return Err(self.hook_files(command(), super::run::UMASKED));
            }
            self.write_file(&target.text, command, append, output)?;
        }
        Ok(())
    }

    /// Checks and records a file a command writes (`command` shows how),
    /// appending or not, with `content` when known: a hook replaced by a
    /// no-op, core.hooksPath set, git's configuration replaced, and what
    /// the file runs later.
    pub(super) fn write_file(
        &mut self,
        path: &str,
        command: impl Fn() -> String,
        append: bool,
        content: Option<&str>,
    ) -> Result<()> {
        if !append && let Some(content) = content.filter(|content| files::is_neutered(content)) {
            if files::is_hook_path(path, self.within()) {
                let effect = if content.is_empty() {
                    "empties"
                } else {
                    "swaps a no-op in for"
                };
                return Err(self.hook_files(command(), effect));
            }
            if files::is_hook_tool(path) {
                return Err(self.hook_files(command(), files::TOOL_SWAPPED));
            }
        }
        if files::is_hook_startup_file(path) && content.is_some_and(files::ends_hooks) {
            return Err(self.hook_files(command(), "cuts short"));
        }
        if content.is_some_and(|content| files::switches_hooks_off(path, content)) {
            return Err(self.hook_files(command(), "switches off"));
        }
        if files::is_branch_file(path) {
            return Err(Finding::branch_written(command()));
        }
        let is_config = self.is_config_file(path);
        // A copy of the repository's own configuration (`cp .git/config
        // /tmp/config.bak`) sets core.hooksPath only as the repository does.
        let own_config =
            !is_config && content.is_some() && content == self.file_text(".git/config");
        let sets_hooks_path = |content: &str| {
            !own_config
                && (git_config::sets_hooks_path(content)
                    || is_config && content.to_ascii_lowercase().contains("hookspath"))
        };
        if content.is_some_and(sets_hooks_path) {
            return Err(Finding::HooksPath { setting: command() });
        }
        if let Some(content) = content.filter(|_| !own_config) {
            self.run_later(path, content)?;
        }
        if is_config && !append {
            let effect = if content == Some("") {
                "empties"
            } else {
                "replaces"
            };
            return Err(self.config_files(command(), effect));
        }
        self.record_written(path.to_owned(), append, content);
        Ok(())
    }

    /// The files `sort -o FILE` and `uniq IN OUT` write, with what they
    /// write when their input is known (`sort -o .git/hooks/pre-commit
    /// /dev/null` empties the hook), and the empty files `touch` creates
    /// where there were none.
    pub(super) fn writes_by_operand(
        &mut self,
        name: &str,
        argv: &[Field<'_>],
        stdin: Option<&str>,
    ) -> Result<()> {
        let valued: &[&str] = match name {
            "sort" => &[
                "-o",
                "--output",
                "-k",
                "--key",
                "-t",
                "--field-separator",
                "-S",
                "--buffer-size",
                "-T",
            ],
            "uniq" => &["-f", "-s", "-w"],
            _ => &["-r", "--reference", "-d", "--date", "-t"],
        };
        let args = argv.get(1..).unwrap_or_default();
        let operands: Vec<&str> = files::operands(args, valued)
            .map(|arg| &*arg.text)
            .collect();
        let output = args
            .windows(2)
            .find(|pair| matches!(&*pair[0].text, "-o" | "--output"))
            .map(|pair| &*pair[1].text)
            .or_else(|| {
                args.iter()
                    .find_map(|arg| arg.text.strip_prefix("--output="))
            });
        let command = || shown(argv);
        let lines = |text: String| -> Vec<String> { text.lines().map(str::to_owned).collect() };
        match name {
            "touch" => {
                for file in operands {
                    if self.file_text(file).is_none() {
                        self.record_written(file.to_owned(), false, Some(""));
                    }
                }
                Ok(())
            }
            "sort" => {
                let Some(target) = output else {
                    return Ok(());
                };
                let input =
                    shell_reader::output::input_of(&operands, stdin, |file| self.file_text(file));
                let content = input.map(|text| {
                    let mut sorted = lines(text);
                    sorted.sort();
                    sorted
                        .iter()
                        .map(|line| format!("{line}\n"))
                        .collect::<String>()
                });
                self.write_file(target, command, false, content.as_deref())
            }
            _ => {
                let [input, target, ..] = operands[..] else {
                    return Ok(());
                };
                let content =
                    shell_reader::output::input_of(&[input], stdin, |file| self.file_text(file));
                let content = content.map(|text| {
                    let mut kept = lines(text);
                    kept.dedup();
                    kept.iter()
                        .map(|line| format!("{line}\n"))
                        .collect::<String>()
                });
                self.write_file(target, command, false, content.as_deref())
            }
        }
    }

    /// What a file written with `content` runs later, read now: a shell's
    /// start-up file, git configuration, a script (`runners::run_later`);
    /// one that skips hooks when used is refused as it is written.
    pub(super) fn run_later(&mut self, path: &str, content: &str) -> Result<()> {
        if let Some(label) = files::runs_before_git(path) {
            // A git command after it runs with its switches and aliases.
            self.in_startup_file += 1;
            let read = self.child_source_in(&format!("{content}\ngit commit"), || label);
            self.in_startup_file -= 1;
            read?;
        }
        if let Some(settings) = git_config::written_commands(path, content) {
            self.child_source_in(&settings, || {
                format!("The git configuration written to `{path}`")
            })?;
        }
        for text in files::scripts_run_later(path, content) {
            self.child_source_in(&text, || format!("The script written to `{path}`"))?;
        }
        Ok(())
    }

    pub(super) fn record_written(&mut self, path: String, append: bool, content: Option<&str>) {
        if path.starts_with("/dev/") {
            return;
        }
        let path = files::normalize(&path).to_owned();
        let content = content.map_or_else(|| UNKNOWN.to_string(), str::to_owned);
        match self
            .written_files
            .iter_mut()
            .find(|(written, _)| *written == path)
        {
            Some((_, existing)) if append => existing.push_str(&content),
            Some((_, existing)) => *existing = content,
            None => self.written_files.push((path, content)),
        }
    }

    /// What the shell script at `path`, which the command runs, holds: what
    /// this command wrote to it, else its text on disk when the gate reads
    /// scripts there and the file runs as shell (a program in another
    /// language, or no script at all, is none). A script on disk that cannot
    /// be read is refused: the gate cannot tell what it runs.
    pub(super) fn script_text(&self, path: &str) -> Result<Option<String>> {
        if let Some(text) = self.file_content(path) {
            return Ok(Some(text.to_owned()));
        }
        if !self.reads_disk {
            return Ok(None);
        }
        let Some(located) = disk::locate(self.folder.as_deref(), path) else {
            return Ok(None);
        };
        // A script that runs itself again (`exec "$0"`) is walked once.
        if self.disk_scripts.contains(&located) {
            return Ok(None);
        }
        Ok(self
            .disk_text(path)?
            .filter(|text| runners::runs_as_shell(text))
            // bash drops a script's NUL bytes as it reads it.
            .map(|text| text.replace('\0', "")))
    }

    /// What the code file at `path`, which an interpreter runs, holds: what
    /// this command wrote to it, else its text on disk when the gate reads
    /// files there, but for an installed package's code
    /// (`disk::installed_package_code`). One that cannot be read is
    /// refused, as a script is.
    pub(super) fn code_text(&self, path: &str) -> Result<Option<String>> {
        if let Some(text) = self.file_content(path) {
            return Ok(Some(text.to_owned()));
        }
        if !self.reads_disk || disk::installed_package_code(path) {
            return Ok(None);
        }
        Ok(self.disk_text(path)?.map(str::to_owned))
    }

    /// The text on disk of the script at `path`; one the host could not
    /// read is refused, but where code's strings are taken for commands.
    fn disk_text(&self, path: &str) -> Result<Option<&str>> {
        match self.disk.text(self.folder.as_deref(), path) {
            Ok(text) => Ok(text),
            Err(_) if self.in_code_strings => Ok(None),
            Err(why) => Err(Finding::ScriptUnread {
                path: path.to_owned(),
                why: why.to_owned(),
            }),
        }
    }

    /// What the file at `path`, which the command reads, holds: what this
    /// command wrote to it, else its text on disk when the gate reads files
    /// there (a file it could not read, such as a named pipe, gives a mark
    /// that is refused where it runs: `disk::unread_in`).
    pub(super) fn file_text(&self, path: &str) -> Option<&str> {
        match self.file_content(path) {
            Some(text) => Some(text),
            None if self.reads_disk => self.disk.input(self.folder.as_deref(), path),
            None => None,
        }
    }

    /// Walks `text`, the script at `path` the command runs, in this shell. A
    /// script read from disk is named in its finding (the command alone does
    /// not show it) and read as bash runs it: the commands before a syntax
    /// error run (each line that reads alone is walked), and a string it
    /// builds that does not read as shell is let be, as text that may not be
    /// shell is elsewhere.
    pub(super) fn script_source(&mut self, path: &str, text: &str) -> Result<Option<String>> {
        if !self.reads_disk || self.file_content(path).is_some() {
            return self.source(text);
        }
        let located = disk::locate(self.folder.as_deref(), path).unwrap_or_default();
        self.disk_scripts.push(located);
        let lines = u32::try_from(text.lines().count()).unwrap_or(u32::MAX);
        self.script_steps = self
            .script_steps
            .saturating_add(lines.saturating_mul(super::SCRIPT_LINE_STEPS));
        let output = match shell::parse(text) {
            Ok(_) => self.source(text),
            Err(_) => self.source_lines(text),
        };
        self.disk_scripts.pop();
        output.map_err(|finding| finding.in_code(format!("The script `{path}`, as it is on disk,")))
    }

    /// [`Walker::script_source`] in a child shell given `positional`.
    pub(super) fn child_script(
        &mut self,
        path: &str,
        text: &str,
        positional: Option<Vec<Field<'static>>>,
    ) -> Result<Option<String>> {
        self.in_child(positional, |walker| walker.script_source(path, text))
    }

    /// Each line of `text` that reads as shell alone, walked in order.
    fn source_lines(&mut self, text: &str) -> Result<Option<String>> {
        for line in text.lines() {
            match self.source(line) {
                Ok(_) | Err(Finding::Unreadable { syntax: true, .. }) => {}
                Err(finding) => return Err(finding),
            }
        }
        Ok(None)
    }

    /// What a file holds, when this command wrote it or it is `/dev/null`.
    pub(super) fn file_content(&self, path: &str) -> Option<&str> {
        if path == "/dev/null" {
            return Some("");
        }
        // Most commands write no file.
        if self.written_files.is_empty() {
            return None;
        }
        let path = files::normalize(path);
        self.written_files
            .iter()
            .find(|(written, _)| written == path)
            .map(|(_, content)| content.as_str())
    }
}

/// PowerShell's `$env:NAME=value`, which sets an environment variable when a
/// harness runs its shell tool in PowerShell.
#[inline]
fn powershell_assignment<'f>(
    words: &[Word<'_>],
    argv: &'f [Field<'_>],
) -> Option<(&'f str, &'f str)> {
    let [field] = argv else { return None };
    let first = words.first()?.parts().first()?;
    if !matches!(first, crate::shell::Part::Parameter { name: "env", .. }) {
        return None;
    }
    let rest = field.text.strip_prefix(UNKNOWN)?.strip_prefix(':')?;
    super::wrappers::split_assignment(rest)
}

/// The value of an array literal's element: `value` of `[key]=value`.
fn keyed_value(element: &str) -> &str {
    element
        .strip_prefix('[')
        .and_then(|rest| rest.split_once("]="))
        .map_or(element, |(_, value)| value)
}
