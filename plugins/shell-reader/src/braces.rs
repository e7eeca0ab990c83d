//! Brace expansion of comma lists, as in `mv .git/hooks/pre-commit{,.bak}`.

use crate::prelude::*;

use crate::field::Field;

/// How many words one word may expand to, and how many brace groups deep.
const MAX_WORDS: usize = 64;
const MAX_GROUPS: u32 = 16;

/// Pushes the words `text` expands to: `a{b,c}d` gives `abd` and `acd`.
/// Sequences such as `{1..3}` and braces without a comma stay as written.
pub fn expand(text: &str, out: &mut Vec<Field<'_>>) {
    let mut budget = MAX_WORDS;
    expand_within(text, out, &mut budget, 0);
}

fn expand_within(text: &str, out: &mut Vec<Field<'_>>, budget: &mut usize, depth: u32) {
    if *budget == 0 {
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

/// The first `{…,…}` group: the text before it, its alternatives, the text after.
fn first_group(text: &str) -> Option<(&str, Vec<&str>, &str)> {
    for (open, _) in text.match_indices('{') {
        let mut depth = 0u32;
        let mut start = open + 1;
        let mut alternatives = Vec::new();
        for (at, byte) in text.bytes().enumerate().skip(open) {
            match byte {
                b'{' => depth += 1,
                b',' if depth == 1 => {
                    alternatives.push(text.get(start..at)?);
                    start = at + 1;
                }
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        if alternatives.is_empty() {
                            break;
                        }
                        alternatives.push(text.get(start..at)?);
                        return Some((text.get(..open)?, alternatives, text.get(at + 1..)?));
                    }
                }
                _ => {}
            }
        }
    }
    None
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
        assert_eq!(words("{1..3}"), ["{1..3}"]);
        assert_eq!(words("${x}"), ["${x}"]);
        assert_eq!(words("{a,b"), ["{a,b"]);
        assert_eq!(words(&"{a,b}".repeat(40)).len(), MAX_WORDS);
    }
}
