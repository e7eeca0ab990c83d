//! Words: quoting, escapes and the `$` and backquote expansions.

use alloc::borrow::Cow;

use super::parser::{Parser, is_meta};
use super::{Part, SyntaxError, Word};

type Result<T> = core::result::Result<T, SyntaxError>;

/// Where a word is read, which decides what ends it and what quotes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Context {
    /// A command word: ends at a blank or operator.
    Normal,
    /// The word inside `${name…}`: ends at `}`.
    Brace,
    /// The pattern of `${name/pattern/…}`: ends at `/` or `}`.
    BracePattern,
    /// An unquoted here-document body: quotes are plain text.
    HereDoc,
}

/// Bytes that a word's reader passes over without a decision, by context.
const ORDINARY_IN_WORD: [bool; 256] = ordinary(b"\\'\"$`<>()|&; \t\n{");
/// A command's first word is read as plain text only up to an `=`, which
/// may make it an assignment.
const ORDINARY_IN_FIRST_WORD: [bool; 256] = ordinary(b"\\'\"$`<>()|&; \t\n{=");
const ORDINARY_IN_BRACES: [bool; 256] = ordinary(b"\\'\"$`}{");
const ORDINARY_IN_BRACE_PATTERN: [bool; 256] = ordinary(b"\\'\"$`}{/");
const ORDINARY_IN_HEREDOC: [bool; 256] = ordinary(b"\\$`");
const ORDINARY_IN_DOUBLE_QUOTES: [bool; 256] = ordinary(b"\\\"$`");

/// How many bytes from `start` on `ordinary` passes over. Inlined, so that
/// each caller's loop reads its own table at a fixed address.
#[inline(always)]
fn ordinary_run(ordinary: &[bool; 256], bytes: &[u8], start: usize) -> usize {
    let rest = bytes.get(start..).unwrap_or_default();
    rest.iter()
        .position(|&byte| !ordinary[usize::from(byte)])
        .unwrap_or(rest.len())
}

const fn ordinary(special: &[u8]) -> [bool; 256] {
    let mut table = [true; 256];
    let mut index = 0;
    while index < special.len() {
        table[special[index] as usize] = false;
        index += 1;
    }
    table
}

impl<'a> Parser<'a> {
    /// Reads the plain words that stand next in a simple command, separated
    /// by spaces and tabs, straight into the open words: most command words
    /// are plain, and this loop keeps its position in a local. Stops, with
    /// the blanks before it skipped, at anything it does not read itself:
    /// a quote, an expansion, an operator, a comment, a redirection's
    /// descriptor (`2>`), or a command's first word that may be an assignment.
    pub(super) fn plain_words(&mut self, command_word_read: bool) {
        let bytes = self.src.as_bytes().get(..self.end).unwrap_or_default();
        let mut pos = self.pos;
        let mut first = !command_word_read;
        let blank_at = |at: usize| matches!(bytes.get(at), Some(b' ' | b'\t'));
        loop {
            while blank_at(pos) {
                pos += 1;
            }
            let start = pos;
            if bytes.get(start) == Some(&b'#') {
                break;
            }
            pos += if first {
                ordinary_run(&ORDINARY_IN_FIRST_WORD, bytes, start)
            } else {
                ordinary_run(&ORDINARY_IN_WORD, bytes, start)
            };
            let next = bytes.get(pos);
            if pos == start || !ends_shortcut_word(next) || matches!(next, Some(b'<' | b'>')) {
                pos = start;
                break;
            }
            self.open_words
                .push(Word::one_piece(self.slice(start, pos), false));
            first = false;
        }
        self.pos = pos;
    }

    /// A word that is one single-quoted string, for the plain-pipeline reader;
    /// `None`, with nothing consumed, for any other word.
    pub(super) fn single_quoted_word(&mut self) -> Option<Word<'a>> {
        let rest = self.src.as_bytes().get(self.pos..self.end)?;
        let (&b'\'', quoted) = rest.split_first()? else {
            return None;
        };
        let start = self.pos + 1;
        let length = self.closing_quote(start)?;
        if !ends_shortcut_word(quoted.get(length + 1)) {
            return None;
        }
        self.pos = start + length + 1;
        Some(Word::one_piece(self.slice(start, start + length), true))
    }

    /// Reads one word from the current position; it is empty when the
    /// position holds a blank or an operator.
    pub(super) fn word(&mut self, context: Context) -> Result<Word<'a>> {
        let start = self.pos;
        let quoted = context == Context::HereDoc;
        let mut parts = Word::default();
        let mut literal = self.pos;
        let ordinary = match context {
            Context::Normal => &ORDINARY_IN_WORD,
            Context::Brace => &ORDINARY_IN_BRACES,
            Context::BracePattern => &ORDINARY_IN_BRACE_PATTERN,
            Context::HereDoc => &ORDINARY_IN_HEREDOC,
        };
        loop {
            self.skip_ordinary(ordinary);
            let Some(byte) = self.peek() else { break };
            let special = match byte {
                b'\\' => context != Context::HereDoc || self.heredoc_escape(),
                b'\'' | b'"' => context != Context::HereDoc,
                b'$' | b'`' => true,
                b'<' | b'>' if context == Context::Normal => {
                    if self.pos == start && self.peek_at(1) == Some(b'(') {
                        true
                    } else {
                        break;
                    }
                }
                b'}' if matches!(context, Context::Brace | Context::BracePattern) => break,
                b'/' if context == Context::BracePattern => break,
                b'{' => {
                    parts.brace |= context == Context::Normal;
                    false
                }
                b'(' if context == Context::Normal
                    && self.pos > start
                    && self.after_glob_operator() =>
                {
                    self.skip_parens(0, "(")?;
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

    /// Skips bytes that need no decision in the current context.
    fn skip_ordinary(&mut self, ordinary: &[bool; 256]) {
        let bytes = self.src.as_bytes().get(..self.end).unwrap_or_default();
        self.pos += ordinary_run(ordinary, bytes, self.pos);
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

    /// How far past `start` the single quote that closes a string stands.
    fn closing_quote(&self, start: usize) -> Option<usize> {
        let rest = self.src.as_bytes().get(start..self.end)?;
        rest.iter().position(|&byte| byte == b'\'')
    }

    fn single_quoted(&mut self, parts: &mut Word<'a>) -> Result<()> {
        let start = self.pos + 1;
        let close = self
            .closing_quote(start)
            .ok_or(SyntaxError::Unclosed("single quote"))?;
        parts.push(Part::Text {
            text: Cow::Borrowed(self.slice(start, start + close)),
            quoted: true,
        });
        self.pos = start + close + 1;
        Ok(())
    }

    pub(super) fn double_quoted(&mut self, parts: &mut Word<'a>) -> Result<()> {
        self.pos += 1;
        let had_parts = parts.parts().len();
        let mut literal = self.pos;
        loop {
            self.skip_ordinary(&ORDINARY_IN_DOUBLE_QUOTES);
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
}

/// Whether the byte after a shortcut word's text, if any, ends the word as
/// it would end it in the general loop; `(` may open an extended glob, so
/// it takes that loop.
fn ends_shortcut_word(next: Option<&u8>) -> bool {
    next.is_none_or(|&byte| is_meta(byte) && byte != b'(')
}

pub(super) const fn text(value: &'static str, quoted: bool) -> Part<'static> {
    Part::Text {
        text: Cow::Borrowed(value),
        quoted,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain-pipeline reader's single-quoted words read what the word
    /// reader reads, and stop where it stops; it takes no other word.
    #[test]
    fn single_quoted_words_match_the_word_reader() {
        let sources = [
            "git", "-n", "'a b'", "''", "'x'>f", "'x';y", "'x' y", "'x'(", "a{b", "'x'y", "x'y'",
            "'x", "'a\\'", "'é ü'",
        ];
        for source in sources {
            let (mut shortcut, mut general) = (Parser::new(source), Parser::new(source));
            let Some(read) = shortcut.single_quoted_word() else {
                assert_eq!(shortcut.pos, 0, "{source}");
                continue;
            };
            let expected = general
                .word(Context::Normal)
                .expect("a closed single quote");
            assert_eq!(format!("{read:?}"), format!("{expected:?}"), "{source}");
            assert_eq!(shortcut.pos, general.pos, "{source}");
        }
    }
}
