//! A word's value after expansion.

/// Stands for text the gate cannot know: an unset-or-unknown variable, the
/// output of a command it does not model.
pub const UNKNOWN: char = '\u{FFFC}';

/// Separates the elements of an array variable's value.
pub const ARRAY_SEPARATOR: char = '\u{1E}';

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Field {
    pub text: String,
}

impl Field {
    pub fn new(text: impl Into<String>) -> Self {
        Self { text: text.into() }
    }

    /// The value, when every part of it is known.
    pub fn exact(&self) -> Option<&str> {
        (!self.text.contains(UNKNOWN)).then_some(self.text.as_str())
    }

    /// The value for a message, unknown parts shown as `…`.
    pub fn shown(&self) -> String {
        self.text.replace(UNKNOWN, "…")
    }
}

/// Fields joined with spaces, for a message.
pub fn shown(fields: &[Field]) -> String {
    let mut out = String::new();
    for (index, field) in fields.iter().enumerate() {
        if index > 0 {
            out.push(' ');
        }
        out.push_str(&field.shown());
    }
    out
}
