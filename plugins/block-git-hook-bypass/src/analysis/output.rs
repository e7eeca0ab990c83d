//! What `echo` and `printf` print, for substitutions, pipes and files that
//! later commands read.

use crate::prelude::*;

use crate::field::Field;
use crate::shell::decode_escapes;

/// Fields joined by spaces, as `eval` and `ssh` join their arguments.
pub fn joined(args: &[Field<'_>]) -> String {
    let length: usize = args.iter().map(|arg| arg.text.len() + 1).sum();
    let mut out = String::with_capacity(length);
    for (index, arg) in args.iter().enumerate() {
        if index > 0 {
            out.push(' ');
        }
        out.push_str(&arg.text);
    }
    out
}

/// `echo [-neE] args…`.
pub fn echo(args: &[Field<'_>]) -> String {
    let mut newline = true;
    let mut escapes = false;
    let mut start = 0;
    for arg in args {
        let Some(flags) = arg.text.strip_prefix('-') else {
            break;
        };
        if flags.is_empty() || !flags.bytes().all(|byte| b"neE".contains(&byte)) {
            break;
        }
        newline &= !flags.contains('n');
        escapes = flags.bytes().fold(escapes, |on, byte| match byte {
            b'e' => true,
            b'E' => false,
            _ => on,
        });
        start += 1;
    }
    let mut out = joined(args.get(start..).unwrap_or_default());
    if escapes {
        out = decode_escapes(&out).into_owned();
    }
    if newline {
        out.push('\n');
    }
    out
}

/// `printf format [args…]`, for `%s`, `%b`, `%d` and `%%`; the format is
/// reused while arguments remain, as printf does.
pub fn printf(args: &[Field<'_>]) -> String {
    let Some((format, mut rest)) = args.split_first() else {
        return String::new();
    };
    let format = decode_escapes(&format.text);
    let mut out = String::new();
    for _ in 0..16 {
        let mut chars = format.chars();
        let mut consumed = false;
        while let Some(c) = chars.next() {
            if c != '%' {
                out.push(c);
                continue;
            }
            let mut conversion = chars.next();
            while conversion.is_some_and(|c| c.is_ascii_digit() || "-+ #.".contains(c)) {
                conversion = chars.next();
            }
            match conversion {
                Some('%') => out.push('%'),
                Some(kind) => {
                    let value = rest.first().map_or("", |arg| &*arg.text);
                    rest = rest.get(1..).unwrap_or_default();
                    consumed = true;
                    if kind == 'b' {
                        out.push_str(&decode_escapes(value));
                    } else {
                        out.push_str(value);
                    }
                }
                None => out.push('%'),
            }
        }
        if rest.is_empty() || !consumed {
            break;
        }
    }
    out
}
