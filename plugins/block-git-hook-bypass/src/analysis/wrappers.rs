//! Commands that run the command given in their arguments (`sudo`, `timeout`,
//! `nice`, …): where that command starts.

use crate::field::Field;

/// How a wrapper's arguments read: its options that take a value, and how
/// many operands come before the command (`timeout 10 cmd` has one).
pub struct Spec {
    short_values: &'static str,
    long_values: &'static [&'static str],
    operands: usize,
}

pub const fn spec(
    short_values: &'static str,
    long_values: &'static [&'static str],
    operands: usize,
) -> Spec {
    Spec {
        short_values,
        long_values,
        operands,
    }
}

/// Where the wrapped command starts in a wrapper's arguments.
pub fn inner_command(spec: &Spec, args: &[Field<'_>]) -> usize {
    skip_options(args, spec.short_values, spec.long_values) + spec.operands
}

/// The index of the first argument after the leading options.
pub fn skip_options(args: &[Field<'_>], short_values: &str, long_values: &[&str]) -> usize {
    let mut index = 0;
    while let Some(arg) = args.get(index) {
        let text = &*arg.text;
        if text == "--" {
            return index + 1;
        }
        if !text.starts_with('-') || text == "-" {
            return index;
        }
        index += 1;
        if text.starts_with("--") {
            if long_values.contains(&text) {
                index += 1;
            }
            continue;
        }
        let cluster = text.get(1..).unwrap_or("");
        if let Some(at) = cluster.find(|c| short_values.contains(c))
            && at + 1 == cluster.len()
        {
            index += 1;
        }
    }
    index
}

/// Whether a word is `NAME=value` with a valid variable name.
pub fn split_assignment(text: &str) -> Option<(&str, &str)> {
    let (name, value) = text.split_once('=')?;
    let mut bytes = name.bytes();
    let valid = bytes
        .next()
        .is_some_and(|byte| byte.is_ascii_alphabetic() || byte == b'_')
        && bytes.all(|byte| byte.is_ascii_alphanumeric() || byte == b'_');
    valid.then_some((name, value))
}
