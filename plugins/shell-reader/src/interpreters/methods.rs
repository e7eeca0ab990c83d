//! What code does to a string just after it, or a call around it: case
//! changes, reversal (`[::-1]`, `.reverse`, `reversed(…)`),
//! filling in placeholders (`'~/.%s' % 'tama'`, `'{}'.format(x)`) and
//! joining a list (`''.join(['t', 'a'])`, `['t', 'a'].join('')`), so that a
//! path assembled from pieces reads as the path it makes.

use crate::prelude::*;

use super::strings::Token;

/// A call's argument: its keyword (`name=value`), if any, and its value.
type Argument = (Option<String>, String);

/// Reads one value at `index`: the value and the index after it.
pub(super) type ReadValue<'r> = &'r dyn Fn(usize) -> Option<(String, usize)>;

/// `value` with the methods and operators that follow it at `index`
/// applied, and the index after them.
pub(super) fn apply(
    tokens: &[Token<'_>],
    mut index: usize,
    mut value: String,
    read: ReadValue<'_>,
) -> (String, usize) {
    loop {
        let applied = match tokens.get(index) {
            Some(Token::Operator(slice)) if slice.starts_with('[') && slice.len() > 1 => {
                sliced(&value, slice).map(|value| (value, index + 1))
            }
            Some(Token::Operator("%")) => percent_arguments(tokens, index + 1, read)
                .map(|(args, next)| (fill_percent(&value, &args), next)),
            Some(Token::Operator(".")) => match tokens.get(index + 1) {
                Some(Token::Word(method)) => method_call(tokens, index + 2, method, &value, read),
                _ => None,
            },
            _ => None,
        };
        match applied {
            Some((next_value, next)) => (value, index) = (next_value, next),
            None => return (value, index),
        }
    }
}

/// The length of a Python slice of literal numbers at the start of `rest`
/// (`[::-1]`, `[1::2]`, `[2:-1]`), if one is there.
pub(super) fn slice_length(rest: &str) -> Option<usize> {
    let inner = rest.strip_prefix('[')?;
    let end = inner.find(']')?;
    let parts: Vec<&str> = inner[..end].split(':').collect();
    let numbers = parts.iter().all(|part| {
        let digits = part.trim().strip_prefix('-').unwrap_or(part.trim());
        digits.bytes().all(|b| b.is_ascii_digit())
    });
    (matches!(parts.len(), 2 | 3) && numbers).then_some(end + 2)
}

/// `value[start:stop:step]` as Python takes it, over characters.
fn sliced(value: &str, slice: &str) -> Option<String> {
    let chars: Vec<char> = value.chars().collect();
    let length = i64::try_from(chars.len()).ok()?;
    let parts: Vec<Option<i64>> = slice
        .trim_start_matches('[')
        .trim_end_matches(']')
        .split(':')
        .map(|part| part.trim().parse::<i64>().ok())
        .collect();
    let step = parts.get(2).copied().flatten().unwrap_or(1);
    if step == 0 {
        return None;
    }
    // A bound counts from the end when negative, and is clamped as Python clamps it.
    let bound = |given: Option<i64>, default: i64, low: i64, high: i64| {
        given
            .map(|at| if at < 0 { at + length } else { at })
            .map_or(default, |at| at.clamp(low, high))
    };
    let (low, high) = if step > 0 {
        (0, length)
    } else {
        (-1, length - 1)
    };
    let (start_default, stop_default) = if step > 0 {
        (0, length)
    } else {
        (length - 1, -1)
    };
    let mut at = bound(parts.first().copied().flatten(), start_default, low, high);
    let stop = bound(parts.get(1).copied().flatten(), stop_default, low, high);
    let mut out = String::new();
    while (step > 0 && at < stop) || (step < 0 && at > stop) {
        out.extend(usize::try_from(at).ok().and_then(|at| chars.get(at)));
        at += step;
    }
    Some(out)
}

/// `codecs.decode(TEXT, "rot13")` or `codecs.encode(…)` at `index` (after
/// the module's name): TEXT with its letters turned by thirteen, and the
/// index after the call.
pub(super) fn codecs_call(
    tokens: &[Token<'_>],
    index: usize,
    read: ReadValue<'_>,
) -> Option<(String, usize)> {
    let [Token::Operator("."), Token::Word("decode" | "encode"), ..] = tokens.get(index..)? else {
        return None;
    };
    let (args, next) = arguments(tokens, index + 2, read)?;
    let [(None, text), (_, codec)] = args.as_slice() else {
        return None;
    };
    if !matches!(
        codec.to_ascii_lowercase().as_str(),
        "rot13" | "rot_13" | "rot-13"
    ) {
        return None;
    }
    let turned = text
        .chars()
        .map(|c| match c {
            'a'..='z' => char::from(b'a' + (c as u8 - b'a' + 13) % 26),
            'A'..='Z' => char::from(b'A' + (c as u8 - b'A' + 13) % 26),
            _ => c,
        })
        .collect();
    Some((turned, next))
}

/// A list of values (`['t', 'a']`) at `index` joined by a `.join(sep)`
/// after it: the joined value and the index after the call.
pub(super) fn joined_list(
    tokens: &[Token<'_>],
    index: usize,
    read: ReadValue<'_>,
) -> Option<(String, usize)> {
    let (items, next) = list(tokens, index, "[", "]", read)?;
    let [Token::Operator("."), Token::Word("join"), ..] = tokens.get(next..)? else {
        return None;
    };
    let (separator, after) = arguments(tokens, next + 2, read)?;
    let separator = separator.first().map_or(",", |(_, value)| value.as_str());
    Some((items.join(separator), after))
}

/// The method `name` called on `value`, its arguments from `index`.
fn method_call(
    tokens: &[Token<'_>],
    index: usize,
    name: &str,
    value: &str,
    read: ReadValue<'_>,
) -> Option<(String, usize)> {
    let changed = match name {
        "lower" | "casefold" | "toLowerCase" | "toLocaleLowerCase" | "downcase" => {
            value.to_lowercase()
        }
        "upper" | "toUpperCase" | "toLocaleUpperCase" | "upcase" => value.to_uppercase(),
        "strip" | "trim" => value.trim().to_owned(),
        // Ruby's `.reverse`, and JavaScript's on the characters `split('')` gave.
        "reverse" => value.chars().rev().collect(),
        // JavaScript's `split('')`: the characters, kept here as the string.
        "split" => {
            let (args, next) = arguments(tokens, index, read)?;
            let [(None, separator)] = args.as_slice() else {
                return None;
            };
            return separator.is_empty().then(|| (value.to_owned(), next));
        }
        "format" => {
            let (args, next) = arguments(tokens, index, read)?;
            return Some((fill_braces(value, &args), next));
        }
        "join" => {
            let (args, next) = arguments(tokens, index, read)?;
            let joined = match args.as_slice() {
                // `sep.join(['a', 'b'])` gives the list as its one argument;
                // `''.join(reversed(…))` a string, whose characters it joins;
                // JavaScript's `chars.join('')` joins the characters
                // `split('')` left in place.
                [(_, text)] => match list_argument(tokens, index, read) {
                    Some(items) => items.join(value),
                    None if text.is_empty() => value.to_owned(),
                    None => text
                        .chars()
                        .map(String::from)
                        .collect::<Vec<_>>()
                        .join(value),
                },
                _ => String::new(),
            };
            return Some((joined, next));
        }
        _ => return None,
    };
    // `()` after the name, or nothing (Ruby's `.downcase`).
    let next = match tokens.get(index..) {
        Some([Token::Operator("("), Token::Operator(")"), ..]) => index + 2,
        _ => index,
    };
    Some((changed, next))
}

/// The one argument of a call at `index` (Python's `reversed('amat./~')`,
/// Perl's `reverse("…")`, `b64decode("LW4=")`), and the index after the
/// call.
pub(super) fn one_argument(
    tokens: &[Token<'_>],
    index: usize,
    read: ReadValue<'_>,
) -> Option<(String, usize)> {
    let (args, next) = arguments(tokens, index, read)?;
    let [(None, value)] = args.as_slice() else {
        return None;
    };
    Some((value.clone(), next))
}

/// The items of the one list or tuple a call at `index` is given.
fn list_argument(tokens: &[Token<'_>], index: usize, read: ReadValue<'_>) -> Option<Vec<String>> {
    let Some(Token::Operator("(")) = tokens.get(index) else {
        return None;
    };
    list(tokens, index + 1, "[", "]", read)
        .or_else(|| list(tokens, index + 1, "(", ")", read))
        .map(|(items, _)| items)
}

/// What `%` is given: one value, or a tuple of them.
fn percent_arguments(
    tokens: &[Token<'_>],
    index: usize,
    read: ReadValue<'_>,
) -> Option<(Vec<Argument>, usize)> {
    match tokens.get(index) {
        Some(Token::Operator("(")) => arguments(tokens, index, read),
        _ => read(index).map(|(value, next)| (vec![(None, value)], next)),
    }
}

/// The arguments of a call whose `(` is at `index`, each with its keyword
/// (`name=value`) when it has one, and the index after the `)`. A list or
/// tuple argument reads as empty; [`list_argument`] reads its items.
fn arguments(
    tokens: &[Token<'_>],
    index: usize,
    read: ReadValue<'_>,
) -> Option<(Vec<Argument>, usize)> {
    let Some(Token::Operator("(")) = tokens.get(index) else {
        return None;
    };
    let mut args = Vec::new();
    let mut at = index + 1;
    loop {
        match tokens.get(at)? {
            Token::Operator(")") => return Some((args, at + 1)),
            Token::Operator(",") => at += 1,
            Token::Operator(open @ ("[" | "(")) => {
                let close = if *open == "[" { "]" } else { ")" };
                let (_, next) = list(tokens, at, open, close, read)?;
                args.push((None, String::new()));
                at = next;
            }
            Token::Word(name) if matches!(tokens.get(at + 1), Some(Token::Operator("="))) => {
                let (value, next) = read(at + 2)?;
                args.push((Some((*name).to_owned()), value));
                at = next;
            }
            _ => {
                let (value, next) = read(at)?;
                args.push((None, value));
                at = past_calls(tokens, next);
            }
        }
    }
}

/// The values of a list opened by `open` at `index`, and the index after
/// its `close`.
fn list(
    tokens: &[Token<'_>],
    index: usize,
    open: &str,
    close: &str,
    read: ReadValue<'_>,
) -> Option<(Vec<String>, usize)> {
    if !matches!(tokens.get(index), Some(Token::Operator(o)) if *o == open) {
        return None;
    }
    let mut items = Vec::new();
    let mut at = index + 1;
    loop {
        match tokens.get(at)? {
            Token::Operator(o) if *o == close => return Some((items, at + 1)),
            Token::Operator(",") => at += 1,
            _ => {
                let (value, next) = read(at)?;
                items.push(value);
                at = past_calls(tokens, next);
            }
        }
    }
}

/// The index after the attributes and calls at `index` (`.path.join(…)`).
pub(super) fn past_attributes(tokens: &[Token<'_>], mut index: usize) -> usize {
    loop {
        let after_calls = past_calls(tokens, index);
        match tokens.get(after_calls..) {
            Some([Token::Operator("."), Token::Word(_), ..]) => index = after_calls + 2,
            _ => return after_calls,
        }
    }
}

/// The index after the calls' argument lists at `index` (`f(…)(…)`): what a
/// call returns is not known.
fn past_calls(tokens: &[Token<'_>], mut index: usize) -> usize {
    while let Some(Token::Operator("(")) = tokens.get(index) {
        let mut depth = 0usize;
        for (at, token) in tokens.iter().enumerate().skip(index) {
            match token {
                Token::Operator("(") => depth += 1,
                Token::Operator(")") => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                index = at + 1;
                break;
            }
        }
        if depth > 0 {
            return tokens.len();
        }
    }
    index
}

/// `%s`, `%r`, `%d` and `%i` filled in order; `%%` is `%`.
fn fill_percent(format: &str, args: &[Argument]) -> String {
    let mut args = args.iter().map(|(_, value)| value.as_str());
    let mut out = String::new();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('%') => out.push('%'),
            Some('s' | 'r' | 'd' | 'i') => out.push_str(args.next().unwrap_or_default()),
            Some(other) => {
                out.push('%');
                out.push(other);
            }
            None => out.push('%'),
        }
    }
    out
}

/// `{}` filled in order, `{0}` by place and `{name}` by keyword; `{{` and
/// `}}` are braces.
fn fill_braces(format: &str, args: &[Argument]) -> String {
    let positional: Vec<&str> = args
        .iter()
        .filter(|(name, _)| name.is_none())
        .map(|(_, value)| value.as_str())
        .collect();
    let mut next = 0;
    let mut out = String::new();
    let mut rest = format;
    while let Some(at) = rest.find(['{', '}']) {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        if rest.starts_with("{{") || rest.starts_with("}}") {
            out.push_str(&rest[..1]);
            rest = &rest[2..];
            continue;
        }
        let Some(end) = rest.find('}').filter(|_| rest.starts_with('{')) else {
            out.push_str(&rest[..1]);
            rest = &rest[1..];
            continue;
        };
        let field = rest[1..end].split([':', '!']).next().unwrap_or_default();
        let value = if field.is_empty() {
            next += 1;
            positional.get(next - 1).copied()
        } else if let Ok(place) = field.parse::<usize>() {
            positional.get(place).copied()
        } else {
            args.iter()
                .find(|(name, _)| name.as_deref() == Some(field))
                .map(|(_, value)| value.as_str())
        };
        out.push_str(value.unwrap_or_default());
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}
