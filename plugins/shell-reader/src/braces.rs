//! Brace expansion of comma lists, as in `mv .git/hooks/pre-commit{,.bak}`,
//! and of sequences, as in `{1..3}` and `{a..e..2}`.

use crate::prelude::*;

use crate::field::{Field, UNKNOWN_TEXT};

/// How many words one word may expand to, and how many brace groups deep.
const MAX_WORDS: usize = 64;
const MAX_GROUPS: u32 = 16;

/// Pushes the words `text` expands to: `a{b,c}d` gives `abd` and `acd`,
/// `{1..3}` gives `1`, `2` and `3`. Braces with neither a comma nor a
/// sequence stay as written. Past [`MAX_WORDS`] the rest is one word the
/// gate cannot know.
pub fn expand(text: &str, out: &mut Vec<Field<'_>>) {
    let mut budget = MAX_WORDS;
    expand_within(text, out, &mut budget, 0);
}

fn expand_within(text: &str, out: &mut Vec<Field<'_>>, budget: &mut usize, depth: u32) {
    if *budget == 0 {
        return;
    }
    if *budget == 1 && first_group(text).is_some() {
        *budget = 0;
        out.push(Field::new(UNKNOWN_TEXT));
        return;
    }
    match first_group(text).filter(|_| depth < MAX_GROUPS) {
        Some((prefix, alternatives, suffix)) => {
            for alternative in alternatives {
                expand_within(
                    &format!("{prefix}{alternative}{suffix}"),
                    out,
                    budget,
                    depth + 1,
                );
            }
        }
        None => {
            *budget -= 1;
            out.push(Field::new(text.to_owned()));
        }
    }
}

/// The first `{…,…}` or `{x..y}` group: the text before it, its
/// alternatives, the text after.
fn first_group(text: &str) -> Option<(&str, Vec<String>, &str)> {
    for (open, _) in text.match_indices('{') {
        let mut depth = 0u32;
        let mut start = open + 1;
        let mut alternatives = Vec::new();
        for (at, byte) in text.bytes().enumerate().skip(open) {
            match byte {
                b'{' => depth += 1,
                b',' if depth == 1 => {
                    alternatives.push(text.get(start..at)?.to_owned());
                    start = at + 1;
                }
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        if alternatives.is_empty() {
                            match sequence(text.get(start..at)?) {
                                Some(sequence) => alternatives = sequence,
                                None => break,
                            }
                        } else {
                            alternatives.push(text.get(start..at)?.to_owned());
                        }
                        return Some((text.get(..open)?, alternatives, text.get(at + 1..)?));
                    }
                }
                _ => {}
            }
        }
    }
    None
}

/// The words of a sequence `x..y` or `x..y..step`, of integers or of
/// single characters, at most [`MAX_WORDS`] of them; `None` for other text.
fn sequence(inside: &str) -> Option<Vec<String>> {
    let mut parts = inside.split("..");
    let (first, last) = (parts.next()?, parts.next()?);
    let step = match parts.next() {
        Some(step) => step.parse::<i64>().ok()?.unsigned_abs().max(1),
        None => 1,
    };
    if parts.next().is_some() {
        return None;
    }
    let (from, to, letters) = match (first.parse::<i64>(), last.parse::<i64>()) {
        (Ok(from), Ok(to)) => (from, to, false),
        _ => {
            let (mut a, mut b) = (first.chars(), last.chars());
            let (from, to) = (a.next()?, b.next()?);
            if a.next().is_some() || b.next().is_some() || !from.is_ascii() || !to.is_ascii() {
                return None;
            }
            (i64::from(u32::from(from)), i64::from(u32::from(to)), true)
        }
    };
    let count = from.abs_diff(to) / step + 1;
    if count > MAX_WORDS as u64 {
        return Some(vec![UNKNOWN_TEXT.to_owned()]);
    }
    let word = |value: i64| match letters {
        true => u32::try_from(value)
            .ok()
            .and_then(char::from_u32)
            .map(String::from),
        false => Some(value.to_string()),
    };
    let steps = (0..count).map(|n| n * step);
    let values: Vec<i64> = if from <= to {
        steps
            .filter_map(|n| from.checked_add(i64::try_from(n).ok()?))
            .collect()
    } else {
        steps
            .filter_map(|n| from.checked_sub(i64::try_from(n).ok()?))
            .collect()
    };
    values.into_iter().map(word).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        expand(text, &mut out);
        out.into_iter()
            .map(|field| field.text.into_owned())
            .collect()
    }

    #[test]
    fn comma_lists_expand() {
        assert_eq!(words("pre-commit{,.bak}"), ["pre-commit", "pre-commit.bak"]);
        assert_eq!(words("h/{a,b}/{c,d}"), ["h/a/c", "h/a/d", "h/b/c", "h/b/d"]);
        assert_eq!(words("{a,{b,c}}x"), ["ax", "bx", "cx"]);
        assert_eq!(words("{1..3}"), ["1", "2", "3"]);
        assert_eq!(words(".ta{l..n}a"), [".tala", ".tama", ".tana"]);
        assert_eq!(words("{5..1..2}"), ["5", "3", "1"]);
        assert_eq!(words("{a..}"), ["{a..}"]);
        assert_eq!(words("{1..100000}").len(), 1);
        assert_eq!(words("${x}"), ["${x}"]);
        assert_eq!(words("{a,b"), ["{a,b"]);
        assert_eq!(words(&"{a,b}".repeat(40)).len(), MAX_WORDS);
    }
}
