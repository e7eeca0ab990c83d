//! A reader for the shell language, as much of it as deciding what a command
//! runs needs: lists, pipelines, compound commands, functions, redirections,
//! here-documents, quoting and the expansions that can run commands.
//!
//! Written for this gate instead of using brush-parser: brush-parser took
//! 0.5–0.9 ms to parse a 2 KB command natively, several times the gate's whole
//! budget in WebAssembly, and it parses words in a second pass. This reader
//! makes one pass, borrows from the command text wherever quoting allows and
//! keeps pipelines and words in per-program arenas. It is exercised by the
//! unit tests here, the gate's case table, and the robustness tests (random
//! input, every prefix of every case, deep nesting).

use crate::prelude::*;

mod ansi_c;
mod compound;
mod expansion;
mod inline;
mod parser;
mod redirect;
mod word;

use alloc::borrow::Cow;

pub use inline::Inline;

pub use ansi_c::decode as decode_escapes;
pub use parser::{is_variable_name, names_parameter, parse};

/// A parsed command text. Its pipelines and words live in two arenas that
/// lists and commands refer to by [`Span`], so that parsing allocates per
/// program rather than per command.
#[derive(Debug)]
pub struct Program<'a> {
    pub list: List,
    pipelines: Vec<Pipeline<'a>>,
    words: Vec<Word<'a>>,
    /// Here-document bodies, indexed by [`RedirectKind::HereDoc`].
    pub heredocs: Vec<HereDoc<'a>>,
    /// Whether it defines a function anywhere: most programs define none.
    defines_functions: bool,
}

/// Consecutive items of one of a [`Program`]'s arenas.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Span {
    start: u32,
    len: u32,
}

/// Commands in the order they may run. `&&`, `||`, `;` and `&` are not kept:
/// any command of a list may run.
pub type List = Span;

/// The words of a command: a span of [`Program`] words.
pub type Words = Span;

impl Span {
    fn new(start: usize, end: usize) -> Self {
        let clamp = |value: usize| u32::try_from(value).unwrap_or(u32::MAX);
        Self {
            start: clamp(start),
            len: clamp(end.saturating_sub(start)),
        }
    }

    fn range(self) -> core::ops::Range<usize> {
        let start = self.start as usize;
        start..start + self.len as usize
    }

    pub const fn len(self) -> usize {
        self.len as usize
    }

    pub const fn is_empty(self) -> bool {
        self.len == 0
    }
}

impl<'a> Program<'a> {
    pub fn pipelines(&self, list: List) -> &[Pipeline<'a>] {
        self.pipelines.get(list.range()).unwrap_or_default()
    }

    pub fn words(&self, words: Words) -> &[Word<'a>] {
        self.words.get(words.range()).unwrap_or_default()
    }

    /// The body of the function named `name` the program defines last,
    /// wherever in it.
    pub fn function(&self, name: &str) -> Option<&Command<'a>> {
        if !self.defines_functions {
            return None;
        }
        self.pipelines
            .iter()
            .rev()
            .flat_map(|pipeline| pipeline.commands.iter())
            .find_map(|command| match command {
                Command::Function(function) if function.name == name => Some(&*function.body),
                _ => None,
            })
    }
}

#[derive(Debug)]
pub struct Pipeline<'a> {
    pub commands: Inline<Command<'a>>,
    pub joined: Joined,
}

/// How a pipeline is joined to the one before it in its and-or list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Joined {
    /// It starts the and-or list.
    First,
    /// It follows `&&`: it runs only when the pipeline before it succeeded.
    And,
    /// It follows `||`: it runs only when the pipeline before it failed.
    Or,
}

#[derive(Debug)]
pub enum Command<'a> {
    Simple(Simple<'a>),
    /// Boxed: compound commands are rare, and every command is moved several
    /// times while its pipeline is read.
    Compound(Box<Compound<'a>>),
    Function(Function<'a>),
}

/// Assignments, words and redirections, as in `A=1 git commit -m x >log`.
#[derive(Debug, Default)]
pub struct Simple<'a> {
    pub assignments: Vec<Assignment<'a>>,
    pub words: Words,
    pub redirects: Vec<Redirect<'a>>,
}

impl<'a> Simple<'a> {
    /// The one redirection of a command that is only `< file`: in `$(< file)`
    /// bash reads the file in place of running a command, as `$(cat file)`.
    pub fn lone_read(&self) -> Option<&Redirect<'a>> {
        let [redirect] = self.redirects.as_slice() else {
            return None;
        };
        let alone = self.assignments.is_empty() && self.words.is_empty();
        (alone && redirect.kind == RedirectKind::Read && redirect.fd == Some(0)).then_some(redirect)
    }
}

#[derive(Debug)]
pub struct Assignment<'a> {
    pub name: &'a str,
    /// `name[index]=value`: the index as written.
    pub index: Option<&'a str>,
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
    pub lists: Vec<List>,
    pub words: Words,
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
    /// The descriptor redirected: the number written before the operator,
    /// else the operator's own (0 for `<`, `<&`, `<<`, `<<<` and `<>`, 1
    /// for the others); `None` for a `{name}` the shell picks.
    pub fd: Option<u32>,
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
    /// Whether unquoted text holds a `{`, so brace expansion may apply.
    brace: bool,
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
    /// `$(…)`: a list that runs, replaced by what it prints.
    Substitution { list: List, quoted: bool },
    /// `<(…)` or `>(…)`: a list that runs, replaced by the name of a file
    /// through which what it prints is read (or what it reads is written).
    ProcessSubstitution { list: List },
    /// `` `…` ``, with the backslashes the backquotes consume removed; it is
    /// read when the command is analysed.
    Backquoted { source: String, quoted: bool },
    /// An expansion whose value cannot be known here (`$((…))`, `${#x}`,
    /// `${x:1:2}`), with any word inside it whose substitutions still run.
    Opaque {
        inner: Option<Box<Word<'a>>>,
        quoted: bool,
    },
}

#[derive(Debug)]
pub enum ParameterOperator<'a> {
    None,
    /// `${!x}`: the value of the variable whose name `x` holds.
    Indirect,
    /// `${x[i]}`: the array's element at an index, arithmetic text (a
    /// variable that is no array is its element 0; a negative index counts
    /// from the end).
    Element(&'a str),
    /// `${x:offset}`, `${x:offset:length}`: part of the value, in
    /// characters, or of the elements for `${x[@]:…}` and `${@:…}`; the
    /// offset and length are arithmetic text.
    Slice {
        offset: &'a str,
        length: Option<&'a str>,
        elements: bool,
    },
    /// `${x:-w}`, `${x-w}`.
    Default(Box<Word<'a>>),
    /// `${x:=w}`, `${x=w}`: the default, also assigned to the variable.
    Assign(Box<Word<'a>>),
    /// `${x:+w}`, `${x+w}`.
    Alternative(Box<Word<'a>>),
    /// `${x#p}` (shortest) and `${x##p}` (longest): the value without a
    /// prefix that matches the pattern.
    RemovePrefix {
        pattern: Box<Word<'a>>,
        longest: bool,
    },
    /// `${x%p}` and `${x%%p}`: the value without a matching suffix.
    RemoveSuffix {
        pattern: Box<Word<'a>>,
        longest: bool,
    },
    /// `${x^}`, `${x^^}`, `${x,}`, `${x,,}`: the first letter or all of
    /// them in upper or lower case.
    Case {
        upper: bool,
        all: bool,
    },
    /// `${x@U}`, `${x@L}`, `${x@u}`, `${x@E}`, `${x@Q}` and kin: the value
    /// transformed as the letter says.
    Transform(char),
    /// `${x/p/r}` and kin: the value with what the pattern matches replaced.
    Replace {
        pattern: Box<Word<'a>>,
        replacement: Box<Word<'a>>,
        at: ReplaceAt,
    },
}

/// Which matches of `${x/p/r}`'s pattern are replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplaceAt {
    /// `${x/p/r}`: the first.
    First,
    /// `${x//p/r}`: every one.
    Every,
    /// `${x/#p/r}`: one at the start.
    Start,
    /// `${x/%p/r}`: one at the end.
    End,
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

impl core::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
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
    /// A word of one piece of text, quoted or not, with no braces to expand.
    fn one_piece(text: &'a str, quoted: bool) -> Self {
        Self {
            parts: Inline::One(Part::Text {
                text: Cow::Borrowed(text),
                quoted,
            }),
            brace: false,
        }
    }

    pub fn parts(&self) -> &[Part<'a>] {
        &self.parts
    }

    fn push(&mut self, part: Part<'a>) {
        self.parts.push(part);
    }

    /// Whether brace expansion may apply to the word.
    pub const fn may_expand_braces(&self) -> bool {
        self.brace
    }

    fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// The word's text when it is one unquoted literal, as reserved words are.
    pub fn as_bare(&self) -> Option<&str> {
        match self.parts() {
            [
                Part::Text {
                    text,
                    quoted: false,
                },
            ] => Some(text),
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
