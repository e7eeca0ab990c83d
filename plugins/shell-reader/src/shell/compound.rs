//! Compound commands: groups, `if`, loops, `case`, functions and `[[ ]]`.

use crate::prelude::*;

use alloc::borrow::Cow;

use super::parser::{Parser, Result, Stop, is_name_byte};
use super::word::Context;
use super::{Command, Compound, Function, List, SyntaxError, Word, Words};

impl<'a> Parser<'a> {
    pub(super) fn compound(
        &mut self,
        subshell: bool,
        lists: Vec<List>,
        words: Words,
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
        Ok(Command::Compound(Box::new(Compound {
            subshell,
            lists,
            words,
            loop_variable,
            redirects,
        })))
    }

    pub(super) fn if_clause(&mut self) -> Result<Command<'a>> {
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
        self.compound(false, lists, Words::default(), None)
    }

    /// `do … done`, or the `{ … }` bash also takes after `for`.
    pub(super) fn do_group(&mut self, opener: &'static str) -> Result<List> {
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

    pub(super) fn for_clause(&mut self, keyword: &'static str) -> Result<Command<'a>> {
        self.pos += keyword.len();
        self.skip_blanks();
        if self.starts_with("((") {
            self.pos += 2;
            let words = self.arithmetic_words(2, "((")?;
            let body = self.do_group(keyword)?;
            return self.compound(false, vec![body], words, None);
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
        let base = self.open_words.len();
        if self.eat_keyword("in") {
            loop {
                self.skip_blanks();
                self.skip_comment();
                match self.peek() {
                    None => return Err(SyntaxError::Unclosed(keyword)),
                    Some(b'\n' | b';') => break,
                    Some(_) => {
                        let word = self.word_that_advances(keyword)?;
                        self.open_words.push(word);
                    }
                }
            }
        }
        let words = self.close_words(base);
        let body = self.do_group(keyword)?;
        self.compound(false, vec![body], words, Some(name))
    }

    pub(super) fn case_clause(&mut self) -> Result<Command<'a>> {
        self.pos += "case".len();
        self.skip_blanks();
        let base = self.open_words.len();
        let subject = self.word_that_advances("case")?;
        self.open_words.push(subject);
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
                let pattern = self.word_that_advances("case")?;
                self.open_words.push(pattern);
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
            lists.push(self.list(Stop::case_arm())?);
            self.skip_blanks();
            for terminator in [";;&", ";;", ";&"] {
                if self.starts_with(terminator) {
                    self.pos += terminator.len();
                    break;
                }
            }
        }
        let words = self.close_words(base);
        self.compound(false, lists, words, None)
    }

    pub(super) fn function_keyword(&mut self) -> Result<Command<'a>> {
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

    pub(super) fn function_body(&mut self, name: Word<'a>) -> Result<Command<'a>> {
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
    pub(super) fn conditional(&mut self) -> Result<Command<'a>> {
        self.pos += 2;
        let base = self.open_words.len();
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
                        self.open_words.push(word);
                    }
                }
            }
        }
        let words = self.close_words(base);
        self.compound(false, Vec::new(), words, None)
    }
}
