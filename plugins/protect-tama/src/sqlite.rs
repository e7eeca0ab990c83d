//! What the `sqlite3` shell does beyond its database: dot-commands that
//! write a file (`.output`, `.once`, `.save`, `.backup`, `.open`, `.log`)
//! or run a shell command (`.shell`, `.system`, a `|command` given as a
//! file), and the SQL of its shell that writes a file (`writefile`,
//! `ATTACH`, `VACUUM INTO`) or reads every file of a folder (`fsdir`).

use crate::prelude::*;

use shell_reader::field::UNKNOWN;

use crate::commands::{operands, option_values};
use crate::protected::Change;
use crate::walk::{Result, Walker};

/// Options of `sqlite3` that take a value.
const VALUED: &[&str] = &[
    "-cmd",
    "-separator",
    "-newline",
    "-nullvalue",
    "-init",
    "-vfs",
    "-maxsize",
    "-mmap",
    "-heap",
    "-lookaside",
    "-pagecache",
];

/// Checks the commands `sqlite3 args…` runs: `-cmd`'s, the SQL after the
/// database, else what it reads on its input.
pub fn check(walker: &mut Walker<'_>, args: &[String], stdin: Option<&str>) -> Result<()> {
    let mut texts = option_values(args, &["-cmd"]);
    let sql: Vec<String> = operands(args, VALUED).into_iter().skip(1).collect();
    match (sql.is_empty(), stdin) {
        (true, Some(stdin)) => texts.push(stdin.to_owned()),
        _ => texts.extend(sql),
    }
    for text in &texts {
        for line in text.lines().map(str::trim) {
            if line.starts_with('.') {
                dot_command(walker, line)?;
            }
        }
        sql_files(walker, text)?;
    }
    Ok(())
}

fn dot_command(walker: &mut Walker<'_>, line: &str) -> Result<()> {
    let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    // `.output |cmd`, `.read |cmd`: the rest of the line runs as a command.
    if let Some((_, piped)) = rest.split_once('|') {
        return walker.child_source_if_shell(piped);
    }
    match command {
        ".shell" | ".system" => walker.child_source_if_shell(rest),
        ".output" | ".once" | ".save" | ".backup" | ".open" | ".log" => {
            let file = rest
                .split_whitespace()
                .rfind(|word| !word.starts_with('-'))
                .map(|word| word.trim_matches(['\'', '"']));
            match file {
                Some(file) if !matches!(file, "stdout" | "stderr" | "off") => {
                    walker.changes(file, Change::Write, "writes")
                }
                _ => Ok(()),
            }
        }
        _ => Ok(()),
    }
}

/// The file names of `writefile(…)`, `ATTACH … 'file'` and `VACUUM INTO
/// 'file'`, written; of `readfile(…)`, read; and of `fsdir(…)`, whose
/// every file is read.
fn sql_files(walker: &Walker<'_>, sql: &str) -> Result<()> {
    let lower = sql.to_ascii_lowercase();
    for keyword in ["writefile(", "attach", "into"] {
        for file in names_after(sql, &lower, keyword) {
            walker.changes(&file, Change::Write, "writes")?;
        }
    }
    for file in names_after(sql, &lower, "readfile(") {
        if walker
            .resolutions(&file)
            .any(|resolved| walker.protected.names_key(&resolved))
        {
            return Err(crate::walk::key_refusal(&file));
        }
    }
    let folders = names_after(sql, &lower, "fsdir(");
    crate::key_reads::refuse_if_key_under(walker, "reads", "sqlite3", &folders)
}

/// The text of each expression that follows `keyword` in `sql` (`lower` is
/// `sql` lower-cased), past blanks and `DATABASE`, when it starts with a
/// string: string literals and `char(…)` codes joined by `||`, as SQLite
/// joins them (`'/home/u/.ta' || 'ma'`); any other term stands for text the
/// gate cannot know.
fn names_after(sql: &str, lower: &str, keyword: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (at, _) in lower.match_indices(keyword) {
        let rest = lower[at + keyword.len()..].trim_start();
        let rest = rest.strip_prefix("database").unwrap_or(rest).trim_start();
        let mut rest = &sql[sql.len() - rest.len()..];
        if !rest.starts_with(['\'', '"']) && !rest.to_ascii_lowercase().starts_with("char(") {
            continue;
        }
        let mut name = String::new();
        loop {
            rest = rest.trim_start();
            if let Some(quote) = rest.chars().next().filter(|c| matches!(c, '\'' | '"')) {
                let Some(end) = rest[1..].find(quote) else {
                    name.push(UNKNOWN);
                    break;
                };
                name.push_str(&rest[1..=end]);
                rest = &rest[end + 2..];
            } else if rest.to_ascii_lowercase().starts_with("char(") {
                let Some(end) = rest.find(')') else {
                    name.push(UNKNOWN);
                    break;
                };
                let codes = rest[5..end]
                    .split(',')
                    .map(|code| code.trim().parse::<u32>());
                for code in codes {
                    name.push(code.ok().and_then(char::from_u32).unwrap_or(UNKNOWN));
                }
                rest = &rest[end + 1..];
            } else {
                name.push(UNKNOWN);
                break;
            }
            match rest.trim_start().strip_prefix("||") {
                Some(more) => rest = more,
                None => break,
            }
        }
        found.push(name);
    }
    found
}
