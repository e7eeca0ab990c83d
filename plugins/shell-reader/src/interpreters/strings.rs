//! The string literals of a piece of code: lexed with each language's
//! quotes, escapes and interpolations, then joined and filled in.

use crate::prelude::*;

use super::Language;
use crate::shell::decode_escapes;

/// What a piece of code's strings hold.
#[derive(Default, Debug, PartialEq, Eq)]
pub struct Strings {
    /// Every string value, with literals joined by `+`, `.` or adjacency,
    /// variables assigned a string replaced by it, and a value the reading
    /// cannot know (a call's result, an unassigned name) left empty.
    pub values: Vec<String>,
    /// Runs of string values given one after another (`["git", "commit"]`,
    /// `system("git", "commit")`): the argument vectors an `exec` would get.
    pub lists: Vec<Vec<String>>,
    /// `NAME` and its value where code sets one to the other
    /// (`os.environ["NAME"] = "1"`, `{NAME: "1"}`, `$ENV{NAME} = 1`).
    pub pairs: Vec<(String, String)>,
    /// The code, or one of its values, calls out to other programs.
    pub runs_programs: bool,
}

impl Strings {
    /// Values that are code which runs programs themselves (`exec("…")`,
    /// `eval`), to be read as code again.
    pub fn nested_code(&self) -> impl Iterator<Item = &str> + '_ {
        self.values
            .iter()
            .map(String::as_str)
            .filter(|value| super::runs_programs(value))
    }

    /// What the code may hand a shell or `exec`, as shell text: each value,
    /// and each argument run with its words quoted.
    pub fn commands(&self) -> impl Iterator<Item = String> + '_ {
        let lists = self.lists.iter().map(|list| {
            let words: Vec<String> = list.iter().map(|word| quoted(word)).collect();
            words.join(" ")
        });
        self.values.iter().cloned().chain(lists)
    }
}

/// `word` in single quotes, as the shell reads it back.
pub fn quoted(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// The longest value kept: joins and `+=` can double a value at each step.
const MAX_VALUE: usize = 1 << 16;

/// Reads the strings of `code` in `language`. A value that is base64 or
/// hex of text (`b64decode("Z2l0…")`, `bytes.fromhex("67…")`) is followed by
/// that text.
pub fn strings(code: &str, language: Language) -> Strings {
    let tokens = Lexer {
        rest: code,
        language,
    }
    .tokens();
    let mut strings = fold(&tokens);
    let decoded: Vec<String> = strings
        .values
        .iter()
        .filter_map(|value| decoded(value))
        .collect();
    strings.values.extend(decoded);
    strings.runs_programs = super::runs_programs(code)
        || strings
            .values
            .iter()
            .any(|value| super::runs_programs(value));
    strings
}

/// The text `value` encodes in base64 or hex, when it is text.
fn decoded(value: &str) -> Option<String> {
    use base64::Engine as _;
    use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
    const BASE64: GeneralPurpose = GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
    );
    let value = value.trim();
    if value.len() < 8 || value.contains(char::is_whitespace) {
        return None;
    }
    let bytes = hex::decode(value)
        .ok()
        .or_else(|| BASE64.decode(value).ok())?;
    let text = String::from_utf8(bytes).ok()?;
    let printable = text.chars().all(|c| !c.is_control() || c.is_whitespace());
    printable.then_some(text)
}

/// `value` cut to [`MAX_VALUE`] bytes, on a character boundary.
fn capped(mut value: String) -> String {
    if value.len() > MAX_VALUE {
        let mut end = MAX_VALUE;
        while !value.is_char_boundary(end) {
            end -= 1;
        }
        value.truncate(end);
    }
    value
}

/// One piece of a string literal.
#[derive(Debug)]
enum Piece {
    Text(String),
    /// An interpolated name (`${x}`, `{x}`, `#{x}`, `$x`).
    Name(String),
}

#[derive(Debug)]
enum Token {
    Literal(Vec<Piece>),
    Word(String),
    Operator(String),
}

struct Lexer<'a> {
    rest: &'a str,
    language: Language,
}

impl Lexer<'_> {
    fn tokens(mut self) -> Vec<Token> {
        let mut tokens = Vec::new();
        while let Some(c) = self.rest.chars().next() {
            if c.is_whitespace() {
                self.advance(c.len_utf8());
            } else if self.language.comment_starts(self.rest) {
                self.skip_past("\n");
            } else if self.rest.starts_with("/*")
                && matches!(self.language, Language::JavaScript | Language::Php)
            {
                self.skip_past("*/");
            } else if let Some(quote) = self.quote_at(0) {
                let literal = self.literal(quote, Prefix::default());
                tokens.push(Token::Literal(literal));
            } else if is_word_char(c) {
                let length = self
                    .rest
                    .find(|c: char| !is_word_char(c))
                    .unwrap_or(self.rest.len());
                let word = &self.rest[..length];
                self.advance(length);
                match Prefix::of(self.language, word).zip(self.quote_at(0)) {
                    Some((prefix, quote)) => {
                        let literal = self.literal(quote, prefix);
                        tokens.push(Token::Literal(literal));
                    }
                    None => tokens.push(Token::Word(word.to_owned())),
                }
            } else {
                let length = ["==", "=>", "=~", "!=", "+=", ".=", "<=", ">="]
                    .iter()
                    .find(|op| self.rest.starts_with(*op))
                    .map_or(c.len_utf8(), |op| op.len());
                tokens.push(Token::Operator(self.rest[..length].to_owned()));
                self.advance(length);
            }
        }
        tokens
    }

    fn advance(&mut self, length: usize) {
        self.rest = self.rest.get(length..).unwrap_or_default();
    }

    fn skip_past(&mut self, end: &str) {
        let at = self
            .rest
            .find(end)
            .map_or(self.rest.len(), |at| at + end.len());
        self.advance(at);
    }

    /// The quote that opens a string at `offset`, as the language writes it.
    fn quote_at(&self, offset: usize) -> Option<&'static str> {
        let rest = self.rest.get(offset..)?;
        if self.language == Language::Python {
            for triple in ["\"\"\"", "'''"] {
                if rest.starts_with(triple) {
                    return Some(triple);
                }
            }
        }
        match rest.chars().next()? {
            '"' => Some("\""),
            '\'' if self.language != Language::Awk => Some("'"),
            '`' if !matches!(self.language, Language::Python | Language::Awk) => Some("`"),
            _ => None,
        }
    }

    /// The literal opened by `quote`, its escapes decoded as the language
    /// decodes them and its interpolations named.
    fn literal(&mut self, quote: &str, prefix: Prefix) -> Vec<Piece> {
        self.advance(quote.len());
        let mut raw_end = self.rest.len();
        let mut escaped = false;
        for (at, c) in self.rest.char_indices() {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if self.rest[at..].starts_with(quote) {
                raw_end = at;
                break;
            }
        }
        let raw = &self.rest[..raw_end];
        self.advance(raw_end + quote.len());
        let single = quote.starts_with('\'');
        let interpolates = prefix.format
            || match self.language {
                Language::Python => false,
                Language::JavaScript => quote == "`",
                _ => !single,
            };
        let mut pieces = Vec::new();
        let mut text = String::new();
        let mut rest = raw;
        while !rest.is_empty() {
            if interpolates && let Some((name, length)) = self.interpolation(rest) {
                pieces.push(Piece::Text(core::mem::take(&mut text)));
                pieces.push(Piece::Name(name));
                rest = &rest[length..];
                continue;
            }
            let next = rest.chars().next().map_or(1, char::len_utf8);
            // An escaped character, or Python's `{{`, is never an interpolation.
            let next = if rest.starts_with('\\') || rest.starts_with("{{") {
                next + rest[1..].chars().next().map_or(0, char::len_utf8)
            } else {
                next
            };
            let chunk_end = if interpolates { next } else { rest.len() };
            text.push_str(&rest[..chunk_end]);
            rest = &rest[chunk_end..];
        }
        pieces.push(Piece::Text(text));
        for piece in &mut pieces {
            if let Piece::Text(text) = piece {
                *text = self.decode(text, single, prefix.raw);
            }
        }
        pieces
    }

    /// An interpolation at the start of `text`: the name it reads, as
    /// assignments spell it, and its length.
    fn interpolation(&self, text: &str) -> Option<(String, usize)> {
        let braced = |open: &str, sigil: &str| {
            let inner = text.strip_prefix(open)?;
            let end = inner.find('}')?;
            let name = format!("{sigil}{}", inner[..end].trim());
            Some((name, open.len() + end + 1))
        };
        match self.language {
            Language::JavaScript => braced("${", ""),
            Language::Ruby => braced("#{", ""),
            Language::Python => braced("{", ""),
            Language::Perl | Language::Php => braced("${", "$").or_else(|| {
                let name = text.strip_prefix('$')?;
                let length = name
                    .find(|c: char| !is_word_char(c) || c == '$')
                    .unwrap_or(name.len());
                (length > 0).then(|| (text[..=length].to_owned(), length + 1))
            }),
            Language::Awk => None,
        }
    }

    fn decode(&self, text: &str, single: bool, raw: bool) -> String {
        if raw {
            return text.to_owned();
        }
        let single_quoted_raw = single
            && matches!(
                self.language,
                Language::Ruby | Language::Perl | Language::Php
            );
        if single_quoted_raw {
            return text.replace("\\\\", "\\").replace("\\'", "'");
        }
        decode_escapes(text).into_owned()
    }
}

/// Python's string prefixes: `r` keeps backslashes, `f` interpolates.
#[derive(Clone, Copy, Default)]
struct Prefix {
    raw: bool,
    format: bool,
}

impl Prefix {
    fn of(language: Language, word: &str) -> Option<Self> {
        let word = word.to_ascii_lowercase();
        let known = language == Language::Python
            && word.len() <= 2
            && word.bytes().all(|byte| b"rbuf".contains(&byte));
        known.then(|| Self {
            raw: word.contains('r'),
            format: word.contains('f'),
        })
    }
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '$' | '@')
}

/// A token after joins and names are resolved.
enum Item {
    Value(String),
    Word(String),
    Operator(String),
}

/// Joins literals, fills in names assigned earlier, and collects values,
/// argument runs and name-value pairs.
fn fold(tokens: &[Token]) -> Strings {
    let mut variables: Vec<(String, String)> = Vec::new();
    let mut items: Vec<Item> = Vec::new();
    let mut index = 0;
    while index < tokens.len() {
        if let Some((value, next)) = chain(tokens, index, &variables) {
            // `name = value`, `name += value`.
            if let [.., Item::Word(name), Item::Operator(operator)] = items.as_slice()
                && matches!(operator.as_str(), "=" | "+=" | ".=")
            {
                let earlier = lookup(&variables, name).filter(|_| operator != "=");
                let value = capped(format!("{}{value}", earlier.unwrap_or_default()));
                variables.push((name.clone(), value));
            }
            items.push(Item::Value(value));
            index = next;
            continue;
        }
        items.push(match tokens.get(index) {
            Some(Token::Word(word)) => Item::Word(word.clone()),
            Some(Token::Operator(operator)) => Item::Operator(operator.clone()),
            _ => Item::Operator(String::new()),
        });
        index += 1;
    }
    let mut strings = Strings::default();
    collect(&items, &mut strings);
    strings
}

/// A value made of literals and names joined, starting at `start`, if it
/// holds a literal: the value and the index after it.
fn chain(
    tokens: &[Token],
    start: usize,
    variables: &[(String, String)],
) -> Option<(String, usize)> {
    let mut value = String::new();
    let mut has_literal = false;
    let mut index = start;
    loop {
        match tokens.get(index) {
            None => break,
            Some(Token::Literal(pieces)) => {
                has_literal = true;
                for piece in pieces {
                    match piece {
                        Piece::Text(text) => value.push_str(text),
                        Piece::Name(name) => {
                            value.push_str(lookup(variables, name).unwrap_or_default())
                        }
                    }
                }
            }
            Some(Token::Word(name)) if !name.starts_with(|c: char| c.is_ascii_digit()) => {
                value.push_str(lookup(variables, name).unwrap_or_default());
            }
            _ => break,
        }
        index += 1;
        if value.len() > MAX_VALUE {
            value = capped(value);
        }
        match tokens.get(index) {
            Some(Token::Operator(op)) if op == "+" || op == "." => index += 1,
            Some(Token::Literal(_)) => {}
            _ => break,
        }
    }
    // A trailing operator without an operand is not part of the value.
    if index > start && matches!(tokens.get(index - 1), Some(Token::Operator(_))) {
        index -= 1;
    }
    has_literal.then_some((value, index))
}

fn lookup<'v>(variables: &'v [(String, String)], name: &str) -> Option<&'v str> {
    variables
        .iter()
        .rev()
        .find(|(known, _)| known == name)
        .map(|(_, value)| value.as_str())
}

fn collect(items: &[Item], strings: &mut Strings) {
    let mut run: Vec<String> = Vec::new();
    let mut starts: Vec<usize> = Vec::new();
    for (index, item) in items.iter().enumerate() {
        match item {
            Item::Value(value) => {
                strings.values.push(value.clone());
                run.push(value.clone());
            }
            Item::Operator(op) if op == "," => {}
            Item::Operator(op) if op == "[" || op == "(" => {
                if !run.is_empty() {
                    starts.push(run.len());
                }
            }
            _ => end_run(&mut run, &mut starts, strings),
        }
        if let Some(pair) = pair_at(items, index) {
            strings.pairs.push(pair);
        }
    }
    end_run(&mut run, &mut starts, strings);
}

/// Keeps a run of two or more values as an argument vector, and each part
/// of it after an opening bracket (`execvp("git", ["git", …])`).
fn end_run(run: &mut Vec<String>, starts: &mut Vec<usize>, strings: &mut Strings) {
    if run.len() > 1 {
        for &start in starts.iter() {
            if run.len() - start > 1 {
                strings.lists.push(run[start..].to_vec());
            }
        }
        strings.lists.push(core::mem::take(run));
    }
    run.clear();
    starts.clear();
}

/// `NAME` then a value, with only `]`, `}`, `)`, `:`, `=`, `=>` or `,`
/// between: how the languages set a variable or a map entry.
fn pair_at(items: &[Item], index: usize) -> Option<(String, String)> {
    let name = match items.get(index)? {
        Item::Value(name) | Item::Word(name) => name,
        Item::Operator(_) => return None,
    };
    let name = name.trim_start_matches('$');
    let is_name = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !is_name {
        return None;
    }
    for item in items.get(index + 1..)? {
        match item {
            Item::Operator(op)
                if matches!(op.as_str(), "]" | "}" | ")" | ":" | "=" | "=>" | ",") => {}
            Item::Value(value) | Item::Word(value) => {
                return Some((name.to_owned(), value.clone()));
            }
            Item::Operator(_) => return None,
        }
    }
    None
}
