//! The expansions a `$` or a backquote starts: parameters, command and
//! process substitutions, arithmetic, and ANSI-C quoting.

use crate::prelude::*;

use super::parser::{Parser, Result, Stop, is_name_byte};
use super::word::{Context, text};
use super::{ParameterOperator, Part, ReplaceAt, SyntaxError, Word, ansi_c};

impl<'a> Parser<'a> {
    pub(super) fn dollar(
        &mut self,
        parts: &mut Word<'a>,
        quoted: bool,
        context: Context,
    ) -> Result<()> {
        let unquoted = !quoted && context != Context::HereDoc;
        match self.peek_at(1) {
            Some(b'(') if self.peek_at(2) == Some(b'(') => {
                self.pos += 3;
                // Its substitutions run when it is evaluated: `$(( $(cmd) ))`.
                let inner = self.arithmetic_word(2, "((")?.map(Box::new);
                parts.push(Part::Opaque { inner, quoted });
            }
            Some(b'(') => {
                self.pos += 2;
                let list = self.nested_list("$(")?;
                parts.push(Part::Substitution { list, quoted });
            }
            Some(b'{') => {
                self.pos += 2;
                self.enter()?;
                let parameter = self.braced_parameter(parts, quoted);
                self.leave();
                parameter?;
            }
            Some(b'\'') if unquoted => {
                self.pos += 1;
                self.ansi_c_quoted(parts)?;
            }
            Some(b'"') if unquoted => {
                self.pos += 1;
                self.double_quoted(parts)?;
            }
            Some(byte) if byte.is_ascii_alphabetic() || byte == b'_' => {
                let start = self.pos + 1;
                self.pos = start;
                while self
                    .peek()
                    .is_some_and(|byte| byte.is_ascii_alphanumeric() || byte == b'_')
                {
                    self.pos += 1;
                }
                parts.push(Part::Parameter {
                    name: self.slice(start, self.pos),
                    quoted,
                    operator: ParameterOperator::None,
                });
            }
            Some(byte) if byte.is_ascii_digit() || b"@*#?$!-".contains(&byte) => {
                parts.push(Part::Parameter {
                    name: self.slice(self.pos + 1, self.pos + 2),
                    quoted,
                    operator: ParameterOperator::None,
                });
                self.pos += 2;
            }
            _ => {
                parts.push(text("$", quoted));
                self.pos += 1;
            }
        }
        Ok(())
    }

    /// A list up to its closing `)`, which is consumed.
    pub(super) fn nested_list(&mut self, opener: &'static str) -> Result<super::List> {
        self.enter()?;
        let list = self.list(Stop::paren(opener));
        self.leave();
        let list = list?;
        self.pos += 1;
        Ok(list)
    }

    pub(super) fn process_substitution(&mut self, parts: &mut Word<'a>) -> Result<()> {
        let opener = if self.peek() == Some(b'<') {
            "<("
        } else {
            ">("
        };
        self.pos += 2;
        let list = self.nested_list(opener)?;
        parts.push(Part::ProcessSubstitution { list });
        Ok(())
    }

    /// After `${`: a parameter, maybe with a default, an assigned default,
    /// an alternative, a trimmed affix or a changed case.
    pub(super) fn braced_parameter(&mut self, parts: &mut Word<'a>, quoted: bool) -> Result<()> {
        let mut opaque = false;
        let mut indirect = false;
        if matches!(self.peek(), Some(b'#' | b'!')) && self.peek_at(1) != Some(b'}') {
            indirect = self.peek() == Some(b'!');
            opaque = true;
            self.pos += 1;
        }
        let start = self.pos;
        match self.peek() {
            Some(byte) if byte.is_ascii_alphabetic() || byte == b'_' => {
                while self
                    .peek()
                    .is_some_and(|byte| byte.is_ascii_alphanumeric() || byte == b'_')
                {
                    self.pos += 1;
                }
            }
            Some(byte) if byte.is_ascii_digit() => {
                while self.peek().is_some_and(|byte| byte.is_ascii_digit()) {
                    self.pos += 1;
                }
            }
            Some(byte) if b"@*#?$!-".contains(&byte) => self.pos += 1,
            _ => opaque = true,
        }
        let name = self.slice(start, self.pos);
        // `${!x}` alone; `${!x*}`, `${!x[@]}` and `${!x:-w}` stay unknown.
        let plain =
            |name: &str| name == "#" || (!name.is_empty() && name.bytes().all(is_name_byte));
        if indirect && plain(name) && self.peek() == Some(b'}') {
            self.pos += 1;
            parts.push(Part::Parameter {
                name,
                quoted,
                operator: ParameterOperator::Indirect,
            });
            return Ok(());
        }
        let mut elements = matches!(name, "@" | "*");
        if self.starts_with("[@]") || self.starts_with("[*]") {
            self.pos += 3;
            elements = true;
        } else if self.peek() == Some(b'[') {
            if !opaque && let Some(index) = self.element_index() {
                parts.push(Part::Parameter {
                    name,
                    quoted,
                    operator: ParameterOperator::Element(index),
                });
                return Ok(());
            }
            opaque = true;
        }
        if !opaque && let Some(operator) = self.slice_operator(elements) {
            parts.push(Part::Parameter {
                name,
                quoted,
                operator,
            });
            return Ok(());
        }
        if !opaque && let Some(operator) = self.trimming_operator(quoted)? {
            parts.push(Part::Parameter {
                name,
                quoted,
                operator,
            });
            return Ok(());
        }
        let colon = usize::from(self.peek() == Some(b':'));
        let operator = match self.peek_at(colon) {
            Some(b'-') => Some(Operator::Default),
            Some(b'=') => Some(Operator::Assign),
            Some(b'+') => Some(Operator::Alternative),
            _ => None,
        };
        if operator.is_some() {
            self.pos += colon + 1;
        }
        let inner = self.word(Context::Brace)?;
        if self.peek() != Some(b'}') {
            return Err(SyntaxError::Unclosed("${"));
        }
        self.pos += 1;
        let inner = Box::new(mark_quoted(inner, quoted));
        parts.push(match operator {
            _ if opaque => Part::Opaque {
                inner: Some(inner),
                quoted,
            },
            None if inner.is_empty() => Part::Parameter {
                name,
                quoted,
                operator: ParameterOperator::None,
            },
            None => Part::Opaque {
                inner: Some(inner),
                quoted,
            },
            Some(Operator::Default) => Part::Parameter {
                name,
                quoted,
                operator: ParameterOperator::Default(inner),
            },
            Some(Operator::Assign) => Part::Parameter {
                name,
                quoted,
                operator: ParameterOperator::Assign(inner),
            },
            Some(Operator::Alternative) => Part::Parameter {
                name,
                quoted,
                operator: ParameterOperator::Alternative(inner),
            },
        });
        Ok(())
    }

    /// `[index]}`, read up to and with the closing brace, when the index
    /// is arithmetic the gate can follow (`[1]`, `[i+1]`, `[$i]`); `None`,
    /// having read nothing, for anything else (`[$(…)]`, `[0]:-w}`).
    fn element_index(&mut self) -> Option<&'a str> {
        let (index, end) = self.arithmetic_text(self.pos + 1, b"]")?;
        if self.src.as_bytes().get(end + 1) != Some(&b'}') || index.trim().is_empty() {
            return None;
        }
        self.pos = end + 2;
        Some(index)
    }

    /// `:offset}` or `:offset:length}` after a parameter, read up to and
    /// with the closing brace, when both are arithmetic the gate can follow;
    /// `None`, having read nothing, for anything else (`:-w`, `:=w`).
    fn slice_operator(&mut self, elements: bool) -> Option<ParameterOperator<'a>> {
        if self.peek() != Some(b':') || matches!(self.peek_at(1), Some(b'-' | b'=' | b'+' | b'?')) {
            return None;
        }
        let (offset, end) = self.arithmetic_text(self.pos + 1, b":}")?;
        let (length, end) = match self.src.as_bytes().get(end) {
            Some(b':') => {
                let (length, end) = self.arithmetic_text(end + 1, b"}")?;
                (Some(length), end)
            }
            _ => (None, end),
        };
        self.pos = end + 1;
        Some(ParameterOperator::Slice {
            offset,
            length,
            elements,
        })
    }

    /// The text from `start` up to the first of `ends`, and where that end
    /// is, when it holds only what [`crate::arithmetic`] follows.
    fn arithmetic_text(&self, start: usize, ends: &[u8]) -> Option<(&'a str, usize)> {
        let bytes = self.src.as_bytes().get(start..self.end)?;
        let end = start + bytes.iter().position(|b| ends.contains(b))?;
        let text = self.slice(start, end);
        let followed = text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b" \t_$+-*/%()".contains(&b))
            && !text.contains("$(");
        followed.then_some((text, end))
    }

    /// `#p`, `##p`, `%p`, `%%p`, `^`, `^^`, `,`, `,,` or `@L` and the closing
    /// brace, after a parameter's name; `None`, having read nothing, for
    /// any other operator.
    fn trimming_operator(&mut self, quoted: bool) -> Result<Option<ParameterOperator<'a>>> {
        if self.peek() == Some(b'@')
            && let Some(letter) = self.peek_at(1).filter(u8::is_ascii_alphabetic)
            && self.peek_at(2) == Some(b'}')
        {
            self.pos += 3;
            return Ok(Some(ParameterOperator::Transform(char::from(letter))));
        }
        let Some(first) = self.peek().filter(|byte| b"#%^,/".contains(byte)) else {
            return Ok(None);
        };
        if first == b'/' {
            return self.replacement(quoted).map(Some);
        }
        let doubled = self.peek_at(1) == Some(first);
        if matches!(first, b'^' | b',') {
            let end = 1 + usize::from(doubled);
            if self.peek_at(end) != Some(b'}') {
                // A pattern after a case operator is not modelled.
                return Ok(None);
            }
            self.pos += end + 1;
            return Ok(Some(ParameterOperator::Case {
                upper: first == b'^',
                all: doubled,
            }));
        }
        self.pos += 1 + usize::from(doubled);
        let pattern = self.word(Context::Brace)?;
        if self.peek() != Some(b'}') {
            return Err(SyntaxError::Unclosed("${"));
        }
        self.pos += 1;
        let pattern = Box::new(mark_quoted(pattern, quoted));
        Ok(Some(if first == b'#' {
            ParameterOperator::RemovePrefix {
                pattern,
                longest: doubled,
            }
        } else {
            ParameterOperator::RemoveSuffix {
                pattern,
                longest: doubled,
            }
        }))
    }

    /// `/p/r}`, `//p/r}`, `/#p/r}` or `/%p/r}` after a parameter's name;
    /// the replacement and its `/` may be left out.
    fn replacement(&mut self, quoted: bool) -> Result<ParameterOperator<'a>> {
        let at = match self.peek_at(1) {
            Some(b'/') => ReplaceAt::Every,
            Some(b'#') => ReplaceAt::Start,
            Some(b'%') => ReplaceAt::End,
            _ => ReplaceAt::First,
        };
        self.pos += if at == ReplaceAt::First { 1 } else { 2 };
        let pattern = self.word(Context::BracePattern)?;
        let replacement = if self.peek() == Some(b'/') {
            self.pos += 1;
            self.word(Context::Brace)?
        } else {
            Word::default()
        };
        if self.peek() != Some(b'}') {
            return Err(SyntaxError::Unclosed("${"));
        }
        self.pos += 1;
        Ok(ParameterOperator::Replace {
            pattern: Box::new(mark_quoted(pattern, quoted)),
            replacement: Box::new(mark_quoted(replacement, quoted)),
            at,
        })
    }

    pub(super) fn ansi_c_quoted(&mut self, parts: &mut Word<'a>) -> Result<()> {
        let start = self.pos + 1;
        let mut at = start;
        loop {
            match self.src.as_bytes().get(at) {
                _ if at >= self.end => return Err(SyntaxError::Unclosed("$' quote")),
                Some(b'\\') => at += 2,
                Some(b'\'') => break,
                Some(_) => at += 1,
                None => return Err(SyntaxError::Unclosed("$' quote")),
            }
        }
        parts.push(Part::Text {
            text: ansi_c::decode(self.slice(start, at)),
            quoted: true,
        });
        self.pos = at + 1;
        Ok(())
    }

    pub(super) fn backquoted(&mut self, parts: &mut Word<'a>, quoted: bool) -> Result<()> {
        self.pos += 1;
        let mut source = Vec::new();
        loop {
            let byte = self.peek().ok_or(SyntaxError::Unclosed("backquote"))?;
            self.pos += 1;
            match byte {
                b'`' => break,
                b'\\' => match self.peek() {
                    Some(next @ (b'$' | b'`' | b'\\')) => {
                        source.push(next);
                        self.pos += 1;
                    }
                    Some(b'"') if quoted => {
                        source.push(b'"');
                        self.pos += 1;
                    }
                    Some(b'\n') => self.pos += 1,
                    _ => source.push(b'\\'),
                },
                _ => source.push(byte),
            }
        }
        let source = String::from_utf8(source)
            .unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned());
        parts.push(Part::Backquoted { source, quoted });
        Ok(())
    }
}

/// Marks a word found inside double quotes as quoted throughout.
fn mark_quoted(mut word: Word<'_>, quoted: bool) -> Word<'_> {
    if quoted {
        for part in word.parts.as_mut_slice() {
            match part {
                Part::Text { quoted, .. }
                | Part::Parameter { quoted, .. }
                | Part::Substitution { quoted, .. }
                | Part::Backquoted { quoted, .. }
                | Part::Opaque { quoted, .. } => *quoted = true,
                Part::ProcessSubstitution { .. } => {}
            }
        }
    }
    word
}

/// Which of `-`, `=` and `+` follows a parameter's name.
enum Operator {
    Default,
    Assign,
    Alternative,
}
