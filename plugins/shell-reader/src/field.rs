//! A word's value after expansion.

use crate::prelude::*;

use alloc::borrow::Cow;

/// Stands for text the gate cannot know: an unset-or-unknown variable, the
/// output of a command it does not model.
pub const UNKNOWN: char = '\u{FFFC}';

/// Separates the elements of an array variable's value.
pub const ARRAY_SEPARATOR: char = '\u{1E}';
pub const ARRAY_SEPARATOR_TEXT: &str = "\u{1E}";

/// [`UNKNOWN`] as text.
pub const UNKNOWN_TEXT: &str = "\u{FFFC}";

/// How much of a value the gate knows, from most to least.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Knowledge {
    #[default]
    Known,
    /// Unknown only where it reads variables the command never set: the
    /// environment the harness started the shell with, which the agent does
    /// not choose from one call to the next.
    Environment,
    /// Unknown where the command computes it: a command's output, input it
    /// reads, a value too long to follow.
    Computed,
}

/// A field borrows its text from the command when it can: most words are
/// one piece of text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Field<'a> {
    pub text: Cow<'a, str>,
    knowledge: Knowledge,
}

impl<'a> Field<'a> {
    pub fn new(text: impl Into<Cow<'a, str>>) -> Self {
        let text = text.into();
        let knowledge = if text.contains(UNKNOWN) {
            Knowledge::Computed
        } else {
            Knowledge::Known
        };
        Self { text, knowledge }
    }

    /// A field built by expansion, which knows what unknown parts it met.
    pub const fn expanded(text: Cow<'a, str>, knowledge: Knowledge) -> Self {
        Self { text, knowledge }
    }

    pub fn into_owned(self) -> Field<'static> {
        Field {
            text: Cow::Owned(self.text.into_owned()),
            knowledge: self.knowledge,
        }
    }

    /// The value, when every part of it is known.
    pub fn exact(&self) -> Option<&str> {
        (self.knowledge == Knowledge::Known).then_some(&*self.text)
    }

    /// What the value's unknown parts are, if it has any.
    pub const fn knowledge(&self) -> Knowledge {
        self.knowledge
    }

    /// The value for a message: unknown parts shown as `…`, nothing as `""`.
    pub fn shown(&self) -> String {
        if self.text.is_empty() {
            return "\"\"".to_owned();
        }
        self.text.replace(UNKNOWN, "…")
    }
}

impl AsRef<str> for Field<'_> {
    fn as_ref(&self) -> &str {
        &self.text
    }
}

/// Fields that outlive the command text they came from.
pub fn owned(fields: &[Field<'_>]) -> Vec<Field<'static>> {
    fields
        .iter()
        .map(|field| field.clone().into_owned())
        .collect()
}

/// Fields joined with spaces, for a message.
pub fn shown(fields: &[Field<'_>]) -> String {
    let mut out = String::new();
    for (index, field) in fields.iter().enumerate() {
        if index > 0 {
            out.push(' ');
        }
        out.push_str(&field.shown());
    }
    out
}
