//! What the shell's `read` and `mapfile` set from the input they read, for
//! a gate that follows the variables a command assigns.

use crate::prelude::*;

use crate::field::UNKNOWN_TEXT;
use crate::interpreters::quoted;

/// The variables `read args…` sets from `input` (none: input the gate
/// cannot know), each with its value: the first line (up to `-d`'s
/// delimiter), split on blanks, the last name taking the rest, and `-a`'s
/// array the line's words joined by `separator`. Unknown input leaves every
/// name unknown, never unset; with no name, `REPLY` is set.
pub fn read<W: AsRef<str>>(
    args: &[W],
    input: Option<&str>,
    separator: &str,
) -> Vec<(String, String)> {
    let mut names: Vec<String> = Vec::new();
    let mut array = None;
    let mut delimiter = '\n';
    let mut index = 0;
    let mut options_done = false;
    while let Some(arg) = args.get(index) {
        index += 1;
        let text = arg.as_ref();
        if options_done || !text.starts_with('-') || text.len() < 2 {
            names.push(text.to_owned());
            continue;
        }
        if text == "--" {
            options_done = true;
            continue;
        }
        for (at, option) in text.char_indices().skip(1) {
            if !"adinNptu".contains(option) {
                continue;
            }
            let attached = text.get(at + option.len_utf8()..).unwrap_or_default();
            let value = if attached.is_empty() {
                index += 1;
                args.get(index - 1).map_or("", AsRef::as_ref)
            } else {
                attached
            };
            match option {
                'a' => array = Some(value.to_owned()),
                'd' => delimiter = value.chars().next().unwrap_or('\0'),
                _ => {}
            }
            break;
        }
    }
    let line = input.map(|input| input.split(delimiter).next().unwrap_or_default());
    let unknown = || UNKNOWN_TEXT.to_owned();
    let mut assigned: Vec<(String, String)> = Vec::new();
    if let Some(array) = array {
        let value = line.map_or_else(unknown, |line| {
            line.split_whitespace().collect::<Vec<_>>().join(separator)
        });
        assigned.push((array, value));
    }
    if names.is_empty() && assigned.is_empty() {
        names.push("REPLY".to_owned());
    }
    let mut rest = line.map(str::trim);
    let count = names.len();
    for (position, name) in names.into_iter().enumerate() {
        let value = match rest {
            None => unknown(),
            Some(text) if position + 1 == count => text.to_owned(),
            Some(text) => {
                let (word, after) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
                rest = Some(after.trim_start());
                word.to_owned()
            }
        };
        assigned.push((name, value));
    }
    assigned
}

/// The calls `mapfile -C CALLBACK` makes, as shell text: CALLBACK with the
/// index and each line it reads (`f(){ eval "$2"; }; mapfile -C f`), or
/// with a line the gate cannot know when `input` is unknown; none without
/// `-C`.
pub fn mapfile_callbacks<W: AsRef<str>>(args: &[W], input: Option<&str>) -> Vec<String> {
    let mut words = args.iter().map(AsRef::as_ref);
    let mut callback = None;
    while let Some(word) = words.next() {
        match word {
            "-C" => callback = words.next(),
            "-d" | "-n" | "-O" | "-s" | "-u" | "-c" => {
                words.next();
            }
            _ => {
                if let Some(attached) = word.strip_prefix("-C").filter(|rest| !rest.is_empty()) {
                    callback = Some(attached);
                }
            }
        }
    }
    let Some(callback) = callback else {
        return Vec::new();
    };
    let lines: Vec<&str> = match input {
        Some(input) => input.lines().collect(),
        None => vec![UNKNOWN_TEXT],
    };
    lines
        .iter()
        .enumerate()
        .map(|(index, line)| format!("{callback} {index} {}", quoted(line)))
        .collect()
}

/// The array `mapfile [-t] [-d DELIM] [ARRAY]` sets from `input` (none:
/// input the gate cannot know, an unknown value): its lines, up to `-d`'s
/// delimiter, joined by `separator`; `MAPFILE` when unnamed.
pub fn mapfile<W: AsRef<str>>(
    args: &[W],
    input: Option<&str>,
    separator: &str,
) -> (String, String) {
    let mut name = "MAPFILE";
    let mut delimiter = '\n';
    let mut index = 0;
    while let Some(arg) = args.get(index) {
        index += 1;
        match arg.as_ref() {
            "-d" => {
                delimiter = args
                    .get(index)
                    .and_then(|value| value.as_ref().chars().next())
                    .unwrap_or('\0');
                index += 1;
            }
            "-n" | "-O" | "-s" | "-u" | "-C" | "-c" => index += 1,
            text if text.starts_with('-') => {}
            text => name = text,
        }
    }
    let value = input.map_or_else(
        || UNKNOWN_TEXT.to_owned(),
        |input| {
            input
                .split(delimiter)
                .filter(|line| !line.is_empty())
                .collect::<Vec<_>>()
                .join(separator)
        },
    );
    (name.to_owned(), value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_splits_the_first_line_over_its_names() {
        let pair = |name: &str, value: &str| (name.to_owned(), value.to_owned());
        assert_eq!(
            read(&["-r", "a", "b"], Some("rm  -rf  x y\nls\n"), " "),
            [pair("a", "rm"), pair("b", "-rf  x y")]
        );
        assert_eq!(read(&["-ra", "w"], Some("x  y\n"), ","), [pair("w", "x,y")]);
        let none: [&str; 0] = [];
        assert_eq!(read(&none, None, " "), [pair("REPLY", UNKNOWN_TEXT)]);
        assert_eq!(mapfile(&["-t", "l"], Some("a\nb\n"), " "), pair("l", "a b"));
        assert_eq!(
            mapfile(&["-d", ","], Some("a,b"), "|"),
            pair("MAPFILE", "a|b")
        );
    }
}
