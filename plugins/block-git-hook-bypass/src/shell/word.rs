//! Words: quoting, escapes and the `$` and backquote expansions.

use std::borrow::Cow;

use super::parser::{Parser, Stop, is_meta};
use super::{ParameterOperator, Part, SyntaxError, Word, ansi_c};

type Result<T> = std::result::Result<T, SyntaxError>;

/// Where a word is read, which decides what ends it and what quotes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Context {
    /// A command word: ends at a blank or operator.
    Normal,
    /// The word inside `${name…}`: ends at `}`.
    Brace,
    /// An unquoted here-document body: quotes are plain text.
    HereDoc,
}

impl<'a> Parser<'a> {
    /// Reads one word from the current position; it is empty when the
    /// position holds a blank or an operator.
    pub(super) fn word(&mut self, context: Context) -> Result<Word<'a>> {
        let start = self.pos;
        let quoted = context == Context::HereDoc;
        let mut parts = Word::default();
        let mut literal = self.pos;
        while let Some(byte) = self.peek() {
            let special = match byte {
                b'\\' => !(context == Context::HereDoc && !self.heredoc_escape()),
                b'\'' | b'"' => context != Context::HereDoc,
                b'$' | b'`' => true,
                b'<' | b'>' if context == Context::Normal => {
                    if self.pos == start && self.peek_at(1) == Some(b'(') {
                        true
                    } else {
                        break;
                    }
                }
                b'}' if context == Context::Brace => break,
                b'(' if context == Context::Normal && self.pos > start && self.after_glob_operator() => {
                    self.skip_balanced_parens()?;
                    continue;
                }
                _ if context == Context::Normal && is_meta(byte) => break,
                _ => false,
            };
            if !special {
                self.pos += 1;
                continue;
            }
            self.flush(&mut parts, literal, quoted);
            match byte {
                b'\\' => self.backslash(&mut parts),
                b'\'' => self.single_quoted(&mut parts)?,
                b'"' => self.double_quoted(&mut parts)?,
                b'$' => self.dollar(&mut parts, quoted, context)?,
                b'`' => self.backquoted(&mut parts, quoted)?,
                _ => self.process_substitution(&mut parts)?,
            }
            literal = self.pos;
        }
        self.flush(&mut parts, literal, quoted);
        Ok(parts)
    }

    fn flush(&self, parts: &mut Word<'a>, from: usize, quoted: bool) {
        if from < self.pos {
            parts.push(Part::Text {
                text: Cow::Borrowed(self.slice(from, self.pos)),
                quoted,
            });
        }
    }

    /// In a here-document only `\$`, `` \` ``, `\\` and `\newline` escape.
    fn heredoc_escape(&self) -> bool {
        matches!(self.peek_at(1), Some(b'$' | b'`' | b'\\' | b'\n'))
    }

    fn after_glob_operator(&self) -> bool {
        self.pos
            .checked_sub(1)
            .and_then(|at| self.src.as_bytes().get(at))
            .is_some_and(|byte| b"@!+*?".contains(byte))
    }

    /// An extended glob's `(…)`, kept as text.
    fn skip_balanced_parens(&mut self) -> Result<()> {
        let mut depth = 0u32;
        while let Some(byte) = self.peek() {
            self.pos += 1;
            match byte {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                _ => {}
            }
        }
        Err(SyntaxError::Unclosed("("))
    }

    /// `\c` quotes `c`; `\newline` disappears; a final `\` stays.
    fn backslash(&mut self, parts: &mut Word<'a>) {
        self.pos += 1;
        let Some(next) = self.peek() else {
            parts.push(text("\\", true));
            return;
        };
        if next == b'\n' {
            self.pos += 1;
            return;
        }
        let width = self.char_width();
        parts.push(Part::Text {
            text: Cow::Borrowed(self.slice(self.pos, self.pos + width)),
            quoted: true,
        });
        self.pos += width;
    }

    /// The byte length of the character at the current position.
    fn char_width(&self) -> usize {
        self.src
            .get(self.pos..)
            .and_then(|rest| rest.chars().next())
            .map_or(1, char::len_utf8)
    }

    fn single_quoted(&mut self, parts: &mut Word<'a>) -> Result<()> {
        let start = self.pos + 1;
        let close = self
            .slice(start, self.end)
            .find('\'')
            .ok_or(SyntaxError::Unclosed("single quote"))?;
        parts.push(Part::Text {
            text: Cow::Borrowed(self.slice(start, start + close)),
            quoted: true,
        });
        self.pos = start + close + 1;
        Ok(())
    }

    fn double_quoted(&mut self, parts: &mut Word<'a>) -> Result<()> {
        self.pos += 1;
        let had_parts = parts.parts().len();
        let mut literal = self.pos;
        loop {
            let byte = self.peek().ok_or(SyntaxError::Unclosed("double quote"))?;
            match byte {
                b'"' => {
                    self.flush(parts, literal, true);
                    self.pos += 1;
                    break;
                }
                b'\\' => match self.peek_at(1) {
                    Some(b'$' | b'`' | b'"' | b'\\') => {
                        self.flush(parts, literal, true);
                        parts.push(Part::Text {
                            text: Cow::Borrowed(self.slice(self.pos + 1, self.pos + 2)),
                            quoted: true,
                        });
                        self.pos += 2;
                        literal = self.pos;
                    }
                    Some(b'\n') => {
                        self.flush(parts, literal, true);
                        self.pos += 2;
                        literal = self.pos;
                    }
                    _ => self.pos += 1,
                },
                b'$' => {
                    self.flush(parts, literal, true);
                    self.dollar(parts, true, Context::Normal)?;
                    literal = self.pos;
                }
                b'`' => {
                    self.flush(parts, literal, true);
                    self.backquoted(parts, true)?;
                    literal = self.pos;
                }
                _ => self.pos += 1,
            }
        }
        if parts.parts().len() == had_parts {
            parts.push(text("", true));
        }
        Ok(())
    }

    fn dollar(&mut self, parts: &mut Word<'a>, quoted: bool, context: Context) -> Result<()> {
        let unquoted = !quoted && context != Context::HereDoc;
        match self.peek_at(1) {
            Some(b'(') if self.peek_at(2) == Some(b'(') => {
                self.pos += 3;
                self.arithmetic_body()?;
                parts.push(Part::Opaque {
                    inner: None,
                    quoted,
                });
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
    fn nested_list(&mut self, opener: &'static str) -> Result<super::List<'a>> {
        self.enter()?;
        let list = self.list(Stop::paren(opener));
        self.leave();
        let list = list?;
        self.pos += 1;
        Ok(list)
    }

    fn process_substitution(&mut self, parts: &mut Word<'a>) -> Result<()> {
        let opener = if self.peek() == Some(b'<') { "<(" } else { ">(" };
        self.pos += 2;
        let list = self.nested_list(opener)?;
        parts.push(Part::Substitution {
            list,
            quoted: false,
        });
        Ok(())
    }

    /// After `${`: a parameter, maybe with a default or alternative.
    fn braced_parameter(&mut self, parts: &mut Word<'a>, quoted: bool) -> Result<()> {
        let mut opaque = false;
        if matches!(self.peek(), Some(b'#' | b'!')) && self.peek_at(1) != Some(b'}') {
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
        if self.starts_with("[@]") || self.starts_with("[*]") {
            self.pos += 3;
        } else if self.peek() == Some(b'[') {
            opaque = true;
        }
        let operator = if self.starts_with(":-") || self.starts_with(":=") {
            self.pos += 2;
            Some(true)
        } else if self.starts_with(":+") {
            self.pos += 2;
            Some(false)
        } else if matches!(self.peek(), Some(b'-' | b'=')) {
            self.pos += 1;
            Some(true)
        } else if self.peek() == Some(b'+') {
            self.pos += 1;
            Some(false)
        } else {
            None
        };
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
            Some(true) => Part::Parameter {
                name,
                quoted,
                operator: ParameterOperator::Default(inner),
            },
            Some(false) => Part::Parameter {
                name,
                quoted,
                operator: ParameterOperator::Alternative(inner),
            },
        });
        Ok(())
    }

    fn ansi_c_quoted(&mut self, parts: &mut Word<'a>) -> Result<()> {
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

    fn backquoted(&mut self, parts: &mut Word<'a>, quoted: bool) -> Result<()> {
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

const fn text(value: &'static str, quoted: bool) -> Part<'static> {
    Part::Text {
        text: Cow::Borrowed(value),
        quoted,
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
            }
        }
    }
    word
}
