//! The string literals of a piece of code: lexed with each language's
//! quotes, escapes and interpolations, then joined and filled in.

use crate::prelude::*;

use alloc::borrow::Cow;

use super::Language;
use super::methods;
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
    /// An environment variable's `NAME` and its value where code sets one
    /// to the other (`os.environ["NAME"] = "1"`, `{NAME: "1"}`,
    /// `$ENV{NAME} = 1`).
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

    /// The environment the code gives the programs it runs, the pairs
    /// `keep` accepts of it, as shell text that sets it before a command
    /// (`export NAME='value'; `).
    pub fn exports(&self, keep: impl Fn(&str, &str) -> bool) -> String {
        let mut text = String::new();
        for (name, value) in &self.pairs {
            if crate::shell::is_variable_name(name) && keep(name, value) {
                text.push_str(&format!("export {name}={}; ", quoted(value)));
            }
        }
        text
    }

    /// What code that prints ([`super::prints`]) may print, as a shell
    /// reading it gets it: each of its values on a line of its own; `None`,
    /// an output the reader cannot know, when it spells none. The lines
    /// stand for whatever the code prints, so a gate that reads them as
    /// commands or words reads every one the code spells (`python3 -c
    /// 'print("rm -rf x")' | sh`, `git commit $(node -e 'console.log("-n")')`).
    pub fn printed(&self) -> Option<String> {
        if self.values.is_empty() {
            return None;
        }
        let mut lines = String::new();
        for value in &self.values {
            lines.push_str(value);
            lines.push('\n');
        }
        Some(lines)
    }

    /// What the code may hand a shell or `exec`, as shell text: each value,
    /// and each argument run with its words quoted. A value that opens a
    /// pipe (Perl's and Ruby's `open("cmd |")`, `open("| cmd")`) is read
    /// without its `|`. A run that names its program twice, as the `execl`
    /// family takes it (`execlp("git", "git", "commit", …)`), or that starts
    /// with a pipe's mode (`open($fh, "-|", "git", …)`), is also read from
    /// its second word.
    pub fn commands(&self) -> impl Iterator<Item = String> + '_ {
        let joined = |list: &[String]| {
            let words: Vec<String> = list.iter().map(|word| quoted(word)).collect();
            words.join(" ")
        };
        let lists = self.lists.iter().flat_map(move |list| {
            let from_second = match list.as_slice() {
                [mode, ..] if matches!(mode.trim(), "-|" | "|-") => true,
                [path, name, ..] => path.rsplit('/').next() == Some(name.as_str()),
                _ => false,
            };
            let from_name = from_second.then(|| joined(&list[1..]));
            core::iter::once(joined(list)).chain(from_name)
        });
        let values = self
            .values
            .iter()
            .map(|value| piped_command(value).unwrap_or(value).to_owned());
        values.chain(lists)
    }
}

/// The command a value opens a pipe to or from (`"cmd |"`, `"| cmd"`).
fn piped_command(value: &str) -> Option<&str> {
    let trimmed = value.trim();
    let command = trimmed
        .strip_prefix('|')
        .or_else(|| trimmed.strip_suffix('|'))?;
    Some(command.trim())
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
        || (language == Language::Awk && awk_pipes(code))
        || strings.nested_code().next().is_some()
        || strings
            .values
            .iter()
            .any(|value| piped_command(value).is_some());
    strings
}

/// Whether awk code pipes to or from a command, which awk runs through a
/// shell: `print … | "sh"`, `"date" | getline`, gawk's `|&`.
fn awk_pipes(code: &str) -> bool {
    code.replace("||", "").contains('|')
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
    // As short as an option (`LW4=` is `-n`): what decodes to anything but
    // printable text is let be below.
    if value.len() < 4 || value.contains(char::is_whitespace) {
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
pub(super) enum Piece<'a> {
    Text(Cow<'a, str>),
    /// An interpolated name (`${x}`, `{x}`, `#{x}`, `$x`).
    Name(Cow<'a, str>),
}

/// A token of the code, borrowed from it where it can be.
#[derive(Debug)]
pub(super) enum Token<'a> {
    Literal(Vec<Piece<'a>>),
    Word(&'a str),
    Operator(&'a str),
}

struct Lexer<'a> {
    rest: &'a str,
    language: Language,
}

impl<'a> Lexer<'a> {
    fn tokens(mut self) -> Vec<Token<'a>> {
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
                let word: &'a str = &self.rest[..length];
                self.advance(length);
                if let Some(kind) = QuoteLike::perl(self.language, word)
                    && let Some(open) = self.perl_delimiter()
                {
                    self.quote_like(kind, open, &mut tokens);
                    continue;
                }
                match Prefix::of(self.language, word).zip(self.quote_at(0)) {
                    Some((prefix, quote)) => {
                        let literal = self.literal(quote, prefix);
                        tokens.push(Token::Literal(literal));
                    }
                    None => match char_codes(word, self.rest) {
                        Some((text, length)) => {
                            self.advance(length);
                            tokens.push(Token::Literal(vec![Piece::Text(Cow::Owned(text))]));
                        }
                        None => tokens.push(Token::Word(word)),
                    },
                }
            } else if let Some((kind, open, length)) = self.ruby_percent(&tokens) {
                self.advance(length);
                self.quote_like(kind, open, &mut tokens);
            } else if self.language == Language::Python
                && let Some(length) = methods::slice_length(self.rest)
            {
                // A slice of a value: `"amat./~"[::-1]`, `"xtxaxmxa"[1::2]`.
                tokens.push(Token::Operator(&self.rest[..length]));
                self.advance(length);
            } else {
                let length = ["==", "=>", "=~", "!=", "+=", ".=", "<=", ">=", ".."]
                    .iter()
                    .find(|op| self.rest.starts_with(*op))
                    .map_or(c.len_utf8(), |op| op.len());
                let operator: &'a str = &self.rest[..length];
                tokens.push(Token::Operator(operator));
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
            // Lisp's quote marks a symbol or a list, not a string; C's,
            // Rust's and Java's a character or a lifetime; Tcl's nothing.
            '\'' if !matches!(
                self.language,
                Language::Awk
                    | Language::AppleScript
                    | Language::Lisp
                    | Language::Tcl
                    | Language::Compiled
            ) =>
            {
                Some("'")
            }
            // Julia's backquotes are a command; R's quote a name.
            '`' if !matches!(
                self.language,
                Language::Python
                    | Language::Awk
                    | Language::Lua
                    | Language::R
                    | Language::AppleScript
                    | Language::Lisp
                    | Language::Tcl
            ) =>
            {
                Some("`")
            }
            _ => None,
        }
    }

    /// The literal opened by `quote`, its escapes decoded as the language
    /// decodes them and its interpolations named.
    fn literal(&mut self, quote: &str, prefix: Prefix) -> Vec<Piece<'a>> {
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
        let raw: &'a str = &self.rest[..raw_end];
        self.advance(raw_end + quote.len());
        let single = quote.starts_with('\'');
        let interpolates = prefix.format
            || match self.language {
                Language::Python => false,
                Language::JavaScript => quote == "`",
                Language::Lua
                | Language::R
                | Language::AppleScript
                | Language::Lisp
                | Language::Tcl
                | Language::Compiled => false,
                _ => !single,
            };
        self.pieces(raw, single, interpolates, prefix.raw)
    }

    /// The pieces of a literal's text `raw`, its escapes decoded as the
    /// language decodes them in single or double quotes, and its
    /// interpolations named when it `interpolates`.
    fn pieces(
        &self,
        raw: &'a str,
        single: bool,
        interpolates: bool,
        keeps_escapes: bool,
    ) -> Vec<Piece<'a>> {
        let decode = |text: &'a str| self.decode(text, single, keeps_escapes);
        let mut pieces = Vec::new();
        let (mut start, mut at) = (0, 0);
        while let Some(rest) = raw.get(at..).filter(|rest| !rest.is_empty()) {
            if interpolates && let Some((name, length)) = self.interpolation(rest) {
                pieces.push(Piece::Text(decode(&raw[start..at])));
                pieces.push(Piece::Name(name));
                at += length;
                start = at;
                continue;
            }
            let mut chars = rest.chars();
            let first = chars.next().map_or(1, char::len_utf8);
            // An escaped character, or Python's `{{`, is never an interpolation.
            let paired = rest.starts_with('\\') || rest.starts_with("{{");
            at += first
                + if paired {
                    chars.next().map_or(0, char::len_utf8)
                } else {
                    0
                };
        }
        pieces.push(Piece::Text(decode(raw.get(start..).unwrap_or_default())));
        pieces
    }

    /// The opening delimiter of a Perl quote-like operator whose name was
    /// just read (`q(`, `qw{`, `qq |`), consumed; `None` where the name is
    /// something else (`q => 1`, `$q = 1`).
    fn perl_delimiter(&mut self) -> Option<char> {
        let trimmed = self.rest.trim_start();
        let open = trimmed.chars().next()?;
        let spaced = trimmed.len() < self.rest.len();
        if is_word_char(open)
            || open.is_whitespace()
            || matches!(open, '=' | ',' | ';' | ')' | ']' | '}' | '>')
            || (spaced && open == '#')
        {
            return None;
        }
        self.advance(self.rest.len() - trimmed.len() + open.len_utf8());
        Some(open)
    }

    /// A Ruby percent literal opening here (`%w(`, `%q{`, `%x[`, `%(`):
    /// its kind, opening delimiter and the length of its opening. A bare
    /// `%` opens one only where an operand is expected, else it is modulo.
    fn ruby_percent(&self, tokens: &[Token<'a>]) -> Option<(QuoteLike, char, usize)> {
        if self.language != Language::Ruby {
            return None;
        }
        let mut chars = self.rest.strip_prefix('%')?.chars();
        let first = chars.next()?;
        let (kind, open, length) = match QuoteLike::ruby(first) {
            Some(kind) => {
                let open = chars.next()?;
                (kind, open, 1 + first.len_utf8() + open.len_utf8())
            }
            None => {
                let operand_expected = match tokens.last() {
                    None => true,
                    Some(Token::Operator(operator)) => !matches!(*operator, ")" | "]" | "}"),
                    Some(_) => false,
                };
                if !operand_expected || !matches!(first, '(' | '[' | '{' | '<' | '|' | '!') {
                    return None;
                }
                (QuoteLike::INTERPOLATED, first, 1 + first.len_utf8())
            }
        };
        (!open.is_alphanumeric() && !open.is_whitespace()).then_some((kind, open, length))
    }

    /// The body of a quote-like literal whose opening delimiter `open` was
    /// consumed, pushed as one literal or, for a word list, one literal per
    /// word with commas between, as an argument list reads. Brackets nest.
    fn quote_like(&mut self, kind: QuoteLike, open: char, tokens: &mut Vec<Token<'a>>) {
        let close = match open {
            '(' => ')',
            '[' => ']',
            '{' => '}',
            '<' => '>',
            other => other,
        };
        let (mut depth, mut escaped) = (0_usize, false);
        let mut end = self.rest.len();
        for (at, c) in self.rest.char_indices() {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == close && depth == 0 {
                end = at;
                break;
            } else if c == close {
                depth -= 1;
            } else if c == open {
                depth += 1;
            }
        }
        let raw: &'a str = &self.rest[..end];
        self.advance(end + close.len_utf8());
        let single = !kind.interpolates;
        if !kind.words {
            tokens.push(Token::Literal(self.pieces(
                raw,
                single,
                kind.interpolates,
                false,
            )));
            return;
        }
        for (index, word) in raw.split_whitespace().enumerate() {
            if index > 0 {
                tokens.push(Token::Operator(","));
            }
            tokens.push(Token::Literal(self.pieces(
                word,
                single,
                kind.interpolates,
                false,
            )));
        }
    }

    /// An interpolation at the start of `text`: the name it reads, as
    /// assignments spell it, and its length.
    fn interpolation(&self, text: &'a str) -> Option<(Cow<'a, str>, usize)> {
        let braced = |open: &str| {
            let inner = text.strip_prefix(open)?;
            let end = inner.find('}')?;
            Some((inner[..end].trim(), open.len() + end + 1))
        };
        match self.language {
            Language::JavaScript => {
                braced("${").map(|(name, length)| (Cow::Borrowed(name), length))
            }
            Language::Ruby => braced("#{").map(|(name, length)| (Cow::Borrowed(name), length)),
            Language::Python => braced("{").map(|(name, length)| (Cow::Borrowed(name), length)),
            Language::Perl | Language::Php | Language::Julia => braced("${")
                .map(|(name, length)| match self.language {
                    Language::Julia => (Cow::Borrowed(name), length),
                    _ => (Cow::Owned(format!("${name}")), length),
                })
                .or_else(|| {
                    let name = text.strip_prefix('$')?;
                    let length = name
                        .find(|c: char| !is_word_char(c) || c == '$')
                        .unwrap_or(name.len());
                    // Perl and PHP spell the name with its `$`, Julia without.
                    let spelled = if self.language == Language::Julia {
                        &name[..length]
                    } else {
                        &text[..=length]
                    };
                    (length > 0).then(|| (Cow::Borrowed(spelled), length + 1))
                }),
            Language::Awk
            | Language::Lua
            | Language::R
            | Language::AppleScript
            | Language::Lisp
            | Language::Tcl
            | Language::Compiled => None,
        }
    }

    fn decode(&self, text: &'a str, single: bool, raw: bool) -> Cow<'a, str> {
        if raw || !text.contains('\\') {
            return Cow::Borrowed(text);
        }
        let single_quoted_raw = single
            && matches!(
                self.language,
                Language::Ruby | Language::Perl | Language::Php
            );
        if single_quoted_raw {
            return Cow::Owned(text.replace("\\\\", "\\").replace("\\'", "'"));
        }
        decode_escapes(text)
    }
}

/// A Perl quote-like operator (`q`, `qq`, `qw`, `qx`) or a Ruby percent
/// literal (`%q`, `%Q`, `%`, `%w`, `%W`, `%i`, `%I`, `%x`): whether it
/// fills in names, and whether it is a list of words. A command run by
/// `qx` or `%x` is a string like any other: every string is read as a
/// command a shell may get.
#[derive(Clone, Copy)]
struct QuoteLike {
    interpolates: bool,
    words: bool,
}

impl QuoteLike {
    const PLAIN: Self = Self {
        interpolates: false,
        words: false,
    };
    const INTERPOLATED: Self = Self {
        interpolates: true,
        words: false,
    };
    const WORDS: Self = Self {
        interpolates: false,
        words: true,
    };
    const INTERPOLATED_WORDS: Self = Self {
        interpolates: true,
        words: true,
    };

    fn perl(language: Language, word: &str) -> Option<Self> {
        if language != Language::Perl {
            return None;
        }
        Some(match word {
            "q" => Self::PLAIN,
            "qq" | "qx" => Self::INTERPOLATED,
            "qw" => Self::WORDS,
            _ => return None,
        })
    }

    fn ruby(kind: char) -> Option<Self> {
        Some(match kind {
            'q' => Self::PLAIN,
            'Q' | 'x' => Self::INTERPOLATED,
            'w' | 'i' => Self::WORDS,
            'W' | 'I' => Self::INTERPOLATED_WORDS,
            _ => return None,
        })
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

/// Characters given by their codes, `chr(46)` (Python, Perl, PHP),
/// `String.fromCharCode(46, 116)` (JavaScript), `string.char(46)` (Lua) or
/// `bytes([46, 116])` (Python),
/// where `rest` follows the function's name `word`: the text and the
/// length of the call's arguments.
fn char_codes(word: &str, rest: &str) -> Option<(String, usize)> {
    let (open, close) = match word {
        "chr" | "fromCharCode" | "char" => ("(", ")"),
        // Python's `bytes([116, 97])`, decoded after.
        "bytes" | "bytearray" => ("([", "])"),
        _ => return None,
    };
    let inner = rest.strip_prefix(open)?;
    let end = inner.find(close)?;
    let mut text = String::new();
    for code in inner[..end].split(',') {
        let code = code.trim();
        let number = match code.strip_prefix("0x").or_else(|| code.strip_prefix("0X")) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => code.parse().ok()?,
        };
        text.push(char::from_u32(number)?);
    }
    (word != "chr" || text.chars().count() == 1).then_some((text, open.len() + end + close.len()))
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '$' | '@')
}

/// A token after joins and names are resolved; a value by its place
/// among the values read.
#[derive(Clone, Copy)]
enum Item<'a> {
    Value(usize),
    Word(&'a str),
    Operator(&'a str),
}

/// Joins literals, fills in names assigned earlier, and collects values,
/// argument runs and name-value pairs.
fn fold(tokens: &[Token<'_>]) -> Strings {
    let mut strings = Strings::default();
    let mut variables: Vec<(&str, String)> = Vec::new();
    let mut items: Vec<Item<'_>> = Vec::new();
    let mut index = 0;
    while let Some(token) = tokens.get(index) {
        if let Some((value, next)) = chain(tokens, index, &variables, 0) {
            // `name = value`, `name += value`.
            if let [.., Item::Word(name), Item::Operator(operator)] = items.as_slice()
                && matches!(*operator, "=" | "+=" | ".=")
            {
                let earlier = lookup(&variables, name).filter(|_| *operator != "=");
                let value = capped(format!("{}{value}", earlier.unwrap_or_default()));
                variables.push((name, value));
            }
            items.push(Item::Value(strings.values.len()));
            strings.values.push(value);
            index = next;
            continue;
        }
        items.push(match token {
            Token::Word(word) => Item::Word(word),
            Token::Operator(operator) => Item::Operator(operator),
            Token::Literal(_) => Item::Operator(""),
        });
        index += 1;
    }
    collect(&items, &mut strings);
    strings
}

/// A value made of literals and names joined, starting at `start`, if it
/// holds a literal: the value and the index after it. Each piece has the
/// methods and operators after it applied first (`methods.rs`).
fn chain(
    tokens: &[Token<'_>],
    start: usize,
    variables: &[(&str, String)],
    depth: u32,
) -> Option<(String, usize)> {
    let read = |at: usize| read_value(tokens, at, variables, depth + 1);
    let mut value = String::new();
    let mut has_literal = false;
    let mut index = start;
    loop {
        let (piece, next) = match tokens.get(index) {
            Some(Token::Literal(pieces)) => {
                has_literal = true;
                let mut piece = String::new();
                for part in pieces {
                    match part {
                        Piece::Text(text) => piece.push_str(text),
                        Piece::Name(name) => piece.push_str(
                            lookup(variables, name)
                                .or_else(|| quoted_literal(name))
                                .unwrap_or_default(),
                        ),
                    }
                }
                (piece, index + 1)
            }
            Some(Token::Word(name))
                if depth < MAX_NESTING
                    && let Some(function) = one_argument_function(name) =>
            {
                match methods::one_argument(tokens, index + 1, &read) {
                    Some((value, next)) => {
                        has_literal = true;
                        (function(value), next)
                    }
                    None => break,
                }
            }
            // `codecs.decode("…", "rot13")`.
            Some(Token::Word("codecs")) if depth < MAX_NESTING => {
                match methods::codecs_call(tokens, index + 1, &read) {
                    Some(decoded) => {
                        has_literal = true;
                        decoded
                    }
                    None => break,
                }
            }
            Some(Token::Word(name)) if !name.starts_with(|c: char| c.is_ascii_digit()) => (
                lookup(variables, name).unwrap_or_default().to_owned(),
                index + 1,
            ),
            Some(Token::Operator("[")) if depth < MAX_NESTING => {
                match methods::joined_list(tokens, index, &read) {
                    Some(joined) => {
                        has_literal = true;
                        joined
                    }
                    None => break,
                }
            }
            _ => break,
        };
        let (piece, next) = if depth < MAX_NESTING {
            methods::apply(tokens, next, piece, &read)
        } else {
            (piece, next)
        };
        value.push_str(&piece);
        index = next;
        if value.len() > MAX_VALUE {
            value = capped(value);
        }
        match tokens.get(index) {
            // `+`, `.`, Lua's `..`, AppleScript's and Julia's `&` and `*`.
            Some(Token::Operator("+" | "." | ".." | "&" | "*")) => index += 1,
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

/// What a function of one string makes of it: Python's `reversed(…)` and
/// Perl's `reverse(…)` read it backwards, Perl's `lc` and `uc` change its
/// case, `b64decode`, `atob` and `unhexlify` decode it (left as it is when
/// it is no base64 or hex of text).
fn one_argument_function(name: &str) -> Option<fn(String) -> String> {
    Some(match name {
        "reversed" | "reverse" => |value: String| value.chars().rev().collect(),
        "lc" => |value: String| value.to_lowercase(),
        "uc" => |value: String| value.to_uppercase(),
        "b64decode" | "urlsafe_b64decode" | "decodebytes" | "atob" | "decode_base64"
        | "decode64" | "unhexlify" | "fromhex" => |value: String| decoded(&value).unwrap_or(value),
        _ => return None,
    })
}

/// How deeply values are read inside the arguments of other values.
const MAX_NESTING: u32 = 8;

/// One value an argument or list item gives: a joined value, a name's
/// value (empty when unknown), or a number as written.
fn read_value(
    tokens: &[Token<'_>],
    index: usize,
    variables: &[(&str, String)],
    depth: u32,
) -> Option<(String, usize)> {
    if depth > MAX_NESTING {
        return None;
    }
    chain(tokens, index, variables, depth).or_else(|| match tokens.get(index)? {
        Token::Word(word) => {
            let value = match lookup(variables, word) {
                Some(value) => value.to_owned(),
                None if word.starts_with(|c: char| c.is_ascii_digit()) => (*word).to_owned(),
                None => String::new(),
            };
            let (value, next) = methods::apply(tokens, index + 1, value, &|at| {
                read_value(tokens, at, variables, depth + 1)
            });
            // `os.path.expanduser(…)`: what a name's attribute or call gives
            // is not known.
            match methods::past_attributes(tokens, next) {
                after if after > next => Some((String::new(), after)),
                _ => Some((value, next)),
            }
        }
        _ => None,
    })
}

/// An interpolation that is a quoted literal itself (`${"n"}`, `#{'n'}`):
/// its text.
fn quoted_literal(name: &str) -> Option<&str> {
    ['"', '\'', '`'].iter().find_map(|quote| {
        name.strip_prefix(*quote)?
            .strip_suffix(*quote)
            .filter(|text| !text.contains(*quote))
    })
}

fn lookup<'v>(variables: &'v [(&str, String)], name: &str) -> Option<&'v str> {
    variables
        .iter()
        .rev()
        .find(|(known, _)| *known == name)
        .map(|(_, value)| value.as_str())
}

fn collect(items: &[Item<'_>], strings: &mut Strings) {
    let mut run: Vec<usize> = Vec::new();
    let mut starts: Vec<usize> = Vec::new();
    for (index, item) in items.iter().enumerate() {
        match item {
            Item::Value(value) => run.push(*value),
            Item::Operator(",") => {}
            Item::Operator("[" | "(") => {
                if !run.is_empty() {
                    starts.push(run.len());
                }
            }
            _ => end_run(&mut run, &mut starts, strings),
        }
        if let Some(pair) = pair_at(items, index, &strings.values) {
            strings.pairs.push(pair);
        }
    }
    end_run(&mut run, &mut starts, strings);
}

/// Keeps a run of two or more values as an argument vector, and each part
/// of it after an opening bracket (`execvp("git", ["git", …])`).
fn end_run(run: &mut Vec<usize>, starts: &mut Vec<usize>, strings: &mut Strings) {
    if run.len() > 1 {
        let list = |from: usize| -> Vec<String> {
            run.get(from..)
                .unwrap_or_default()
                .iter()
                .filter_map(|&value| strings.values.get(value).cloned())
                .collect()
        };
        let mut lists: Vec<Vec<String>> = starts
            .iter()
            .filter(|&&start| run.len() - start > 1)
            .map(|&start| list(start))
            .collect();
        lists.push(list(0));
        strings.lists.extend(lists);
    }
    run.clear();
    starts.clear();
}

/// An environment variable's `NAME` then a value, with only `]`, `}`, `)`,
/// `:`, `=`, `=>` or `,` between: how the languages set a variable or a map
/// entry.
fn pair_at<'a>(items: &[Item<'a>], index: usize, values: &'a [String]) -> Option<(String, String)> {
    let text = |item: &Item<'a>| -> Option<&'a str> {
        match *item {
            Item::Value(value) => values.get(value).map(String::as_str),
            Item::Word(word) => Some(word),
            Item::Operator(_) => None,
        }
    };
    let name = text(items.get(index)?)?.trim_start_matches('$');
    let is_name = name.starts_with(|c: char| c.is_ascii_uppercase() || c == '_')
        && name
            .bytes()
            .all(|byte| byte.is_ascii_uppercase() || byte.is_ascii_digit() || byte == b'_');
    if !is_name {
        return None;
    }
    for item in items.get(index + 1..)? {
        match item {
            Item::Operator("]" | "}" | ")" | ":" | "=" | "=>" | ",") => {}
            Item::Operator(_) => return None,
            value => return text(value).map(|value| (name.to_owned(), value.to_owned())),
        }
    }
    None
}
