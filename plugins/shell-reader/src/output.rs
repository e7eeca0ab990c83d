//! What `echo` and `printf` print, for substitutions, pipes and files that
//! later commands read. The words are a gate's expanded words: fields, or
//! plain text.

use crate::prelude::*;

use crate::shell::decode_escapes;

/// Words joined by spaces, as `eval` and `ssh` join their arguments.
pub fn joined<W: AsRef<str>>(args: &[W]) -> String {
    let length: usize = args.iter().map(|arg| arg.as_ref().len() + 1).sum();
    let mut out = String::with_capacity(length);
    for (index, arg) in args.iter().enumerate() {
        if index > 0 {
            out.push(' ');
        }
        out.push_str(arg.as_ref());
    }
    out
}

/// `echo [-neE] args…`.
pub fn echo<W: AsRef<str>>(args: &[W]) -> String {
    let mut newline = true;
    let mut escapes = false;
    let mut start = 0;
    for arg in args {
        let Some(flags) = arg.as_ref().strip_prefix('-') else {
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
pub fn printf<W: AsRef<str>>(args: &[W]) -> String {
    let Some((format, mut rest)) = args.split_first() else {
        return String::new();
    };
    let format = decode_escapes(format.as_ref());
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
                    let value = rest.first().map_or("", AsRef::as_ref);
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
