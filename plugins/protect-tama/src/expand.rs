//! Word expansion as the shell does it: tildes, parameters with their
//! operators, substitutions (walked, since they run), field splitting of
//! unquoted expansions on `IFS`, and brace lists.

use crate::prelude::*;

use shell_reader::braces;
use shell_reader::field::{Field, UNKNOWN_TEXT};
use shell_reader::shell::{ParameterOperator, Part, Program, Word};
use shell_reader::values::{DEFAULT_IFS, FieldSplitter, Split, change_case, replace, trim};

use crate::walk::{Result, Walker};

/// The words one shell word expands to, built part by part.
struct Words<'o> {
    out: &'o mut Vec<String>,
    current: String,
    /// Whether the current word holds anything, even an empty quoted part.
    started: bool,
    /// Splits unquoted expansions; `None` where the shell does not split
    /// (an assignment's value, a redirection's target).
    splitter: Option<FieldSplitter>,
}

impl Words<'_> {
    fn push(&mut self, text: &str, quoted: bool) {
        if quoted || self.splitter.is_none() {
            self.current.push_str(text);
            self.started = true;
            return;
        }
        for c in text.chars() {
            let started = self.started;
            let split = self
                .splitter
                .as_mut()
                .map(|splitter| splitter.split(c, started));
            match split.unwrap_or(Split::Keep) {
                Split::Keep => {
                    self.current.push(c);
                    self.started = true;
                }
                Split::End => self.end_word(),
                Split::EndEvenEmpty => {
                    self.started = true;
                    self.end_word();
                }
            }
        }
    }

    fn end_word(&mut self) {
        if core::mem::take(&mut self.started) {
            self.out.push(core::mem::take(&mut self.current));
        }
    }
}

impl Walker<'_> {
    /// Walks `walk` in a child shell whose output is read (`$(…)`, `<(…)`,
    /// backquotes): what it prints, when known.
    fn output_of(&mut self, walk: impl FnOnce(&mut Self) -> Result<()>) -> Result<Option<String>> {
        let before = self.pipe_input.take();
        let read_before = core::mem::replace(&mut self.output_read, true);
        let walked = self.in_child(walk);
        self.output_read = read_before;
        walked?;
        Ok(core::mem::replace(&mut self.pipe_input, before))
    }

    /// A word's value as one text, as an assignment or a redirection's
    /// target takes it: unknown parts as [`UNKNOWN_TEXT`].
    pub fn expand(&mut self, program: &Program<'_>, word: &Word<'_>) -> Result<String> {
        if let Some(text) = plain(word) {
            return Ok(String::from(text));
        }
        let mut out = Vec::new();
        let mut words = Words {
            out: &mut out,
            current: String::new(),
            started: false,
            splitter: None,
        };
        self.expand_parts(program, word, &mut words)?;
        Ok(words.current)
    }

    /// The words a command word expands to, pushed onto `out`: unquoted
    /// expansions split on `IFS` (`f="a /b"; rm $f` names two paths), and
    /// brace lists expanded (`/ro{o,}t` names `/root`).
    pub fn expand_words(
        &mut self,
        program: &Program<'_>,
        word: &Word<'_>,
        out: &mut Vec<String>,
    ) -> Result<()> {
        if let Some(text) = plain(word).filter(|_| !word.may_expand_braces()) {
            out.push(String::from(text));
            return Ok(());
        }
        let first_new = out.len();
        let ifs = self.known("IFS");
        let mut words = Words {
            out,
            current: String::new(),
            started: false,
            splitter: Some(FieldSplitter::new(ifs)),
        };
        self.expand_parts(program, word, &mut words)?;
        words.end_word();
        if word.may_expand_braces() {
            let expanded: Vec<String> = out.drain(first_new..).collect();
            for text in expanded {
                let mut fields: Vec<Field<'_>> = Vec::new();
                braces::expand(&text, &mut fields);
                out.extend(fields.into_iter().map(|field| field.text.into_owned()));
            }
        }
        Ok(())
    }

    fn expand_parts(
        &mut self,
        program: &Program<'_>,
        word: &Word<'_>,
        words: &mut Words<'_>,
    ) -> Result<()> {
        for (index, part) in word.parts().iter().enumerate() {
            match part {
                Part::Text { text, quoted } => {
                    if index == 0 && !quoted && text.starts_with('~') {
                        words.push(&tilde(text, self.home()), true);
                    } else {
                        words.push(text, true);
                    }
                }
                Part::Parameter {
                    name,
                    operator,
                    quoted,
                } => {
                    let value = self.parameter(program, name, operator)?;
                    words.push(&value, *quoted);
                }
                Part::Substitution { list, quoted } => {
                    // What the list prints, when known, as the shell puts it
                    // in: trailing newlines dropped (`cp x "$(which tama)"`).
                    let output = self.output_of(|walker| walker.walk_nested(program, *list))?;
                    match output {
                        Some(output) => words.push(output.trim_end_matches('\n'), *quoted),
                        None => words.push(UNKNOWN_TEXT, true),
                    }
                }
                Part::ProcessSubstitution { list } => {
                    // A file that holds what the list prints, when known:
                    // `source <(…)`, `bash <(…)` read it as a script.
                    let output = self.output_of(|walker| walker.walk_nested(program, *list))?;
                    let path = self.process_substitution_file(output);
                    words.push(&path, true);
                }
                Part::Backquoted { source, quoted } => {
                    // As `$(…)`, read from its own text.
                    match self.output_of(|walker| walker.source(source))? {
                        Some(output) => words.push(output.trim_end_matches('\n'), *quoted),
                        None => words.push(UNKNOWN_TEXT, true),
                    }
                }
                Part::Opaque { inner, .. } => {
                    if let Some(inner) = inner {
                        self.expand(program, inner)?;
                    }
                    words.push(UNKNOWN_TEXT, true);
                }
            }
        }
        Ok(())
    }

    /// `${x:offset:length}` of `value`, unknown unless both bounds are.
    fn substring(&self, value: &str, offset: &str, length: Option<&str>) -> String {
        let arithmetic =
            |text: &str| shell_reader::arithmetic::evaluate(text, &|name| self.known(name));
        let length = match length.map(arithmetic) {
            Some(None) => return UNKNOWN_TEXT.to_owned(),
            length => length.flatten(),
        };
        let chars: Vec<char> = value.chars().collect();
        match arithmetic(offset) {
            Some(offset) if !value.contains(shell_reader::field::UNKNOWN) => {
                let (start, end) =
                    shell_reader::values::slice_bounds(chars.len(), offset, length, false)
                        .unwrap_or_default();
                chars[start..end].iter().collect()
            }
            _ => UNKNOWN_TEXT.to_owned(),
        }
    }

    /// `$name` with its operator. A variable the command did not set (but
    /// `HOME`, `TAMA_HOME`, `PWD` and `IFS`) is unknown, except that a
    /// default stands in for it.
    fn parameter(
        &mut self,
        program: &Program<'_>,
        name: &str,
        operator: &ParameterOperator<'_>,
    ) -> Result<String> {
        let value = match name {
            "IFS" => Some(self.known(name).unwrap_or_else(|| DEFAULT_IFS.to_owned())),
            _ => self.known(name),
        };
        Ok(match (value, operator) {
            (Some(value), ParameterOperator::None) => value,
            // Arrays are not kept apart: any element, or any slice of them,
            // is taken as all of them.
            (Some(value), ParameterOperator::Element(_))
            | (Some(value), ParameterOperator::Slice { elements: true, .. }) => value,
            (
                Some(value),
                ParameterOperator::Slice {
                    offset,
                    length,
                    elements: false,
                },
            ) => self.substring(&value, offset, *length),
            (Some(target), ParameterOperator::Indirect) => self
                .known(&target)
                .filter(|_| shell_reader::shell::names_parameter(&target))
                .unwrap_or_else(|| UNKNOWN_TEXT.to_owned()),
            (Some(value), ParameterOperator::Default(_) | ParameterOperator::Assign(_))
                if !value.is_empty() =>
            {
                value
            }
            (_, ParameterOperator::Default(word)) => self.expand(program, word)?,
            (_, ParameterOperator::Assign(word)) => {
                let value = self.expand(program, word)?;
                self.set(name, value.clone());
                value
            }
            (Some(value), ParameterOperator::Alternative(word)) if !value.is_empty() => {
                self.expand(program, word)?
            }
            (Some(_), ParameterOperator::Alternative(_)) => String::new(),
            (Some(value), ParameterOperator::RemovePrefix { pattern, longest }) => {
                let pattern = self.expand(program, pattern)?;
                trim(&value, &pattern, *longest, true)
            }
            (Some(value), ParameterOperator::RemoveSuffix { pattern, longest }) => {
                let pattern = self.expand(program, pattern)?;
                trim(&value, &pattern, *longest, false)
            }
            (Some(value), ParameterOperator::Case { upper, all }) => {
                change_case(&value, *upper, *all)
            }
            (Some(value), ParameterOperator::Transform(operator)) => {
                shell_reader::values::transform(&value, *operator)
                    .unwrap_or_else(|| UNKNOWN_TEXT.to_owned())
            }
            (
                Some(value),
                ParameterOperator::Replace {
                    pattern,
                    replacement,
                    at,
                },
            ) => {
                let pattern = self.expand(program, pattern)?;
                let replacement = self.expand(program, replacement)?;
                replace(&value, &pattern, &replacement, *at)
            }
            (None, _) => UNKNOWN_TEXT.to_owned(),
        })
    }
}

/// The text of a word that is one piece of text the shell leaves as it is:
/// most words are.
fn plain<'w>(word: &'w Word<'_>) -> Option<&'w str> {
    match word.parts() {
        [Part::Text { text, quoted }] if *quoted || !text.starts_with('~') => Some(text),
        _ => None,
    }
}

/// `~` and `~/…` as the home folder; `~+` (the working folder) and `~-`
/// (the one before) as relative paths, which are checked against every
/// folder the walk has been in; other words as they are.
fn tilde(text: &str, home: &str) -> String {
    let ends_name = |rest: &str| rest.is_empty() || rest.starts_with('/');
    match text.strip_prefix('~') {
        Some(rest) if ends_name(rest) => format!("{home}{rest}"),
        Some(rest) if rest.starts_with(['+', '-']) && ends_name(&rest[1..]) => {
            format!(".{}", &rest[1..])
        }
        _ => text.to_owned(),
    }
}
