//! `xargs`: how it reads its items and what it runs with them, read once
//! for every gate.
//!
//! Options are read as GNU findutils' `getopt_long` reads them: short
//! options clustered (`-r0`, `-rI{}`, `-tI {}`), a value attached or in the
//! next word, `-e`, `-i` and `-l` taking only an attached value, long
//! options by any unambiguous prefix (`--repl=@`). BSD's `-J` is read too.
//! An option xargs rejects stops it before it runs anything; it is read
//! here as a flag, so what follows is still looked at.

use crate::prelude::*;

use crate::interpreters::quoted;
use crate::output::joined;

/// What the options of one `xargs` say.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Xargs<'a> {
    /// `-I R`, `-i[R]`, `--replace[=R]`: the command runs once per input
    /// line, the line in place of every `R` (`{}` unless given).
    pub replace: Option<&'a str>,
    /// BSD `-J R`: all the items in place of the word `R`.
    pub place: Option<&'a str>,
    /// `-0`, `-d C`: items end at this character and keep their blanks.
    pub delimiter: Option<char>,
    /// `-a F`, `--arg-file=F`: the items come from this file, not the input.
    pub arg_file: Option<&'a str>,
    /// Where the command starts among the arguments (their length when
    /// there is none, and xargs runs `echo`).
    pub command: usize,
}

/// How an option takes a value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Takes {
    Nothing,
    /// Attached, or else the next word.
    Value,
    /// Only attached (`-i{}`, `--replace=@`); alone it takes none.
    Attached,
}

/// GNU xargs' short options that take a value, and BSD's `-J`, `-R`, `-S`.
fn short_takes(option: char) -> Takes {
    match option {
        'a' | 'E' | 'I' | 'L' | 'n' | 's' | 'P' | 'd' | 'J' | 'R' | 'S' => Takes::Value,
        'e' | 'i' | 'l' => Takes::Attached,
        _ => Takes::Nothing,
    }
}

/// GNU xargs' long options, each with the short option it stands for.
const LONG: &[(&str, char, Takes)] = &[
    ("null", '0', Takes::Nothing),
    ("arg-file", 'a', Takes::Value),
    ("delimiter", 'd', Takes::Value),
    ("eof", 'e', Takes::Attached),
    ("replace", 'i', Takes::Attached),
    ("max-lines", 'l', Takes::Attached),
    ("max-args", 'n', Takes::Value),
    ("open-tty", 'o', Takes::Nothing),
    ("interactive", 'p', Takes::Nothing),
    ("no-run-if-empty", 'r', Takes::Nothing),
    ("max-chars", 's', Takes::Value),
    ("verbose", 't', Takes::Nothing),
    ("show-limits", '-', Takes::Nothing),
    ("exit", 'x', Takes::Nothing),
    ("max-procs", 'P', Takes::Value),
    ("process-slot-var", '-', Takes::Value),
    ("version", '-', Takes::Nothing),
    ("help", '-', Takes::Nothing),
];

/// The long option `name` spells, exactly or by an unambiguous prefix.
fn long_option(name: &str) -> Option<(char, Takes)> {
    if let Some(&(_, short, takes)) = LONG.iter().find(|(long, ..)| *long == name) {
        return Some((short, takes));
    }
    let mut prefixed = LONG.iter().filter(|(long, ..)| long.starts_with(name));
    match (prefixed.next(), prefixed.next()) {
        (Some(&(_, short, takes)), None) if !name.is_empty() => Some((short, takes)),
        _ => None,
    }
}

impl<'a> Xargs<'a> {
    /// Reads the arguments after `xargs`.
    pub fn parse<W: AsRef<str>>(args: &'a [W]) -> Self {
        let mut options = Xargs::default();
        let mut index = 0;
        while let Some(arg) = args.get(index).map(AsRef::as_ref) {
            index += 1;
            let next = args.get(index).map(AsRef::as_ref);
            if arg == "--" {
                break;
            }
            if let Some(long) = arg.strip_prefix("--") {
                let (name, attached) = match long.split_once('=') {
                    Some((name, value)) => (name, Some(value)),
                    None => (long, None),
                };
                let Some((short, takes)) = long_option(name) else {
                    continue;
                };
                let value = match takes {
                    Takes::Value if attached.is_none() => {
                        index += 1;
                        next
                    }
                    _ => attached,
                };
                options.set(short, value);
                continue;
            }
            let Some(cluster) = arg.strip_prefix('-').filter(|cluster| !cluster.is_empty()) else {
                index -= 1;
                break;
            };
            for (at, short) in cluster.char_indices() {
                let attached = &cluster[at + short.len_utf8()..];
                let value = match short_takes(short) {
                    Takes::Nothing => {
                        options.set(short, None);
                        continue;
                    }
                    Takes::Value if attached.is_empty() => {
                        index += 1;
                        next
                    }
                    Takes::Attached if attached.is_empty() => None,
                    _ => Some(attached),
                };
                options.set(short, value);
                break;
            }
        }
        options.command = index.min(args.len());
        options
    }

    /// Takes one option, by its short name, with its value.
    fn set(&mut self, short: char, value: Option<&'a str>) {
        match short {
            'I' => self.replace = value.filter(|token| !token.is_empty()),
            'i' => self.replace = Some(value.unwrap_or("{}")),
            'J' => self.place = value,
            '0' => self.delimiter = Some('\0'),
            'd' => self.delimiter = value.and_then(delimiter),
            'a' => self.arg_file = value,
            _ => {}
        }
    }

    /// The items xargs reads from `input`: split at the delimiter, else
    /// one per line under `-I`, else at blanks.
    pub fn items<'t>(&self, input: &'t str) -> Vec<&'t str> {
        match (self.delimiter, self.replace) {
            (Some(delimiter), _) => input
                .split(delimiter)
                .filter(|item| !item.is_empty())
                .collect(),
            (None, Some(_)) => input
                .lines()
                .map(str::trim_start)
                .filter(|line| !line.is_empty())
                .collect(),
            (None, None) => input.split_whitespace().collect(),
        }
    }
}

/// The character `-d` names: itself, or a C escape (`\n`, `\t`, `\0`,
/// `\\`, an octal `\NNN` or a hexadecimal `\xHH`), as GNU xargs reads it.
fn delimiter(given: &str) -> Option<char> {
    let Some(escaped) = given.strip_prefix('\\') else {
        return given.chars().next();
    };
    let named = match escaped {
        "a" => Some('\x07'),
        "b" => Some('\x08'),
        "f" => Some('\x0c'),
        "n" => Some('\n'),
        "r" => Some('\r'),
        "t" => Some('\t'),
        "v" => Some('\x0b'),
        "\\" | "" => Some('\\'),
        _ => None,
    };
    named.or_else(|| match escaped.strip_prefix('x') {
        Some(hex) => u8::from_str_radix(hex, 16).ok().map(char::from),
        None => u8::from_str_radix(escaped, 8).ok().map(char::from),
    })
}

/// The commands `xargs args…` runs with what it reads (standard input, or
/// the file `-a` names, through `content`), as shell text: each line in
/// place of `-I`'s token, or, when its items are not split at blanks
/// (`-0`, `-d`), come from a file or take `-J`'s place, the command with
/// all of them (`xargs -0 sh -c` hands sh the whole text). Items split at
/// blanks from standard input are left to the gate's own reading of
/// `xargs`.
pub(super) fn commands<W: AsRef<str>>(
    args: &[W],
    stdin: Option<&str>,
    content: impl Fn(&str) -> Option<String>,
) -> Vec<String> {
    let options = Xargs::parse(args);
    let input = match options.arg_file {
        Some(file) => content(file),
        None => stdin.map(str::to_owned),
    };
    let Some(input) = input else {
        return Vec::new();
    };
    let items = options.items(&input);
    let command = args.get(options.command..).unwrap_or_default();
    let words = |fill: &dyn Fn(&str) -> Vec<String>| -> String {
        let words: Vec<String> = command
            .iter()
            .flat_map(|word| fill(word.as_ref()))
            .map(|word| quoted(&word))
            .collect();
        joined(&words)
    };
    let all_items = || items.iter().map(|item| (*item).to_owned());
    match (options.replace, options.place) {
        (Some(token), _) => items
            .iter()
            .map(|item| words(&|word| vec![word.replace(token, item)]))
            .collect(),
        (None, Some(token)) => vec![words(&|word| {
            if word == token {
                all_items().collect()
            } else {
                vec![word.to_owned()]
            }
        })],
        (None, None) if options.delimiter.is_some() || options.arg_file.is_some() => {
            let mut words: Vec<String> = command.iter().map(|w| quoted(w.as_ref())).collect();
            words.extend(items.iter().map(|item| quoted(item)));
            vec![joined(&words)]
        }
        (None, None) => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(args: &[&'static str]) -> Xargs<'static> {
        let args: &'static [&'static str] = Vec::leak(args.to_vec());
        Xargs::parse(args)
    }

    #[test]
    fn reads_short_options_clustered_and_apart() {
        let rep = |args| parsed(args).replace;
        assert_eq!(rep(&["-I{}", "sh"]), Some("{}"));
        assert_eq!(rep(&["-rI{}", "sh"]), Some("{}"));
        assert_eq!(rep(&["-tI", "@", "sh"]), Some("@"));
        assert_eq!(rep(&["-ri", "sh"]), Some("{}"));
        assert_eq!(rep(&["-iX", "sh"]), Some("X"));
        assert_eq!(rep(&["-r", "sh"]), None);
        assert_eq!(parsed(&["-r0", "sh"]).delimiter, Some('\0'));
        assert_eq!(parsed(&["-0r", "sh"]).delimiter, Some('\0'));
        assert_eq!(parsed(&["-rd", "\\n", "sh"]).delimiter, Some('\n'));
        assert_eq!(parsed(&["-d\\x41", "sh"]).delimiter, Some('A'));
        assert_eq!(parsed(&["-d\\012", "sh"]).delimiter, Some('\n'));
        assert_eq!(parsed(&["-ra", "f", "sh"]).arg_file, Some("f"));
        assert_eq!(parsed(&["-J", "%", "sh"]).place, Some("%"));
    }

    #[test]
    fn finds_where_the_command_starts() {
        assert_eq!(parsed(&["-n", "1", "-P4", "git", "-n"]).command, 3);
        assert_eq!(parsed(&["-e", "-l", "sh"]).command, 2);
        assert_eq!(parsed(&["-E", "END", "--", "-x"]).command, 3);
        assert_eq!(parsed(&["-I"]).command, 1);
        assert_eq!(parsed(&[]).command, 0);
        assert_eq!(parsed(&["-", "x"]).command, 0);
    }

    #[test]
    fn reads_long_options_by_unambiguous_prefixes() {
        assert_eq!(parsed(&["--repl=@", "sh"]).replace, Some("@"));
        assert_eq!(parsed(&["--replace", "sh"]).replace, Some("{}"));
        assert_eq!(parsed(&["--nu", "sh"]).delimiter, Some('\0'));
        assert_eq!(parsed(&["--arg", "f", "sh"]).arg_file, Some("f"));
        assert_eq!(parsed(&["--delim=,", "sh"]).delimiter, Some(','));
        // Ambiguous: xargs refuses it; read as a flag.
        assert_eq!(parsed(&["--max", "sh"]).command, 1);
        assert_eq!(parsed(&["--max-args", "2", "sh"]).command, 2);
    }

    #[test]
    fn hands_each_line_or_all_items_on() {
        let run = |args: &[&str], stdin| commands(args, Some(stdin), |_| None);
        assert_eq!(
            run(&["-rI{}", "sh", "-c", "{}"], "a b\n c\n"),
            ["'sh' '-c' 'a b'", "'sh' '-c' 'c'"]
        );
        assert_eq!(run(&["-r0", "sh", "-c"], "a b"), ["'sh' '-c' 'a b'"]);
        assert_eq!(
            run(&["-J", "%", "cp", "%", "d"], "x y"),
            ["'cp' 'x' 'y' 'd'"]
        );
        assert!(run(&["-r", "sh", "-c"], "a b").is_empty());
        let from_file = commands(&["-a", "f", "sh", "-c"], None, |path| {
            (path == "f").then(|| "git push".to_owned())
        });
        assert_eq!(from_file, ["'sh' '-c' 'git' 'push'"]);
    }
}
