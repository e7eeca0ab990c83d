//! A reader for the shell language, as much of it as deciding what a command
//! runs needs: lists, pipelines, compound commands, functions, redirections,
//! here-documents, quoting and the expansions that can run commands.
//!
//! Written for this gate instead of using brush-parser: brush-parser took
//! 0.5–0.9 ms to parse a 2 KB command natively, several times the gate's whole
//! budget in WebAssembly, and it parses words in a second pass. This reader
//! makes one pass, borrows from the command text wherever quoting allows, and
//! is exercised by the tests here and by the gate's case table.

mod ansi_c;
mod inline;
mod parser;
mod word;

use std::borrow::Cow;

pub use inline::Inline;

pub use ansi_c::decode as decode_escapes;
pub use parser::parse;

/// A parsed command text.
#[derive(Debug)]
pub struct Program<'a> {
    pub list: List<'a>,
    /// Here-document bodies, indexed by [`RedirectKind::HereDoc`].
    pub heredocs: Vec<HereDoc<'a>>,
}

/// Commands in the order they may run. `&&`, `||`, `;` and `&` are not kept:
/// any command of a list may run.
pub type List<'a> = Vec<Pipeline<'a>>;

#[derive(Debug)]
pub struct Pipeline<'a> {
    pub commands: Inline<Command<'a>>,
}

#[derive(Debug)]
pub enum Command<'a> {
    Simple(Simple<'a>),
    Compound(Compound<'a>),
    Function(Function<'a>),
}

/// Assignments, words and redirections, as in `A=1 git commit -m x >log`.
#[derive(Debug, Default)]
pub struct Simple<'a> {
    pub assignments: Vec<Assignment<'a>>,
    pub words: Vec<Word<'a>>,
    pub redirects: Vec<Redirect<'a>>,
}

#[derive(Debug)]
pub struct Assignment<'a> {
    pub name: &'a str,
    pub value: AssignedValue<'a>,
    /// `name+=value`.
    pub append: bool,
}

#[derive(Debug)]
pub enum AssignedValue<'a> {
    Scalar(Word<'a>),
    /// `name=(a b c)`: kept for the commands its words may run.
    Array(Vec<Word<'a>>),
}

/// A compound command: its lists, plus the words it expands itself (a `for`
/// list, a `case` subject and patterns, the operands of `[[ ]]`).
#[derive(Debug)]
pub struct Compound<'a> {
    pub subshell: bool,
    pub lists: Vec<List<'a>>,
    pub words: Vec<Word<'a>>,
    /// The variable a `for` or `select` loop assigns from `words`.
    pub loop_variable: Option<&'a str>,
    pub redirects: Vec<Redirect<'a>>,
}

#[derive(Debug)]
pub struct Function<'a> {
    pub name: Cow<'a, str>,
    pub body: Box<Command<'a>>,
}

#[derive(Debug)]
pub struct Redirect<'a> {
    pub kind: RedirectKind,
    /// The file, descriptor or here-string; empty for a here-document.
    pub target: Word<'a>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RedirectKind {
    /// `<`, `<&`.
    Read,
    /// `>`, `>|`, `&>`, `<>`, `>&` to a file.
    Write,
    /// `>>`, `&>>`.
    Append,
    /// `>&n`, `<&n`: a descriptor copied, no file named.
    Duplicate,
    /// `<<<`.
    HereString,
    /// `<<` or `<<-`, with the index of its body in [`Program::heredocs`].
    HereDoc(usize),
}

#[derive(Debug, Default)]
pub struct HereDoc<'a> {
    /// The body, expandable when the delimiter was unquoted, literal otherwise.
    pub body: Word<'a>,
}

/// A shell word: the pieces that make its value once expanded.
#[derive(Debug, Default)]
pub struct Word<'a> {
    parts: Inline<Part<'a>>,
}

#[derive(Debug)]
pub enum Part<'a> {
    /// Text after quote removal. `quoted` text is not split into fields.
    Text { text: Cow<'a, str>, quoted: bool },
    /// `$name`, `${name}`, `$1`, `$@`, or `${name:-default}` and kin.
    Parameter {
        name: &'a str,
        quoted: bool,
        operator: ParameterOperator<'a>,
    },
    /// `$(…)`, `<(…)` or `>(…)`: a list that runs.
    Substitution { list: List<'a>, quoted: bool },
    /// `` `…` ``, with the backslashes the backquotes consume removed; it is
    /// read when the command is analysed.
    Backquoted { source: String, quoted: bool },
    /// An expansion whose value cannot be known here (`$((…))`, `${#x}`,
    /// `${x/a/b}`), with any word inside it whose substitutions still run.
    Opaque {
        inner: Option<Box<Word<'a>>>,
        quoted: bool,
    },
}

#[derive(Debug)]
pub enum ParameterOperator<'a> {
    None,
    /// `${x:-w}`, `${x-w}`, `${x:=w}`, `${x=w}`.
    Default(Box<Word<'a>>),
    /// `${x:+w}`, `${x+w}`.
    Alternative(Box<Word<'a>>),
}

/// Why a command text is not valid shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SyntaxError {
    Unclosed(&'static str),
    Unexpected(String),
    MissingRedirectTarget,
    /// The text ends where the grammar needs more, as after `git add &&`.
    Incomplete,
    TooDeep,
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Unclosed(what) if what.contains("quote") => write!(f, "unclosed {what}"),
            Self::Unclosed(what) => write!(f, "unclosed `{what}`"),
            Self::Unexpected(token) => write!(f, "unexpected `{token}`"),
            Self::MissingRedirectTarget => f.write_str("a redirection without a target"),
            Self::Incomplete => f.write_str("the command ends where more was expected"),
            Self::TooDeep => f.write_str("nesting too deep to follow"),
        }
    }
}

impl<'a> Word<'a> {
    pub fn parts(&self) -> &[Part<'a>] {
        &self.parts
    }

    fn push(&mut self, part: Part<'a>) {
        self.parts.push(part);
    }

    fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// The word's text when it is one unquoted literal, as reserved words are.
    pub fn as_bare(&self) -> Option<&str> {
        match self.parts() {
            [Part::Text { text, quoted: false }] => Some(text),
            _ => None,
        }
    }

    /// The word's text when it is one piece of text, quoted or not.
    fn into_text(self) -> Option<Cow<'a, str>> {
        match self.parts.into_single() {
            Some(Part::Text { text, .. }) => Some(text),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests;
