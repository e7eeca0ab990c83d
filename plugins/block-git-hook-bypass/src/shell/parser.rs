//! Lists, pipelines and commands. Words are read in `word.rs`.

use std::borrow::Cow;

use super::word::Context;
use super::{
    AssignedValue, Inline, Assignment, Command, Compound, Function, HereDoc, List, Pipeline, Program,
    Redirect, RedirectKind, Simple, SyntaxError, Word,
};

type Result<T> = std::result::Result<T, SyntaxError>;

/// How deep commands and substitutions may nest before the reader gives up.
const MAX_DEPTH: u32 = 64;

/// Reads `source` as a shell program.
pub fn parse(source: &str) -> Result<Program<'_>> {
    let mut parser = Parser::new(source);
    let list = parser.list(Stop::END)?;
    Ok(Program {
        list,
        heredocs: parser.heredocs,
    })
}

pub(super) struct Parser<'a> {
    pub(super) src: &'a str,
    pub(super) pos: usize,
    /// Where reading stops: the source's end, or a here-document body's.
    pub(super) end: usize,
    depth: u32,
    pending: Vec<PendingHereDoc<'a>>,
    heredocs: Vec<HereDoc<'a>>,
}

/// A here-document whose body starts after the current line.
struct PendingHereDoc<'a> {
    index: usize,
    delimiter: Cow<'a, str>,
    strip_tabs: bool,
    literal: bool,
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

    const fn keywords(keywords: &'static [&'static str], opener: &'static str) -> Self {
        Self {
            keywords,
            paren: false,
            case_arm: false,
            end_of_input: opener.is_empty(),
            opener,
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

const fn is_name_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

impl<'a> Parser<'a> {
    pub(super) fn new(src: &'a str) -> Self {
        Self {
            src,
            pos: 0,
            end: src.len(),
            depth: 0,
            pending: Vec::new(),
            heredocs: Vec::new(),
        }
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

    /// Skips spaces, tabs and line continuations.
    pub(super) fn skip_blanks(&mut self) {
        loop {
            match self.peek() {
                Some(b' ' | b'\t') => self.pos += 1,
                Some(b'\\') if self.peek_at(1) == Some(b'\n') => self.pos += 2,
                _ => return,
            }
        }
    }

    fn skip_comment(&mut self) {
        if self.peek() == Some(b'#') {
            while self.peek().is_some_and(|byte| byte != b'\n') {
                self.pos += 1;
            }
        }
    }

    /// Skips blanks, comments and newlines, as after `&&` or `|`.
    fn skip_linebreaks(&mut self) -> Result<()> {
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
    fn skip_separators(&mut self) -> Result<()> {
        loop {
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
    fn at_keyword(&self, keyword: &str) -> bool {
        self.starts_with(keyword)
            && self
                .peek_at(keyword.len())
                .is_none_or(|next| is_meta(next) || next == b'\r')
    }

    fn peek_keyword(&self) -> Option<&'static str> {
        let candidates: &[&'static str] = match self.peek()? {
            b'i' => &["if"],
            b't' => &["then", "time"],
            b'e' => &["elif", "else", "esac"],
            b'f' => &["fi", "for", "function"],
            b'w' => &["while"],
            b'u' => &["until"],
            b'd' => &["do", "done"],
            b's' => &["select"],
            b'c' => &["case", "coproc"],
            b'{' => &["{"],
            b'}' => &["}"],
            b'!' => &["!"],
            b'[' => &["[["],
            _ => return None,
        };
        candidates.iter().copied().find(|keyword| self.at_keyword(keyword))
    }

    fn eat_keyword(&mut self, keyword: &str) -> bool {
        let found = self.at_keyword(keyword);
        if found {
            self.pos += keyword.len();
        }
        found
    }

    fn expect_keyword(&mut self, keyword: &'static str, opener: &'static str) -> Result<()> {
        self.skip_blanks();
        if self.eat_keyword(keyword) {
            Ok(())
        } else {
            Err(self.unexpected(opener))
        }
    }

    /// The error for what stands at the current position.
    fn unexpected(&self, opener: &'static str) -> SyntaxError {
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

    pub(super) fn list(&mut self, stop: Stop) -> Result<List<'a>> {
        let mut list = Vec::new();
        loop {
            self.skip_separators()?;
            match (self.peek(), self.peek_at(1)) {
                (None, _) if stop.end_of_input => return Ok(list),
                (None, _) => return Err(SyntaxError::Unclosed(stop.opener)),
                (Some(b')'), _) if stop.paren => return Ok(list),
                (Some(b';'), Some(b';' | b'&')) if stop.case_arm => return Ok(list),
                (Some(b')' | b';' | b'&' | b'|'), _) => return Err(self.unexpected("")),
                _ => {}
            }
            if self
                .peek_keyword()
                .is_some_and(|keyword| stop.keywords.contains(&keyword))
            {
                return Ok(list);
            }
            self.and_or(&mut list)?;
            self.skip_blanks();
            if self.peek() == Some(b'(') {
                return Err(self.unexpected(""));
            }
        }
    }

    fn and_or(&mut self, list: &mut List<'a>) -> Result<()> {
        loop {
            list.push(self.pipeline()?);
            self.skip_blanks();
            if !(self.starts_with("&&") || self.starts_with("||")) {
                return Ok(());
            }
            self.pos += 2;
            self.skip_linebreaks()?;
        }
    }

    fn pipeline(&mut self) -> Result<Pipeline<'a>> {
        loop {
            self.skip_blanks();
            if self.eat_keyword("!") {
                continue;
            }
            if self.eat_keyword("time") {
                self.skip_blanks();
                self.eat_keyword("-p");
                continue;
            }
            break;
        }
        let mut commands = Inline::default();
        loop {
            commands.push(self.command()?);
            self.skip_blanks();
            if self.starts_with("||") {
                break;
            } else if self.starts_with("|&") {
                self.pos += 2;
            } else if self.peek() == Some(b'|') {
                self.pos += 1;
            } else {
                break;
            }
            self.skip_linebreaks()?;
        }
        Ok(Pipeline { commands })
    }

    fn command(&mut self) -> Result<Command<'a>> {
        self.enter()?;
        let command = self.command_inner();
        self.leave();
        command
    }

    fn command_inner(&mut self) -> Result<Command<'a>> {
        self.skip_blanks();
        if self.starts_with("((") {
            self.pos += 2;
            self.arithmetic_body()?;
            return self.compound(false, Vec::new(), Vec::new(), None);
        }
        if self.peek() == Some(b'(') {
            self.pos += 1;
            let list = self.list(Stop::paren("("))?;
            self.pos += 1;
            return self.compound(true, vec![list], Vec::new(), None);
        }
        match self.peek_keyword() {
            Some("{") => {
                self.pos += 1;
                let list = self.list(Stop::keywords(&["}"], "{"))?;
                self.expect_keyword("}", "{")?;
                self.compound(false, vec![list], Vec::new(), None)
            }
            Some("if") => self.if_clause(),
            Some(keyword @ ("while" | "until")) => {
                self.pos += keyword.len();
                let condition = self.list(Stop::keywords(&["do"], keyword))?;
                let body = self.do_group(keyword)?;
                self.compound(false, vec![condition, body], Vec::new(), None)
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

    fn compound(
        &mut self,
        subshell: bool,
        lists: Vec<List<'a>>,
        words: Vec<Word<'a>>,
        loop_variable: Option<&'a str>,
    ) -> Result<Command<'a>> {
        let mut redirects = Vec::new();
        loop {
            self.skip_blanks();
            match self.redirect()? {
                Some(redirect) => redirects.push(redirect),
                None => break,
            }
        }
        Ok(Command::Compound(Compound {
            subshell,
            lists,
            words,
            loop_variable,
            redirects,
        }))
    }

    fn if_clause(&mut self) -> Result<Command<'a>> {
        self.pos += 2;
        let mut lists = Vec::new();
        loop {
            lists.push(self.list(Stop::keywords(&["then"], "if"))?);
            self.expect_keyword("then", "if")?;
            lists.push(self.list(Stop::keywords(&["elif", "else", "fi"], "if"))?);
            if !self.eat_keyword("elif") {
                break;
            }
        }
        if self.eat_keyword("else") {
            lists.push(self.list(Stop::keywords(&["fi"], "if"))?);
        }
        self.expect_keyword("fi", "if")?;
        self.compound(false, lists, Vec::new(), None)
    }

    /// `do … done`, or the `{ … }` bash also takes after `for`.
    fn do_group(&mut self, opener: &'static str) -> Result<List<'a>> {
        self.skip_separators()?;
        if self.eat_keyword("{") {
            let body = self.list(Stop::keywords(&["}"], "{"))?;
            self.expect_keyword("}", "{")?;
            return Ok(body);
        }
        self.expect_keyword("do", opener)?;
        let body = self.list(Stop::keywords(&["done"], opener))?;
        self.expect_keyword("done", opener)?;
        Ok(body)
    }

    fn for_clause(&mut self, keyword: &'static str) -> Result<Command<'a>> {
        self.pos += keyword.len();
        self.skip_blanks();
        if self.starts_with("((") {
            self.pos += 2;
            self.arithmetic_body()?;
            let body = self.do_group(keyword)?;
            return self.compound(false, vec![body], Vec::new(), None);
        }
        let name_start = self.pos;
        while self.peek().is_some_and(is_name_byte) {
            self.pos += 1;
        }
        if self.pos == name_start {
            return Err(self.unexpected(keyword));
        }
        let name = self.slice(name_start, self.pos);
        self.skip_linebreaks()?;
        let mut words = Vec::new();
        if self.eat_keyword("in") {
            loop {
                self.skip_blanks();
                self.skip_comment();
                match self.peek() {
                    None => return Err(SyntaxError::Unclosed(keyword)),
                    Some(b'\n' | b';') => break,
                    Some(_) => words.push(self.word_that_advances(keyword)?),
                }
            }
        }
        let body = self.do_group(keyword)?;
        self.compound(false, vec![body], words, Some(name))
    }

    fn case_clause(&mut self) -> Result<Command<'a>> {
        self.pos += "case".len();
        self.skip_blanks();
        let mut words = vec![self.word_that_advances("case")?];
        self.skip_linebreaks()?;
        self.expect_keyword("in", "case")?;
        let mut lists = Vec::new();
        loop {
            self.skip_linebreaks()?;
            if self.eat_keyword("esac") {
                break;
            }
            if self.peek() == Some(b'(') {
                self.pos += 1;
            }
            loop {
                self.skip_blanks();
                words.push(self.word_that_advances("case")?);
                self.skip_blanks();
                match self.peek() {
                    Some(b'|') => self.pos += 1,
                    Some(b')') => {
                        self.pos += 1;
                        break;
                    }
                    _ => return Err(self.unexpected("case")),
                }
            }
            lists.push(self.list(Stop {
                case_arm: true,
                ..Stop::keywords(&["esac"], "case")
            })?);
            self.skip_blanks();
            for terminator in [";;&", ";;", ";&"] {
                if self.starts_with(terminator) {
                    self.pos += terminator.len();
                    break;
                }
            }
        }
        self.compound(false, lists, words, None)
    }

    fn function_keyword(&mut self) -> Result<Command<'a>> {
        self.pos += "function".len();
        self.skip_blanks();
        let name = self.word_that_advances("function")?;
        self.skip_blanks();
        if self.peek() == Some(b'(') {
            self.pos += 1;
            self.skip_blanks();
            if self.peek() != Some(b')') {
                return Err(self.unexpected("function"));
            }
            self.pos += 1;
        }
        self.function_body(name)
    }

    fn function_body(&mut self, name: Word<'a>) -> Result<Command<'a>> {
        self.skip_linebreaks()?;
        let body = Box::new(self.command()?);
        let name = if name.as_bare().is_some() {
            name.into_text().unwrap_or_default()
        } else {
            Cow::Borrowed("")
        };
        Ok(Command::Function(Function { name, body }))
    }

    /// `[[ … ]]`: only its words matter, for the substitutions they run.
    fn conditional(&mut self) -> Result<Command<'a>> {
        self.pos += 2;
        let mut words = Vec::new();
        loop {
            self.skip_blanks();
            if self.eat_keyword("]]") {
                break;
            }
            match self.peek() {
                None => return Err(SyntaxError::Unclosed("[[")),
                Some(b'\n') => self.newline()?,
                Some(_) => {
                    let start = self.pos;
                    let word = self.word(Context::Normal)?;
                    if self.pos == start {
                        self.pos += 1;
                    } else {
                        words.push(word);
                    }
                }
            }
        }
        self.compound(false, Vec::new(), words, None)
    }

    fn simple_or_function(&mut self) -> Result<Command<'a>> {
        let mut simple = Simple {
            words: Vec::with_capacity(6),
            ..Simple::default()
        };
        loop {
            self.skip_blanks();
            let Some(byte) = self.peek() else { break };
            if byte == b'#' {
                break;
            }
            if let Some(redirect) = self.redirect()? {
                simple.redirects.push(redirect);
                continue;
            }
            if byte == b'(' && simple.words.len() == 1 && simple.assignments.is_empty() {
                self.pos += 1;
                self.skip_blanks();
                if self.peek() != Some(b')') {
                    return Err(self.unexpected(""));
                }
                self.pos += 1;
                let name = simple.words.pop().unwrap_or_default();
                return self.function_body(name);
            }
            if is_meta(byte) && !(matches!(byte, b'<' | b'>') && self.peek_at(1) == Some(b'(')) {
                break;
            }
            if simple.words.is_empty()
                && let Some(assignment) = self.assignment()?
            {
                simple.assignments.push(assignment);
                continue;
            }
            simple.words.push(self.word(Context::Normal)?);
        }
        if simple.words.is_empty() && simple.assignments.is_empty() && simple.redirects.is_empty() {
            return Err(self.unexpected(""));
        }
        Ok(Command::Simple(simple))
    }

    fn word_that_advances(&mut self, opener: &'static str) -> Result<Word<'a>> {
        let start = self.pos;
        let word = self.word(Context::Normal)?;
        if self.pos == start {
            return Err(self.unexpected(opener));
        }
        Ok(word)
    }

    /// `name=value`, `name+=value`, `name[i]=value` or `name=(…)`.
    fn assignment(&mut self) -> Result<Option<Assignment<'a>>> {
        let start = self.pos;
        if !self.peek().is_some_and(is_name_start) {
            return Ok(None);
        }
        while self.peek().is_some_and(is_name_byte) {
            self.pos += 1;
        }
        let name = self.slice(start, self.pos);
        if self.peek() == Some(b'[') {
            while self.peek().is_some_and(|byte| byte != b']' && !is_meta(byte)) {
                self.pos += 1;
            }
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
        Ok(Some(Assignment { name, value, append }))
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

    fn redirect(&mut self) -> Result<Option<Redirect<'a>>> {
        if !self
            .peek()
            .is_some_and(|byte| byte.is_ascii_digit() || matches!(byte, b'<' | b'>' | b'&' | b'{'))
        {
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
        if operator.starts_with("<<") && operator != "<<<" {
            return self.heredoc(operator == "<<-").map(Some);
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
        Ok(Some(Redirect { kind, target }))
    }

    fn heredoc(&mut self, strip_tabs: bool) -> Result<Redirect<'a>> {
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
        })
    }

    /// Consumes a newline and reads the here-document bodies it starts.
    fn newline(&mut self) -> Result<()> {
        self.pos += 1;
        for doc in std::mem::take(&mut self.pending) {
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
    fn find_heredoc_end(&self, doc: &PendingHereDoc<'_>) -> (usize, usize) {
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

    /// Skips an arithmetic body after its opening `((`, through `))`.
    pub(super) fn arithmetic_body(&mut self) -> Result<()> {
        let mut depth = 2u32;
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
        Err(SyntaxError::Unclosed("(("))
    }
}

fn is_descriptor(word: &Word<'_>) -> bool {
    word.as_bare()
        .is_some_and(|text| text == "-" || text.bytes().all(|byte| byte.is_ascii_digit()))
}
