//! A simple command's assignments, words and redirections.

use super::{Frame, Result, Walker, files, git_call};
use crate::field::{ARRAY_SEPARATOR, Field, UNKNOWN, shown};
use crate::finding::Finding;
use crate::shell::{AssignedValue, Redirect, RedirectKind, Simple};

/// Variables set for one command: `A=1 cmd`, `env A=1 cmd`.
#[derive(Clone, Default)]
pub(super) struct Env {
    pub assigned: Vec<(String, String)>,
    /// Variables `env -u` removes.
    pub unset: Vec<String>,
    /// `env -i`: the shell's own variables are not passed on.
    pub cleared: bool,
}

impl Walker {
    pub(super) fn simple<'p>(
        &mut self,
        frame: &mut Frame<'p>,
        simple: &'p Simple<'p>,
        input: Option<&str>,
    ) -> Result<Option<String>> {
        let mut env = Env::default();
        for assignment in &simple.assignments {
            let value = match &assignment.value {
                AssignedValue::Scalar(word) => self.expand_joined(frame, word)?.text,
                AssignedValue::Array(words) => {
                    let mut elements = Vec::new();
                    for word in words {
                        self.expand_into(frame, word, &mut elements)?;
                    }
                    let elements: Vec<String> = elements.into_iter().map(|field| field.text).collect();
                    elements.join(&ARRAY_SEPARATOR.to_string())
                }
            };
            let value = match self.variable(assignment.name) {
                Some(existing) if assignment.append => {
                    let array = matches!(assignment.value, AssignedValue::Array(_));
                    let separator = if array && !existing.is_empty() { ARRAY_SEPARATOR.to_string() } else { String::new() };
                    format!("{existing}{separator}{value}")
                }
                _ => value,
            };
            git_call::check_assignment(assignment.name, &value)?;
            env.assigned.push((assignment.name.to_owned(), value));
        }
        let mut argv = Vec::with_capacity(simple.words.len());
        for word in &simple.words {
            self.expand_into(frame, word, &mut argv)?;
        }
        if let Some((name, value)) = powershell_assignment(simple, &argv) {
            git_call::check_assignment(name, value)?;
            self.set_variable(name, value.to_owned());
            return Ok(Some(String::new()));
        }
        let stdin = self.stdin(frame, &simple.redirects, input)?;
        let output = if argv.is_empty() {
            for (name, value) in env.assigned {
                self.set_variable(&name, value);
            }
            Some(String::new())
        } else {
            self.run(frame, &argv, &env, stdin.as_deref())?
        };
        self.redirects(frame, &simple.redirects, output.as_deref(), &argv)?;
        Ok(output)
    }

    /// What a command reads on standard input, when known.
    fn stdin<'p>(
        &mut self,
        frame: &mut Frame<'p>,
        redirects: &'p [Redirect<'p>],
        input: Option<&str>,
    ) -> Result<Option<String>> {
        let heredocs = frame.heredocs;
        let mut stdin = input.map(str::to_owned);
        for redirect in redirects {
            match redirect.kind {
                RedirectKind::HereDoc(index) => {
                    stdin = match heredocs.get(index) {
                        Some(doc) => Some(self.expand_joined(frame, &doc.body)?.text),
                        None => None,
                    };
                }
                RedirectKind::HereString => {
                    let mut text = self.expand_joined(frame, &redirect.target)?.text;
                    text.push('\n');
                    stdin = Some(text);
                }
                RedirectKind::Read => {
                    let path = self.expand_joined(frame, &redirect.target)?;
                    stdin = self.file_content(&path.text).map(str::to_owned);
                }
                _ => {}
            }
        }
        Ok(stdin)
    }

    /// Checks and records the files a command's output goes to.
    pub(super) fn redirects<'p>(
        &mut self,
        frame: &mut Frame<'p>,
        redirects: &'p [Redirect<'p>],
        output: Option<&str>,
        argv: &[Field],
    ) -> Result<()> {
        for redirect in redirects {
            let append = match redirect.kind {
                RedirectKind::Write => false,
                RedirectKind::Append => true,
                _ => continue,
            };
            let target = self.expand_joined(frame, &redirect.target)?;
            let operator = if append { ">>" } else { ">" };
            let command = || format!("{} {operator} {}", shown(argv), target.shown()).trim().to_owned();
            if !append
                && files::is_hook_path(&target.text, self.in_hooks_dir())
                && let Some(content) = output.filter(|content| files::is_neutered(content))
            {
                let effect = if content.is_empty() {
                    "empties"
                } else {
                    "swaps a no-op in for"
                };
                return Err(self.hook_files(command(), effect));
            }
            if files::is_git_config_file(&target.text)
                && output.is_some_and(|content| content.to_ascii_lowercase().contains("hookspath"))
            {
                return Err(Finding::HooksPath { setting: command() });
            }
            if files::is_shell_startup_file(&target.text)
                && let Some(script) = output
            {
                match self.child_source(script, None) {
                    Ok(_) | Err(Finding::Unreadable { .. }) => {}
                    Err(finding) => return Err(finding),
                }
            }
            self.record_written(target.text, append, output);
        }
        Ok(())
    }

    pub(super) fn record_written(&mut self, path: String, append: bool, content: Option<&str>) {
        if path.starts_with("/dev/") {
            return;
        }
        let path = files::normalize(&path).to_owned();
        let content = content.map_or_else(|| UNKNOWN.to_string(), str::to_owned);
        match self.written_files.iter_mut().find(|(written, _)| *written == path) {
            Some((_, existing)) if append => existing.push_str(&content),
            Some((_, existing)) => *existing = content,
            None => self.written_files.push((path, content)),
        }
    }

    /// What a file holds, when this command wrote it or it is `/dev/null`.
    pub(super) fn file_content(&self, path: &str) -> Option<&str> {
        if path == "/dev/null" {
            return Some("");
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
fn powershell_assignment<'f>(simple: &Simple<'_>, argv: &'f [Field]) -> Option<(&'f str, &'f str)> {
    let [field] = argv else { return None };
    let first = simple.words.first()?.parts().first()?;
    if !matches!(first, crate::shell::Part::Parameter { name: "env", .. }) {
        return None;
    }
    let rest = field.text.strip_prefix(UNKNOWN)?.strip_prefix(':')?;
    super::wrappers::split_assignment(rest)
}
