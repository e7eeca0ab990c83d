//! Decoding of bash's ANSI-C quoting, `$'…'`.

use crate::prelude::*;

use alloc::borrow::Cow;

/// The value of the text between `$'` and `'`.
pub fn decode(raw: &str) -> Cow<'_, str> {
    if !raw.contains('\\') {
        return Cow::Borrowed(raw);
    }
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(escape) = chars.next() else {
            out.push('\\');
            break;
        };
        match escape {
            'a' => out.push('\u{7}'),
            'b' => out.push('\u{8}'),
            'e' | 'E' => out.push('\u{1b}'),
            'f' => out.push('\u{c}'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'v' => out.push('\u{b}'),
            '\\' | '\'' | '"' | '?' => out.push(escape),
            '0'..='7' => {
                let value = digits(&mut chars, 8, 2, escape.to_digit(8).unwrap_or(0));
                push_code(&mut out, value);
            }
            'x' => push_escaped(&mut out, &mut chars, 16, 2, "\\x"),
            'u' => push_escaped(&mut out, &mut chars, 16, 4, "\\u"),
            'U' => push_escaped(&mut out, &mut chars, 16, 8, "\\U"),
            'c' => match chars.next() {
                Some(control) => push_code(&mut out, u32::from(control) & 0x1f),
                None => out.push_str("\\c"),
            },
            other => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    Cow::Owned(out)
}

/// Reads up to `max` more digits in `radix` after `initial`.
fn digits(
    chars: &mut core::iter::Peekable<core::str::Chars<'_>>,
    radix: u32,
    max: usize,
    initial: u32,
) -> u32 {
    let mut value = initial;
    for _ in 0..max {
        match chars.peek().and_then(|c| c.to_digit(radix)) {
            Some(digit) => {
                value = value.saturating_mul(radix).saturating_add(digit);
                chars.next();
            }
            None => break,
        }
    }
    value
}

/// `\xHH`, `\uHHHH`, `\UHHHHHHHH`; without digits the escape stays as written.
fn push_escaped(
    out: &mut String,
    chars: &mut core::iter::Peekable<core::str::Chars<'_>>,
    radix: u32,
    max: usize,
    written: &str,
) {
    if chars.peek().and_then(|c| c.to_digit(radix)).is_none() {
        out.push_str(written);
        return;
    }
    push_code(out, digits(chars, radix, max, 0));
}

fn push_code(out: &mut String, code: u32) {
    out.push(char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER));
}
