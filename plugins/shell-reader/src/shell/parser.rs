//! Lists, pipelines and commands. Words are read in `word.rs`.

use crate::prelude::*;

use super::redirect::PendingHereDoc;
use super::word::Context;
use super::{
    AssignedValue, Assignment, Command, HereDoc, Inline, Joined, List, Pipeline, Program, Simple,
    Span, SyntaxError, Word, Words,
};

pub(super) type Result<T> = core::result::Result<T, SyntaxError>;

/// How deep commands and substitutions may nest before the reader gives up.
const MAX_DEPTH: u32 = 64;

/// The most arena entries reserved up front, however long the command.
const ARENA_RESERVE_BOUND: usize = 4096;

/// Reads `source` as a shell program.
pub fn parse(source: &str) -> Result<Program<'_>> {
    let mut parser = Parser::new(source);
    let list = parser.list(Stop::END)?;
    let defines_functions = parser.pipelines.iter().any(|pipeline| {
        pipeline
            .commands
            .iter()
            .any(|command| matches!(command, Command::Function(_)))
    });
    Ok(Program {
        list,
        pipelines: parser.pipelines,
        words: parser.words,
        heredocs: parser.heredocs,
        defines_functions,
    })
}

pub(super) struct Parser<'a> {
    pub(super) src: &'a str,
    pub(super) pos: usize,
    /// Where reading stops: the source's end, or a here-document body's.
    pub(super) end: usize,
    pub(super) depth: u32,
    pub(super) pending: Vec<PendingHereDoc<'a>>,
    pub(super) heredocs: Vec<HereDoc<'a>>,
    pipelines: Vec<Pipeline<'a>>,
    words: Vec<Word<'a>>,
    /// Pipelines and words of the lists and commands being read, moved to
    /// the arenas above when each is complete.
    open_pipelines: Vec<Pipeline<'a>>,
    pub(super) open_words: Vec<Word<'a>>,
}

/// What ends a list besides its separators.
#[derive(Clone, Copy)]
pub(super) struct Stop {
    keywords: &'static [&'static str],
    paren: bool,
    case_arm: bool,
    end_of_input: bool,
    /// The construct left open when the input ends first.
    opener: &'static str,
}

impl Stop {
    const END: Self = Self::keywords(&[], "");

    pub(super) const fn keywords(keywords: &'static [&'static str], opener: &'static str) -> Self {
        Self {
            keywords,
            paren: false,
            case_arm: false,
            end_of_input: opener.is_empty(),
            opener,
        }
    }

    /// The list of one `case` arm, which `;;` also ends.
    pub(super) const fn case_arm() -> Self {
        Self {
            case_arm: true,
            ..Self::keywords(&["esac"], "case")
        }
    }

    pub(super) const fn paren(opener: &'static str) -> Self {
        Self {
            paren: true,
            ..Self::keywords(&[], opener)
        }
    }
}

pub(super) const fn is_meta(byte: u8) -> bool {
    matches!(
        byte,
        b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'<' | b'>' | b'(' | b')'
    )
}

const fn is_name_start(byte: u8) -> bool {
    byte.is_ascii_alphabetic() || byte == b'_'
}

pub(super) const fn is_name_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

/// Whether `text` names a variable or a positional parameter, as the value
/// of `${!x}` must.
pub fn names_parameter(text: &str) -> bool {
    is_variable_name(text) || (!text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit()))
}

/// Whether `text` is a name the shell can assign and export.
pub fn is_variable_name(text: &str) -> bool {
    match text.as_bytes() {
        [first, rest @ ..] => is_name_start(*first) && rest.iter().all(|&byte| is_name_byte(byte)),
        [] => false,
    }
}

/// Whether the byte after a reserved word, if any, ends it.
fn ends_keyword(next: Option<u8>) -> bool {
    next.is_none_or(|byte| is_meta(byte) || byte == b'\r')
}

/// Moves the items of `open` from `base` on to the end of `arena`. Most
/// lists and commands are not inside another's words, so all of `open` goes
/// in one copy rather than item by item.
fn move_from<T>(open: &mut Vec<T>, base: usize, arena: &mut Vec<T>) {
    if base == 0 {
        arena.append(open);
    } else {
        arena.extend(open.drain(base.min(open.len())..));
    }
}

impl<'a> Parser<'a> {
    pub(super) fn new(src: &'a str) -> Self {
        // Typical commands hold a word per 8 bytes and a pipeline per 32:
        // reserving that once spares the arenas their repeated growth.
        let expected = |bytes_each: usize| (src.len() / bytes_each).min(ARENA_RESERVE_BOUND);
        Self {
            src,
            pos: 0,
            end: src.len(),
            depth: 0,
            pending: Vec::new(),
            heredocs: Vec::new(),
            pipelines: Vec::with_capacity(expected(32)),
            words: Vec::with_capacity(expected(8)),
            open_pipelines: Vec::with_capacity(expected(64)),
            open_words: Vec::with_capacity(16),
        }
    }

    /// Moves the pipelines read since `base` into the arena, as one list.
    fn close_list(&mut self, base: usize) -> List {
        let start = self.pipelines.len();
        move_from(&mut self.open_pipelines, base, &mut self.pipelines);
        Span::new(start, self.pipelines.len())
    }

    /// Moves the words read since `base` into the arena.
    pub(super) fn close_words(&mut self, base: usize) -> Words {
        let start = self.words.len();
        move_from(&mut self.open_words, base, &mut self.words);
        Span::new(start, self.words.len())
    }

    pub(super) fn peek(&self) -> Option<u8> {
        self.peek_at(0)
    }

    pub(super) fn peek_at(&self, offset: usize) -> Option<u8> {
        let at = self.pos + offset;
        if at < self.end {
            self.src.as_bytes().get(at).copied()
        } else {
            None
        }
    }

    pub(super) fn starts_with(&self, text: &str) -> bool {
        self.src
            .as_bytes()
            .get(self.pos..self.end)
            .is_some_and(|rest| rest.starts_with(text.as_bytes()))
    }

    /// The source between two byte offsets, both on ASCII boundaries.
    pub(super) fn slice(&self, from: usize, to: usize) -> &'a str {
        self.src.get(from..to).unwrap_or("")
    }

    pub(super) fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(SyntaxError::TooDeep);
        }
        Ok(())
    }

    pub(super) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Skips spaces, tabs and line continuations. Mostly there are none:
    /// checking first spares the loop, whose every entry checks the call's
    /// time bound inside the sandbox.
    #[inline]
    pub(super) fn skip_blanks(&mut self) {
        if matches!(self.peek(), Some(b' ' | b'\t' | b'\\')) {
            self.skip_blank_run();
        }
    }

    fn skip_blank_run(&mut self) {
        loop {
            match self.peek() {
                Some(b' ' | b'\t') => self.pos += 1,
                Some(b'\\') if self.peek_at(1) == Some(b'\n') => self.pos += 2,
                _ => return,
            }
        }
    }

    pub(super) fn skip_comment(&mut self) {
        if self.peek() == Some(b'#') {
            while self.peek().is_some_and(|byte| byte != b'\n') {
                self.pos += 1;
            }
        }
    }

    /// Skips blanks, comments and newlines, as after `&&` or `|`. Mostly
    /// there are only blanks.
    #[inline]
    pub(super) fn skip_linebreaks(&mut self) -> Result<()> {
        self.skip_blanks();
        if matches!(self.peek(), Some(b'#' | b'\n')) {
            self.skip_linebreak_run()?;
        }
        Ok(())
    }

    fn skip_linebreak_run(&mut self) -> Result<()> {
        loop {
            self.skip_blanks();
            self.skip_comment();
            if self.peek() != Some(b'\n') {
                return Ok(());
            }
            self.newline()?;
        }
    }

    /// Skips what separates commands of a list: `;`, `&`, newlines, comments.
    pub(super) fn skip_separators(&mut self) -> Result<()> {
        loop {
            if !self.peek().is_some_and(|byte| {
                matches!(byte, b' ' | b'\t' | b'\\' | b'#' | b'\n' | b';' | b'&')
            }) {
                return Ok(());
            }
            self.skip_blanks();
            self.skip_comment();
            match (self.peek(), self.peek_at(1)) {
                (Some(b'\n'), _) => self.newline()?,
                (Some(b';'), next) if !matches!(next, Some(b';' | b'&')) => self.pos += 1,
                (Some(b'&'), next) if !matches!(next, Some(b'&' | b'>')) => self.pos += 1,
                _ => return Ok(()),
            }
        }
    }

    /// Whether a reserved word starts here and ends at a delimiter.
    pub(super) fn at_keyword(&self, keyword: &str) -> bool {
        self.starts_with(keyword) && ends_keyword(self.peek_at(keyword.len()))
    }

    /// The reserved word that starts here and ends at a delimiter, matched
    /// as byte patterns, which compile to a few compares rather than a call
    /// to `memcmp` per candidate.
    #[rustfmt::skip]
    fn peek_keyword(&self) -> Option<&'static str> {
        let rest = self.src.as_bytes().get(self.pos..self.end)?;
        let keyword = match rest {
            [b'i', b'f', ..] => "if",
            [b't', b'h', b'e', b'n', ..] => "then",
            [b't', b'i', b'm', b'e', ..] => "time",
            [b'e', b'l', b'i', b'f', ..] => "elif",
            [b'e', b'l', b's', b'e', ..] => "else",
            [b'e', b's', b'a', b'c', ..] => "esac",
            [b'f', b'i', ..] => "fi",
            [b'f', b'o', b'r', ..] => "for",
            [b'f', b'u', b'n', b'c', b't', b'i', b'o', b'n', ..] => "function",
            [b'w', b'h', b'i', b'l', b'e', ..] => "while",
            [b'u', b'n', b't', b'i', b'l', ..] => "until",
            [b'd', b'o', b'n', b'e', ..] => "done",
            [b'd', b'o', ..] => "do",
            [b's', b'e', b'l', b'e', b'c', b't', ..] => "select",
            [b'c', b'a', b's', b'e', ..] => "case",
            [b'c', b'o', b'p', b'r', b'o', b'c', ..] => "coproc",
            [b'{', ..] => "{",
            [b'}', ..] => "}",
            [b'!', ..] => "!",
            [b'[', b'[', ..] => "[[",
            _ => return None,
        };
        ends_keyword(rest.get(keyword.len()).copied()).then_some(keyword)
    }

    pub(super) fn eat_keyword(&mut self, keyword: &str) -> bool {
        let found = self.at_keyword(keyword);
        if found {
            self.pos += keyword.len();
        }
        found
    }

    pub(super) fn expect_keyword(
        &mut self,
        keyword: &'static str,
        opener: &'static str,
    ) -> Result<()> {
        self.skip_blanks();
        if self.eat_keyword(keyword) {
            Ok(())
        } else {
            Err(self.unexpected(opener))
        }
    }

    /// The error for what stands at the current position.
    pub(super) fn unexpected(&self, opener: &'static str) -> SyntaxError {
        match self.peek() {
            None if opener.is_empty() => SyntaxError::Incomplete,
            None => SyntaxError::Unclosed(opener),
            Some(_) => {
                let rest = self.slice(self.pos, self.end);
                let token: String = rest
                    .split(|c: char| c.is_whitespace())
                    .next()
                    .unwrap_or("")
                    .chars()
                    .take(20)
                    .collect();
                SyntaxError::Unexpected(token)
            }
        }
    }

    pub(super) fn list(&mut self, stop: Stop) -> Result<List> {
        let base = self.open_pipelines.len();
        loop {
            self.skip_separators()?;
            match (self.peek(), self.peek_at(1)) {
                (None, _) if stop.end_of_input => return Ok(self.close_list(base)),
                (None, _) => return Err(SyntaxError::Unclosed(stop.opener)),
                (Some(b')'), _) if stop.paren => return Ok(self.close_list(base)),
                (Some(b';'), Some(b';' | b'&')) if stop.case_arm => {
                    return Ok(self.close_list(base));
                }
                (Some(b')' | b';' | b'&' | b'|'), _) => return Err(self.unexpected("")),
                _ => {}
            }
            if !stop.keywords.is_empty()
                && self
                    .peek_keyword()
                    .is_some_and(|keyword| stop.keywords.contains(&keyword))
            {
                return Ok(self.close_list(base));
            }
            self.and_or()?;
            self.skip_blanks();
            if self.peek() == Some(b'(') {
                return Err(self.unexpected(""));
            }
        }
    }

    fn and_or(&mut self) -> Result<()> {
        let mut joined = Joined::First;
        loop {
            self.pipeline()?;
            if let Some(pipeline) = self.open_pipelines.last_mut() {
                pipeline.joined = joined;
            }
            self.skip_blanks();
            joined = if self.starts_with("&&") {
                Joined::And
            } else if self.starts_with("||") {
                Joined::Or
            } else {
                return Ok(());
            };
            self.pos += 2;
            self.skip_linebreaks()?;
        }
    }

    /// Reads a pipeline onto the open pipelines.
    fn pipeline(&mut self) -> Result<()> {
        self.skip_blanks();
        if self.plain_pipeline() {
            return Ok(());
        }
        if matches!(self.peek(), Some(b'!' | b't')) {
            self.skip_pipeline_prefixes();
        }
        let mut commands = Inline::One(self.command()?);
        self.skip_blanks();
        while let Some(width) = self.pipe_width() {
            self.pos += width;
            self.skip_linebreaks()?;
            commands.push(self.command()?);
            self.skip_blanks();
        }
        self.open_pipelines.push(Pipeline {
            commands,
            joined: Joined::First,
        });
        Ok(())
    }

    /// Reads the commonest pipeline, one simple command of plain and
    /// single-quoted words (`make -j2 test`, `echo 'a b'`), without the
    /// general reader's per-command steps. `false`, with nothing consumed,
    /// for anything else: a reserved word, an assignment, a redirection, an
    /// expansion, a pipe, or nesting at its bound.
    fn plain_pipeline(&mut self) -> bool {
        #[cfg(test)]
        if tests::GENERAL_ONLY.get() {
            return false;
        }
        if self.depth >= MAX_DEPTH || self.peek_keyword().is_some() {
            return false;
        }
        // With no other command's words open, as at the top of a program,
        // the words are read straight into the arena, not moved there after.
        let straight = self.open_words.is_empty();
        if straight {
            core::mem::swap(&mut self.open_words, &mut self.words);
        }
        let (start, base) = (self.pos, self.open_words.len());
        self.plain_words(false);
        while self.peek() == Some(b'\'') {
            let Some(word) = self.single_quoted_word() else {
                break;
            };
            self.open_words.push(word);
            self.plain_words(true);
        }
        let ends = match (self.peek(), self.peek_at(1)) {
            (None | Some(b';' | b'\n' | b')' | b'#'), _) => true,
            (Some(b'&'), next) => next != Some(b'>'),
            (Some(b'|'), next) => next == Some(b'|'),
            _ => false,
        };
        let read = ends && self.open_words.len() > base;
        if !read {
            self.pos = start;
            self.open_words.truncate(base);
        }
        if straight {
            core::mem::swap(&mut self.open_words, &mut self.words);
        }
        if !read {
            return false;
        }
        let words = if straight {
            Span::new(base, self.words.len())
        } else {
            self.close_words(base)
        };
        self.open_pipelines.push(Pipeline {
            commands: Inline::One(Command::Simple(Simple {
                words,
                ..Simple::default()
            })),
            joined: Joined::First,
        });
        true
    }

    /// Skips `!` and `time [-p]` before a pipeline.
    fn skip_pipeline_prefixes(&mut self) {
        loop {
            if self.eat_keyword("!") {
                self.skip_blanks();
            } else if self.eat_keyword("time") {
                self.skip_blanks();
                self.eat_keyword("-p");
                self.skip_blanks();
            } else {
                return;
            }
        }
    }

    /// The width of the pipe operator here, `|` or `|&`; `||` is not one.
    fn pipe_width(&self) -> Option<usize> {
        match (self.peek()?, self.peek_at(1)) {
            (b'|', Some(b'|')) => None,
            (b'|', Some(b'&')) => Some(2),
            (b'|', _) => Some(1),
            _ => None,
        }
    }

    pub(super) fn command(&mut self) -> Result<Command<'a>> {
        self.enter()?;
        let command = self.command_inner();
        self.leave();
        command
    }

    fn command_inner(&mut self) -> Result<Command<'a>> {
        self.skip_blanks();
        if self.starts_with("((") {
            self.pos += 2;
            let words = self.arithmetic_words(2, "((")?;
            return self.compound(false, Vec::new(), words, None);
        }
        if self.peek() == Some(b'(') {
            self.pos += 1;
            let list = self.list(Stop::paren("("))?;
            self.pos += 1;
            return self.compound(true, vec![list], Words::default(), None);
        }
        match self.peek_keyword() {
            Some("{") => {
                self.pos += 1;
                let list = self.list(Stop::keywords(&["}"], "{"))?;
                self.expect_keyword("}", "{")?;
                self.compound(false, vec![list], Words::default(), None)
            }
            Some("if") => self.if_clause(),
            Some(keyword @ ("while" | "until")) => {
                self.pos += keyword.len();
                let condition = self.list(Stop::keywords(&["do"], keyword))?;
                let body = self.do_group(keyword)?;
                self.compound(false, vec![condition, body], Words::default(), None)
            }
            Some(keyword @ ("for" | "select")) => self.for_clause(keyword),
            Some("case") => self.case_clause(),
            Some("function") => self.function_keyword(),
            Some("[[") => self.conditional(),
            Some("coproc") => {
                self.pos += "coproc".len();
                self.command()
            }
            Some(keyword) => Err(SyntaxError::Unexpected(keyword.to_owned())),
            None => self.simple_or_function(),
        }
    }

    fn simple_or_function(&mut self) -> Result<Command<'a>> {
        let mut simple = Simple::default();
        let base = self.open_words.len();
        loop {
            self.skip_blanks();
            let Some(byte) = self.peek() else { break };
            if byte == b'#' {
                break;
            }
            if self.may_redirect(byte)
                && let Some(redirect) = self.redirect()?
            {
                simple.redirects.push(redirect);
                continue;
            }
            let word_count = self.open_words.len() - base;
            if byte == b'(' && word_count == 1 && simple.assignments.is_empty() {
                self.pos += 1;
                self.skip_blanks();
                if self.peek() != Some(b')') {
                    return Err(self.unexpected(""));
                }
                self.pos += 1;
                let name = self.open_words.pop().unwrap_or_default();
                return self.function_body(name);
            }
            if is_meta(byte) && !(matches!(byte, b'<' | b'>') && self.peek_at(1) == Some(b'(')) {
                break;
            }
            if (word_count == 0 || (self.array_assignment_ahead() && self.declares(base)))
                && let Some(assignment) = self.assignment()?
            {
                simple.assignments.push(assignment);
                continue;
            }
            let word = self.word(Context::Normal)?;
            self.open_words.push(word);
        }
        simple.words = self.close_words(base);
        if simple.words.is_empty() && simple.assignments.is_empty() && simple.redirects.is_empty() {
            return Err(self.unexpected(""));
        }
        Ok(Command::Simple(simple))
    }

    pub(super) fn word_that_advances(&mut self, opener: &'static str) -> Result<Word<'a>> {
        let start = self.pos;
        let word = self.word(Context::Normal)?;
        if self.pos == start {
            return Err(self.unexpected(opener));
        }
        Ok(word)
    }

    /// Whether `name=(` or `name+=(` starts here.
    fn array_assignment_ahead(&self) -> bool {
        let rest = self
            .src
            .as_bytes()
            .get(self.pos..self.end)
            .unwrap_or_default();
        if !rest.first().is_some_and(|&byte| is_name_start(byte)) {
            return false;
        }
        let name = rest
            .iter()
            .position(|&byte| !is_name_byte(byte))
            .unwrap_or(rest.len());
        let after = rest.get(name..).unwrap_or_default();
        after.starts_with(b"=(") || after.starts_with(b"+=(")
    }

    /// Whether the command opened at `base` is `declare` or kin, whose
    /// `name=(…)` arguments are array assignments, as bash reads them.
    fn declares(&self, base: usize) -> bool {
        self.open_words.get(base).is_some_and(|word| {
            matches!(
                word.parts(),
                [super::Part::Text { text, quoted: false }]
                    if matches!(&**text, "declare" | "typeset" | "local" | "export" | "readonly")
            )
        })
    }

    /// `name=value`, `name+=value`, `name[i]=value` or `name=(…)`.
    fn assignment(&mut self) -> Result<Option<Assignment<'a>>> {
        let start = self.pos;
        if !self.peek().is_some_and(is_name_start) {
            return Ok(None);
        }
        let rest = self.src.as_bytes().get(start..self.end).unwrap_or_default();
        self.pos += rest
            .iter()
            .position(|&byte| !is_name_byte(byte))
            .unwrap_or(rest.len());
        let name = self.slice(start, self.pos);
        let mut index = None;
        if self.peek() == Some(b'[') {
            let opened = self.pos + 1;
            while self
                .peek()
                .is_some_and(|byte| byte != b']' && !is_meta(byte))
            {
                self.pos += 1;
            }
            index = Some(self.slice(opened, self.pos));
            self.pos += 1;
        }
        let append = self.starts_with("+=");
        if append {
            self.pos += 2;
        } else if self.peek() == Some(b'=') {
            self.pos += 1;
        } else {
            self.pos = start;
            return Ok(None);
        }
        let value = if self.peek() == Some(b'(') {
            self.pos += 1;
            AssignedValue::Array(self.array_elements()?)
        } else {
            AssignedValue::Scalar(self.word(Context::Normal)?)
        };
        Ok(Some(Assignment {
            name,
            index,
            value,
            append,
        }))
    }

    fn array_elements(&mut self) -> Result<Vec<Word<'a>>> {
        let mut elements = Vec::new();
        loop {
            self.skip_linebreaks()?;
            match self.peek() {
                None => return Err(SyntaxError::Unclosed("array (")),
                Some(b')') => {
                    self.pos += 1;
                    return Ok(elements);
                }
                Some(_) => elements.push(self.word_that_advances("array (")?),
            }
        }
    }

    /// Skips through the `)` that closes the `open` parentheses just passed
    /// (two of `((`), or, with none open, the parenthesised group that
    /// starts here (an extended glob's).
    /// Reads arithmetic up to the parentheses that close it (`open` of them
    /// are open), as a word: the substitutions and parameters in it run
    /// when it is evaluated (`$(( $(cmd) ))`, `(( x = $(cmd) ))`). `None`
    /// when it holds no `$` or backquote.
    pub(super) fn arithmetic_word(
        &mut self,
        open: u32,
        opener: &'static str,
    ) -> Result<Option<Word<'a>>> {
        let start = self.pos;
        self.skip_parens(open, opener)?;
        let after = self.pos;
        let end = after.saturating_sub(open as usize);
        if !self.slice(start, end).contains(['$', '`']) {
            return Ok(None);
        }
        let outer_end = self.end;
        self.pos = start;
        self.end = end;
        let word = self.word(Context::HereDoc);
        self.end = outer_end;
        self.pos = after;
        word.map(Some)
    }

    /// [`Parser::arithmetic_word`] as the words of a command (`((…))`, `for ((…))`).
    pub(super) fn arithmetic_words(&mut self, open: u32, opener: &'static str) -> Result<Words> {
        let base = self.open_words.len();
        if let Some(word) = self.arithmetic_word(open, opener)? {
            self.open_words.push(word);
        }
        Ok(self.close_words(base))
    }

    pub(super) fn skip_parens(&mut self, open: u32, opener: &'static str) -> Result<()> {
        let mut depth = open;
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
        Err(SyntaxError::Unclosed(opener))
    }
}

#[cfg(test)]
mod tests {
    use core::cell::Cell;

    use super::{Parser, parse};

    /// The shell's reserved words, each of which `peek_keyword` finds.
    const KEYWORDS: [&str; 20] = [
        "if", "then", "time", "elif", "else", "esac", "fi", "for", "function", "while", "until",
        "done", "do", "select", "case", "coproc", "{", "}", "!", "[[",
    ];

    std::thread_local! {
        /// Turns the plain-pipeline reader off, to compare it with the general one.
        pub(super) static GENERAL_ONLY: Cell<bool> = const { Cell::new(false) };
    }

    /// The plain-pipeline reader reads what the general reader reads, and
    /// hands over where it must: every command of the gate's case table,
    /// and the shapes at its edges.
    #[test]
    fn plain_pipelines_read_as_the_general_reader_reads_them() {
        let cases: serde_json::Value = serde_json::from_str(include_str!(
            "../../../block-git-hook-bypass/tests/cases.json"
        ))
        .expect("the case table");
        let table = cases
            .as_array()
            .expect("a list")
            .iter()
            .filter_map(|case| case["command"].as_str());
        let edges = [
            "make -j2 test",
            "echo 'a b' && make",
            "a | b",
            "a || b",
            "a |& b",
            "a &>f",
            "a &",
            "a & b",
            "A=1 b",
            "f() { a; }",
            "a #c",
            "a;b",
            "a ;; b",
            "(a b)",
            "{ a b }",
            "! a",
            "time a",
            "a 2>f",
            "a b>f",
            "'a'(",
            "a 'b'c",
            "a\\\nb",
            "if a; then b; fi",
            "a\n b",
            "'x' y 'z'",
            "",
            "''",
            "a '' b",
            "case x in a) b;; esac",
            "x=(a b)",
            "a 'b",
            "a\tb",
            "'a';'b'",
            "a)",
            "a (",
            "a <(b)",
            "a >(b)",
            "a ;& b",
            "{ a; }",
            "a'b'",
            "a' 'b",
        ];
        for source in table.chain(edges) {
            let read = format!("{:?}", parse(source));
            GENERAL_ONLY.set(true);
            let general = format!("{:?}", parse(source));
            GENERAL_ONLY.set(false);
            assert_eq!(read, general, "{source}");
        }
    }

    /// Every reserved word is found where it stands alone, and a longer
    /// word that starts with it is not one.
    #[test]
    fn reserved_words_are_found_where_they_stand_alone() {
        for keyword in KEYWORDS {
            let alone = format!("{keyword} x");
            assert_eq!(Parser::new(&alone).peek_keyword(), Some(keyword));
            let longer = format!("{keyword}x");
            assert_eq!(Parser::new(&longer).peek_keyword(), None, "{longer}");
        }
        assert_eq!(Parser::new("make if").peek_keyword(), None);
    }
}
