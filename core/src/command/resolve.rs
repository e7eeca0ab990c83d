//! Finding the program of a hook command whose first word is a relative
//! path, as the existing Tama registry does.

use std::fmt;
use std::path::{Path, PathBuf};

/// A hook command whose program is not where it says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unresolved {
    pub command: String,
    /// Every path tried, in order; empty when the command names no program.
    pub tried: Vec<PathBuf>,
}

impl fmt::Display for Unresolved {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.tried.is_empty() {
            return write!(f, "hook command `{}` names no program", self.command);
        }
        write!(
            f,
            "cannot find the program of hook command `{}`: tried ",
            self.command
        )?;
        for (n, path) in self.tried.iter().enumerate() {
            write!(f, "{}{}", if n == 0 { "" } else { ", " }, path.display())?;
        }
        Ok(())
    }
}

impl std::error::Error for Unresolved {}

/// Returns `command` with its program made runnable from anywhere.
///
/// The program is the first shell word. A bare name (no `/`) is left to the
/// shell's PATH lookup, as is a word the shell would expand (`$`, `` ` ``,
/// a leading `~`, globs), a leading `NAME=value` and an unterminated quote. An absolute path must be
/// a file. A relative path is tried against, in order: `catalog_source`
/// when it is absolute and has the same file name (the catalog's record of
/// that very script); `registry_dir` joined with the path; `registry_dir`
/// joined with the file name. The first file found replaces the program
/// word, shell-quoted; the arguments are kept as written.
pub fn resolve(
    command: &str,
    catalog_source: Option<&Path>,
    registry_dir: &Path,
) -> Result<String, Unresolved> {
    let unresolved = |tried| {
        Err(Unresolved {
            command: command.to_owned(),
            tried,
        })
    };
    let Some(word) = first_word(command) else {
        return unresolved(Vec::new());
    };
    if !word.literal || !word.text.contains('/') || is_assignment(&word.text) {
        return Ok(command.to_owned());
    }
    let path = Path::new(&word.text);
    if path.is_absolute() {
        return if path.is_file() {
            Ok(command.to_owned())
        } else {
            unresolved(vec![path.into()])
        };
    }
    let name = path.file_name();
    let mut tried = Vec::new();
    if let Some(source) = catalog_source.filter(|s| s.is_absolute() && s.file_name() == name) {
        tried.push(source.to_path_buf());
    }
    tried.push(registry_dir.join(path).components().collect());
    if let Some(name) = name {
        let flat = registry_dir.join(name);
        if !tried.contains(&flat) {
            tried.push(flat);
        }
    }
    let found = tried.iter().find(|p| p.is_file()).and_then(|p| p.to_str());
    match found {
        Some(found) => Ok(format!("{}{}", shell_quote(found), &command[word.end..])),
        None => unresolved(tried),
    }
}

struct Word {
    /// The word with its quoting removed.
    text: String,
    /// The byte offset just past the word in the command.
    end: usize,
    /// The shell would not expand it.
    literal: bool,
}

fn first_word(command: &str) -> Option<Word> {
    let start = command.len() - command.trim_start_matches([' ', '\t', '\n']).len();
    let mut word = Word {
        text: String::new(),
        end: command.len(),
        literal: true,
    };
    let mut quote = None;
    let mut chars = command[start..].char_indices();
    while let Some((at, c)) = chars.next() {
        match (quote, c) {
            (None, ' ' | '\t' | '\n' | ';' | '&' | '|' | '<' | '>' | '(' | ')') => {
                word.end = start + at;
                break;
            }
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '\\') => word.text.extend(chars.next().map(|(_, c)| c)),
            (Some('"'), '\\') => match chars.next() {
                Some((_, c @ ('"' | '\\' | '$' | '`'))) => word.text.push(c),
                Some((_, c)) => word.text.extend(['\\', c]),
                None => {}
            },
            (Some('\''), c) => word.text.push(c),
            (_, '$' | '`') | (None, '*' | '?' | '[') => word.literal = false,
            (None, '~') if at == 0 => word.literal = false,
            (_, c) => word.text.push(c),
        }
    }
    if quote.is_some() {
        word.literal = false;
    }
    (!word.literal || !word.text.is_empty()).then_some(word)
}

/// `NAME=value`, which the shell reads as a variable, not a program.
fn is_assignment(word: &str) -> bool {
    let name = word.split_once('=').map_or("", |(name, _)| name);
    name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `text` as one word for a POSIX shell: as it is when it holds only
/// characters no shell gives a meaning to, else in single quotes.
pub fn shell_quote(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}
