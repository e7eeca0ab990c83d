//! What a command prints, where the gate can tell: the text a pipe hands
//! the next command (`echo 'rm -rf …' | sh`) and a redirection writes to a
//! file (`echo … > s.sh; sh s.sh`).

use crate::prelude::*;

use crate::commands::basename;
use crate::walk::Walker;

/// What `argv`, reading `stdin`, prints: `echo`, `printf` and `cat` of its
/// input or of files this command wrote; `None` for anything else.
pub fn of(walker: &Walker<'_>, argv: &[String], stdin: Option<&str>) -> Option<String> {
    let (name, args) = argv.split_first()?;
    match basename(name) {
        "echo" => Some(echo(args)),
        "printf" => printf(args),
        "cat" => {
            let files: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
            if files.is_empty() {
                return stdin.map(str::to_owned);
            }
            files.iter().map(|file| walker.written(file)).collect()
        }
        _ => None,
    }
}

/// `echo [-neE] WORDS`: `-e` escapes read for newlines and tabs only.
fn echo(args: &[String]) -> String {
    let flags = args
        .iter()
        .take_while(|a| {
            a.len() > 1 && a.starts_with('-') && a[1..].chars().all(|c| "neE".contains(c))
        })
        .count();
    let newline = !args[..flags].iter().any(|a| a.contains('n'));
    let escapes = args[..flags].iter().any(|a| a.contains('e'));
    let mut text = args[flags..].join(" ");
    if escapes {
        text = unescape(&text);
    }
    if newline {
        text.push('\n');
    }
    text
}

/// `printf FORMAT ARGS`: each conversion takes the next argument as text.
fn printf(args: &[String]) -> Option<String> {
    let (format, values) = args.split_first()?;
    if format.starts_with('-') {
        return None;
    }
    let mut values = values.iter();
    let mut out = String::new();
    let mut chars = unescape(format)
        .chars()
        .collect::<Vec<_>>()
        .into_iter()
        .peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        if chars.peek() == Some(&'%') {
            chars.next();
            out.push('%');
            continue;
        }
        // Flags, width and precision, then the conversion letter.
        while chars.next_if(|c| !c.is_ascii_alphabetic()).is_some() {}
        chars.next();
        out.push_str(values.next().map_or("", String::as_str));
    }
    Some(out)
}

/// `\n`, `\t` and `\\` as the characters they stand for.
fn unescape(text: &str) -> String {
    text.replace("\\n", "\n")
        .replace("\\t", "\t")
        .replace("\\\\", "\\")
}
