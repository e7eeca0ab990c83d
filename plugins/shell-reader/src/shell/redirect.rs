//! Redirections and here-documents.

use alloc::borrow::Cow;

use super::parser::{Parser, Result, is_name_byte};
use super::word::Context;
use super::{HereDoc, Redirect, RedirectKind, SyntaxError, Word};

/// A here-document whose body starts after the current line.
pub(super) struct PendingHereDoc<'a> {
    index: usize,
    delimiter: Cow<'a, str>,
    strip_tabs: bool,
    literal: bool,
}

impl<'a> Parser<'a> {
    /// Whether a redirection may start at `byte`, the current one: `&` only
    /// as `&>`, since `&&` and a lone `&` are operators.
    pub(super) fn may_redirect(&self, byte: u8) -> bool {
        match byte {
            b'<' | b'>' | b'{' | b'0'..=b'9' => true,
            b'&' => self.peek_at(1) == Some(b'>'),
            _ => false,
        }
    }

    pub(super) fn redirect(&mut self) -> Result<Option<Redirect<'a>>> {
        if !self.peek().is_some_and(|byte| self.may_redirect(byte)) {
            return Ok(None);
        }
        let start = self.pos;
        while self.peek().is_some_and(|byte| byte.is_ascii_digit()) {
            self.pos += 1;
        }
        if self.pos == start && self.peek() == Some(b'{') {
            let mut at = 1;
            while self.peek_at(at).is_some_and(is_name_byte) {
                at += 1;
            }
            if at > 1 && self.peek_at(at) == Some(b'}') {
                self.pos += at + 1;
            }
        }
        let numbered = self.pos != start;
        let written_fd = self.slice(start, self.pos).parse::<u32>().ok();
        let operator = [
            "&>>", "&>", "<<<", "<<-", "<<", "<>", "<&", ">&", ">>", ">|", "<", ">",
        ]
        .into_iter()
        .find(|operator| self.starts_with(operator) && !(numbered && operator.starts_with('&')));
        let Some(operator) = operator else {
            self.pos = start;
            return Ok(None);
        };
        if matches!(operator, "<" | ">") && self.peek_at(1) == Some(b'(') {
            self.pos = start;
            return Ok(None);
        }
        self.pos += operator.len();
        self.skip_blanks();
        let fd = match (numbered, written_fd) {
            (true, fd) => fd,
            (false, _) if operator.starts_with('<') => Some(0),
            (false, _) => Some(1),
        };
        if operator.starts_with("<<") && operator != "<<<" {
            return self.heredoc(operator == "<<-", fd).map(Some);
        }
        let target = self.word(Context::Normal)?;
        if target.is_empty() {
            return Err(SyntaxError::MissingRedirectTarget);
        }
        let kind = match operator {
            "<" => RedirectKind::Read,
            "<<<" => RedirectKind::HereString,
            ">>" | "&>>" => RedirectKind::Append,
            "<&" | ">&" if is_descriptor(&target) => RedirectKind::Duplicate,
            "<&" => RedirectKind::Read,
            _ => RedirectKind::Write,
        };
        Ok(Some(Redirect { kind, target, fd }))
    }

    pub(super) fn heredoc(&mut self, strip_tabs: bool, fd: Option<u32>) -> Result<Redirect<'a>> {
        let start = self.pos;
        let word = self.word(Context::Normal)?;
        if self.pos == start {
            return Err(SyntaxError::MissingRedirectTarget);
        }
        let raw = self.slice(start, self.pos);
        let literal = raw.contains(['\'', '"', '\\']);
        let delimiter = match word.into_text() {
            Some(text) => text,
            None if literal => Cow::Owned(raw.replace(['\'', '"', '\\'], "")),
            None => Cow::Borrowed(raw),
        };
        let index = self.heredocs.len();
        self.heredocs.push(HereDoc::default());
        self.pending.push(PendingHereDoc {
            index,
            delimiter,
            strip_tabs,
            literal,
        });
        Ok(Redirect {
            kind: RedirectKind::HereDoc(index),
            target: Word::default(),
            fd,
        })
    }

    /// Consumes a newline and reads the here-document bodies it starts.
    pub(super) fn newline(&mut self) -> Result<()> {
        self.pos += 1;
        for doc in core::mem::take(&mut self.pending) {
            let body_start = self.pos;
            let (body_end, next) = self.find_heredoc_end(&doc);
            let body = if doc.literal {
                let mut body = Word::default();
                body.push(super::Part::Text {
                    text: Cow::Borrowed(self.slice(body_start, body_end)),
                    quoted: true,
                });
                body
            } else {
                let outer_end = self.end;
                self.end = body_end;
                let body = self.word(Context::HereDoc);
                self.end = outer_end;
                body?
            };
            self.pos = next;
            if let Some(slot) = self.heredocs.get_mut(doc.index) {
                slot.body = body;
            }
        }
        Ok(())
    }

    /// Where a here-document body ends and where reading resumes after it.
    pub(super) fn find_heredoc_end(&self, doc: &PendingHereDoc<'_>) -> (usize, usize) {
        let mut line_start = self.pos;
        while line_start < self.end {
            let rest = self.slice(line_start, self.end);
            let line_end = rest.find('\n').map_or(self.end, |at| line_start + at);
            let mut line = self.slice(line_start, line_end);
            line = line.strip_suffix('\r').unwrap_or(line);
            if doc.strip_tabs {
                line = line.trim_start_matches('\t');
            }
            if line == doc.delimiter {
                return (line_start, (line_end + 1).min(self.end));
            }
            line_start = line_end + 1;
        }
        (self.end, self.end)
    }
}

fn is_descriptor(word: &Word<'_>) -> bool {
    word.as_bare()
        .is_some_and(|text| text == "-" || text.bytes().all(|byte| byte.is_ascii_digit()))
}
