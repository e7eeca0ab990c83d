//! Shell variables, with an undo log so that a subshell's assignments can be
//! rolled back without copying every variable on the way in.

use crate::prelude::*;

use crate::field::UNKNOWN_TEXT;

/// Longer values are treated as unknown, so that doubling a variable in a
/// loop cannot exhaust memory.
const MAX_VALUE_LEN: usize = 16 * 1024;

#[derive(Default)]
pub(super) struct Variables {
    entries: Vec<Variable>,
    /// Names declared with `declare -n`, each with the name it stands for.
    /// A subshell's references outlive it: a name then stands for its
    /// target where bash would read it as a variable of its own, which
    /// only reads more.
    references: Vec<(String, String)>,
    /// Earlier values of changed variables, while a subshell is open.
    undo: Vec<(String, Option<String>)>,
    open_subshells: u32,
}

pub(super) struct Variable {
    pub name: String,
    pub value: String,
}

impl Variables {
    /// `declare -n name=target`.
    pub fn refer(&mut self, name: &str, target: &str) {
        self.references.push((name.to_owned(), target.to_owned()));
    }

    /// The variable `name` stands for, through references.
    fn resolve<'s>(&'s self, name: &'s str) -> &'s str {
        shell_reader::values::referred(&self.references, name)
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        let name = self.resolve(name);
        self.entries
            .iter()
            .find(|variable| variable.name == name)
            .map(|variable| variable.value.as_str())
    }

    pub fn iter(&self) -> impl Iterator<Item = &Variable> {
        self.entries.iter()
    }

    pub fn set(&mut self, name: &str, value: String) {
        if !self.references.is_empty() {
            let target = self.resolve(name).to_owned();
            return self.set_resolved(&target, value);
        }
        self.set_resolved(name, value);
    }

    fn set_resolved(&mut self, name: &str, value: String) {
        let value = if value.len() > MAX_VALUE_LEN {
            UNKNOWN_TEXT.to_owned()
        } else {
            value
        };
        let previous = match self
            .entries
            .iter_mut()
            .find(|variable| variable.name == name)
        {
            Some(variable) => Some(core::mem::replace(&mut variable.value, value)),
            None => {
                self.entries.push(Variable {
                    name: name.to_owned(),
                    value,
                });
                None
            }
        };
        self.log(name, previous);
    }

    pub fn unset(&mut self, name: &str) {
        if let Some(at) = self
            .entries
            .iter()
            .position(|variable| variable.name == name)
        {
            let removed = self.entries.swap_remove(at);
            self.log(name, Some(removed.value));
        }
    }

    pub fn clear(&mut self) {
        while let Some(variable) = self.entries.pop() {
            self.log(&variable.name, Some(variable.value));
        }
    }

    fn log(&mut self, name: &str, previous: Option<String>) {
        if self.open_subshells > 0 {
            self.undo.push((name.to_owned(), previous));
        }
    }

    /// Opens a subshell; returns the mark to roll back to when it closes.
    pub fn open(&mut self) -> usize {
        self.open_subshells += 1;
        self.undo.len()
    }

    /// Closes a subshell, undoing what it changed since `mark`.
    pub fn close(&mut self, mark: usize) {
        while self.undo.len() > mark {
            let Some((name, previous)) = self.undo.pop() else {
                break;
            };
            let at = self
                .entries
                .iter()
                .position(|variable| variable.name == name);
            match (at, previous) {
                (Some(at), Some(value)) => {
                    if let Some(variable) = self.entries.get_mut(at) {
                        variable.value = value;
                    }
                }
                (Some(at), None) => {
                    self.entries.swap_remove(at);
                }
                (None, Some(value)) => self.entries.push(Variable { name, value }),
                (None, None) => {}
            }
        }
        self.open_subshells = self.open_subshells.saturating_sub(1);
    }
}
