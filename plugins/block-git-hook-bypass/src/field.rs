//! A word's value after expansion.

/// Stands for text the gate cannot know: an unset-or-unknown variable, the
/// output of a command it does not model.
pub const UNKNOWN: char = '\u{FFFC}';

/// Separates the elements of an array variable's value.
pub const ARRAY_SEPARATOR: char = '\u{1E}';

/// [`UNKNOWN`] as text.
pub const UNKNOWN_TEXT: &str = "\u{FFFC}";

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Field {
    pub text: String,
    /// Whether every part of the value is known.
    known: bool,
}

impl Field {
    pub fn new(text: impl Into<String>) -> Self {
        let text = text.into();
        let known = !text.contains(UNKNOWN);
        Self { text, known }
    }

    /// A field built by expansion, which knows whether it met an unknown part.
    pub const fn expanded(text: String, known: bool) -> Self {
        Self { text, known }
    }

    /// The value, when every part of it is known.
    pub fn exact(&self) -> Option<&str> {
        self.known.then_some(self.text.as_str())
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
