//! Word expansion: parameters, substitutions (which run), quote removal and
//! field splitting of unquoted expansions.

use crate::prelude::*;

use alloc::borrow::Cow;

use super::{Frame, Result, Walker};
use crate::braces;
use crate::field::{
    ARRAY_SEPARATOR, ARRAY_SEPARATOR_TEXT, Field, Knowledge, UNKNOWN, UNKNOWN_TEXT,
};
use crate::shell::{Command, List, ParameterOperator, Part, Program, Redirect, Word};
use crate::values::{self, DEFAULT_IFS, FieldSplitter, Split, change_case, replace, trim};

/// Collects the fields a word expands to.
struct Fields<'o, 'p> {
    out: &'o mut Vec<Field<'p>>,
    current: Cow<'p, str>,
    started: bool,
    /// What the current field's unknown parts are, if it has any.
    knowledge: Knowledge,
    split: bool,
    splitter: FieldSplitter,
    /// Unknown parts are dropped, as an unset variable expands to nothing.
    unknown_is_empty: bool,
    /// An unknown part was met, dropped or not.
    met_unknown: bool,
}

impl<'p> Fields<'_, 'p> {
    fn push_quoted(&mut self, text: &str) {
        self.current.to_mut().push_str(text);
        self.started = true;
    }

    /// Text from the command itself, borrowed when it starts a field.
    fn push_source(&mut self, text: &'p str) {
        if self.current.is_empty() {
            self.current = Cow::Borrowed(text);
        } else {
            self.current.to_mut().push_str(text);
        }
        self.started = true;
    }

    /// Text from an unquoted expansion: separators end fields.
    fn push_unquoted(&mut self, text: &str) {
        if !self.split {
            self.push_quoted(text);
            return;
        }
        for c in text.chars() {
            match self.splitter.split(c, self.started) {
                Split::Keep => {
                    self.current.to_mut().push(c);
                    self.started = true;
                }
                Split::End => self.end_field(),
                Split::EndEvenEmpty => {
                    self.started = true;
                    self.end_field();
                }
            }
        }
    }

    /// Text from an expansion, which may hold unknown parts the command
    /// computes.
    fn push(&mut self, text: &str, quoted: bool) {
        self.push_from(text, quoted, Knowledge::Computed);
    }

    /// Text from an expansion whose unknown parts are `unknown`.
    fn push_from(&mut self, text: &str, quoted: bool, unknown: Knowledge) {
        if text.contains(UNKNOWN) {
            self.met_unknown = true;
            if self.unknown_is_empty {
                return self.push(&text.replace(UNKNOWN, ""), quoted);
            }
            self.knowledge = self.knowledge.max(unknown);
        }
        if quoted {
            self.push_quoted(text);
        } else {
            self.push_unquoted(text);
        }
    }

    fn end_field(&mut self) {
        if self.started {
            let text = core::mem::take(&mut self.current);
            self.out.push(Field::expanded(text, self.knowledge));
            self.started = false;
            self.knowledge = Knowledge::Known;
        }
    }
}

impl Walker {
    /// Expands a command word into its fields.
    #[inline]
    pub(super) fn expand_into<'p>(
        &mut self,
        frame: &mut Frame<'p>,
        word: &'p Word<'p>,
        out: &mut Vec<Field<'p>>,
    ) -> Result<()> {
        // Most words are one piece of text: their one field is that text.
        if let [Part::Text { text, .. }] = word.parts()
            && !word.may_expand_braces()
        {
            out.push(Field::expanded(Cow::Borrowed(&**text), Knowledge::Known));
            return Ok(());
        }
        self.expand_parts_into(frame, word, out)
    }

    /// Expands a word of several parts, or one brace expansion may apply to.
    fn expand_parts_into<'p>(
        &mut self,
        frame: &mut Frame<'p>,
        word: &'p Word<'p>,
        out: &mut Vec<Field<'p>>,
    ) -> Result<()> {
        let first_new = out.len();
        let mut fields = self.fields(out, true);
        for part in word.parts() {
            self.expand_part(frame, part, &mut fields)?;
        }
        fields.end_field();
        self.met_unknown |= fields.met_unknown;
        if word.may_expand_braces() {
            let new: Vec<Field<'p>> = out.drain(first_new..).collect();
            for field in new {
                braces::expand(&field.text, out);
            }
        }
        Ok(())
    }

    /// Expands a word to one value, as for an assignment or a redirection.
    pub(super) fn expand_joined<'p>(
        &mut self,
        frame: &mut Frame<'p>,
        word: &'p Word<'p>,
    ) -> Result<Field<'p>> {
        let mut out = Vec::with_capacity(1);
        let mut fields = self.fields(&mut out, false);
        for part in word.parts() {
            self.expand_part(frame, part, &mut fields)?;
        }
        self.met_unknown |= fields.met_unknown;
        Ok(Field::expanded(fields.current, fields.knowledge))
    }

    fn fields<'o, 'p>(&self, out: &'o mut Vec<Field<'p>>, split: bool) -> Fields<'o, 'p> {
        Fields {
            out,
            current: Cow::Borrowed(""),
            started: false,
            knowledge: Knowledge::Known,
            split,
            splitter: FieldSplitter::new(self.variable("IFS").map(str::to_owned)),
            unknown_is_empty: self.unknown_is_empty,
            met_unknown: false,
        }
    }

    fn expand_part<'p>(
        &mut self,
        frame: &mut Frame<'p>,
        part: &'p Part<'p>,
        fields: &mut Fields<'_, 'p>,
    ) -> Result<()> {
        match part {
            Part::Text { text, .. } => fields.push_source(text),
            Part::Parameter {
                name: "@",
                quoted: true,
                operator: ParameterOperator::None,
            } => match &self.positional {
                Some(positional) => {
                    for (index, value) in positional.iter().enumerate() {
                        if index > 0 {
                            fields.end_field();
                        }
                        // A caller's word keeps what it was: `"$MSG"` unset
                        // is still the environment's.
                        let unknown = value.knowledge().max(Knowledge::Environment);
                        fields.push_from(&value.text, true, unknown);
                    }
                }
                None => fields.push_from(UNKNOWN_TEXT, true, Knowledge::Environment),
            },
            Part::Parameter {
                name,
                quoted,
                operator,
            } => {
                let value = self.parameter(name);
                // What an unset variable becomes, unless a word of the
                // command's own takes its place.
                let from_environment = matches!(
                    operator,
                    ParameterOperator::None
                        | ParameterOperator::RemovePrefix { .. }
                        | ParameterOperator::RemoveSuffix { .. }
                        | ParameterOperator::Case { .. }
                );
                let unknown = if value.is_none() && from_environment {
                    Knowledge::Environment
                } else {
                    Knowledge::Computed
                };
                let set = value.as_deref().is_some_and(|value| !value.is_empty());
                let value = match operator {
                    ParameterOperator::None => value.unwrap_or_else(|| UNKNOWN_TEXT.to_owned()),
                    ParameterOperator::Element(index) => match (value, self.arithmetic(index)) {
                        (Some(value), Some(index)) => {
                            let elements: Vec<&str> = value.split(ARRAY_SEPARATOR).collect();
                            values::element(&elements, index).to_owned()
                        }
                        // An index the gate cannot follow (`${m[key]}`,
                        // `${a[$i]}` of an unknown `i`) may be any element:
                        // all of them stand for it.
                        (Some(value), None) => value,
                        (None, _) => UNKNOWN_TEXT.to_owned(),
                    },
                    ParameterOperator::Slice {
                        offset,
                        length,
                        elements,
                    } => self
                        .sliced(name, value, offset, *length, *elements)
                        .unwrap_or_else(|| UNKNOWN_TEXT.to_owned()),
                    ParameterOperator::Indirect => value
                        .filter(|target| shell_reader::shell::names_parameter(target))
                        .and_then(|target| self.parameter(&target))
                        .unwrap_or_else(|| UNKNOWN_TEXT.to_owned()),
                    ParameterOperator::Default(word) if !set => {
                        self.expand_joined(frame, word)?.text.into_owned()
                    }
                    ParameterOperator::Assign(word) if !set => {
                        let value = self.expand_joined(frame, word)?.text.into_owned();
                        self.check_assignment(name, &value)?;
                        self.set_variable(name, value.clone());
                        value
                    }
                    ParameterOperator::Default(_) | ParameterOperator::Assign(_) => {
                        value.unwrap_or_default()
                    }
                    ParameterOperator::Alternative(word) if set => {
                        self.expand_joined(frame, word)?.text.into_owned()
                    }
                    ParameterOperator::Alternative(_) => String::new(),
                    ParameterOperator::RemovePrefix { pattern, longest } => {
                        let pattern = self.expand_joined(frame, pattern)?.text.into_owned();
                        value.map_or_else(
                            || UNKNOWN_TEXT.to_owned(),
                            |value| trim(&value, &pattern, *longest, true),
                        )
                    }
                    ParameterOperator::RemoveSuffix { pattern, longest } => {
                        let pattern = self.expand_joined(frame, pattern)?.text.into_owned();
                        value.map_or_else(
                            || UNKNOWN_TEXT.to_owned(),
                            |value| trim(&value, &pattern, *longest, false),
                        )
                    }
                    ParameterOperator::Transform(operator) => value
                        .and_then(|value| values::transform(&value, *operator))
                        .unwrap_or_else(|| UNKNOWN_TEXT.to_owned()),
                    ParameterOperator::Case { upper, all } => value.map_or_else(
                        || UNKNOWN_TEXT.to_owned(),
                        |value| change_case(&value, *upper, *all),
                    ),
                    ParameterOperator::Replace {
                        pattern,
                        replacement,
                        at,
                    } => {
                        let pattern = self.expand_joined(frame, pattern)?.text.into_owned();
                        let replacement = self.expand_joined(frame, replacement)?.text.into_owned();
                        value.map_or_else(
                            || UNKNOWN_TEXT.to_owned(),
                            |value| replace(&value, &pattern, &replacement, *at),
                        )
                    }
                };
                if !value.contains(ARRAY_SEPARATOR) {
                    fields.push_from(&value, *quoted, unknown);
                } else if *quoted && fields.split {
                    for (index, element) in value.split(ARRAY_SEPARATOR).enumerate() {
                        if index > 0 {
                            fields.end_field();
                        }
                        fields.push(element, true);
                    }
                } else {
                    fields.push(&value.replace(ARRAY_SEPARATOR, " "), *quoted);
                }
            }
            Part::Substitution { list, quoted } => {
                let output = self.substitution(frame, *list)?;
                fields.push(&output, *quoted);
            }
            Part::ProcessSubstitution { list } => {
                // A file that holds what the list prints: `source <(…)`,
                // `bash <(…)` read it as a script.
                let output = self.substitution(frame, *list)?;
                let open = self.written_files.iter();
                let path = format!(
                    "/dev/fd/{}",
                    63 + open.filter(|(p, _)| p.starts_with("/dev/fd/")).count()
                );
                self.written_files.push((path.clone(), output));
                fields.push(&path, true);
            }
            Part::Backquoted { source, quoted } => {
                let output = self.child_source(source, None)?;
                fields.push(&substitution_value(output), *quoted);
            }
            Part::Opaque { inner, quoted } => {
                if let Some(inner) = inner {
                    self.expand_joined(frame, inner)?;
                }
                fields.push(UNKNOWN_TEXT, *quoted);
            }
        }
        Ok(())
    }

    /// Runs a `$(…)` list in a subshell and returns its output.
    fn substitution(&mut self, frame: &mut Frame<'_>, list: List) -> Result<String> {
        if let Some(file) = read_alone(frame.program, list) {
            // `$(< file)`: bash reads the file in place of running a command.
            let path = self.expand_joined(frame, &file.target)?;
            return Ok(substitution_value(
                self.file_text(&path.text).map(str::to_owned),
            ));
        }
        let saved = self.snapshot();
        let output = self.list(frame, list);
        self.restore(saved);
        Ok(substitution_value(output?))
    }

    /// The value of arithmetic `text` over the shell's variables.
    fn arithmetic(&self, text: &str) -> Option<i64> {
        shell_reader::arithmetic::evaluate(text, &|name| self.parameter(name))
    }

    /// `${name:offset:length}` of `value`: its characters, or its elements
    /// (`${a[@]:1}`; `${@:1}` counts `$0` as element 0), when the bounds
    /// are known. An expansion bash stops at is empty: the command runs not.
    fn sliced(
        &self,
        name: &str,
        value: Option<String>,
        offset: &str,
        length: Option<&str>,
        elements: bool,
    ) -> Option<String> {
        let offset = self.arithmetic(offset)?;
        let length = match length {
            Some(length) => Some(self.arithmetic(length)?),
            None => None,
        };
        if !elements {
            let chars: Vec<char> = value
                .filter(|value| !value.contains(UNKNOWN))?
                .chars()
                .collect();
            let (start, end) =
                values::slice_bounds(chars.len(), offset, length, false).unwrap_or_default();
            return Some(chars[start..end].iter().collect());
        }
        let listed: Vec<String> = if matches!(name, "@" | "*") {
            let positional = self.positional.as_ref()?;
            core::iter::once(self.arg0.clone().unwrap_or_else(|| UNKNOWN_TEXT.to_owned()))
                .chain(positional.iter().map(|field| field.text.to_string()))
                .collect()
        } else {
            value?.split(ARRAY_SEPARATOR).map(str::to_owned).collect()
        };
        let (start, end) =
            values::slice_bounds(listed.len(), offset, length, true).unwrap_or_default();
        Some(listed[start..end].join(ARRAY_SEPARATOR_TEXT))
    }

    fn parameter(&self, name: &str) -> Option<String> {
        match name {
            "@" | "*" => self.positional.as_ref().map(|positional| {
                let values: Vec<&str> = positional.iter().map(|field| &*field.text).collect();
                values.join(" ")
            }),
            "0" => self.arg0.clone(),
            "#" => self
                .positional
                .as_ref()
                .map(|positional| positional.len().to_string()),
            _ if name.bytes().all(|byte| byte.is_ascii_digit()) => {
                let index: usize = name.parse().ok()?;
                let positional = self.positional.as_ref()?;
                Some(
                    index
                        .checked_sub(1)
                        .and_then(|index| positional.get(index))
                        .map(|field| field.text.to_string())
                        .unwrap_or_default(),
                )
            }
            "IFS" => Some(self.variable(name).unwrap_or(DEFAULT_IFS).to_owned()),
            _ => self.variable(name).map(str::to_owned),
        }
    }
}

/// The one redirection of `list` when it is a lone `< file` (`$(< file)`).
fn read_alone<'p>(program: &'p Program<'p>, list: List) -> Option<&'p Redirect<'p>> {
    let [pipeline] = program.pipelines(list) else {
        return None;
    };
    let [Command::Simple(simple)] = &pipeline.commands[..] else {
        return None;
    };
    simple.lone_read()
}

/// A substitution's value: its output without trailing newlines.
fn substitution_value(output: Option<String>) -> String {
    match output {
        Some(mut text) => {
            let kept = text.trim_end_matches('\n').len();
            text.truncate(kept);
            text
        }
        None => UNKNOWN_TEXT.to_owned(),
    }
}
