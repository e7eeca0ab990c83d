//! What the shell does to a known value: trimming a pattern off it,
//! matching a pattern, changing its case, following a name reference.

use crate::prelude::*;

use crate::field::UNKNOWN_TEXT;
use crate::shell::ReplaceAt;

/// How many references (`declare -n`) a name is followed through; a loop
/// of them ends there, as bash ends one.
const MAX_REFERENCE_HOPS: usize = 8;

/// The variable `name` stands for: `references` holds each name declared
/// with `declare -n` and the name it refers to, the latest last.
pub fn referred<'r>(references: &'r [(String, String)], mut name: &'r str) -> &'r str {
    if references.is_empty() {
        return name;
    }
    for _ in 0..MAX_REFERENCE_HOPS {
        match references
            .iter()
            .rev()
            .find(|(reference, _)| reference == name)
        {
            Some((_, target)) => name = target,
            None => break,
        }
    }
    name
}

/// Whether `builtin args…` declares name references (`declare -n r=x`,
/// `typeset -n`, `local -n`); `export -n` takes an export away instead.
pub fn declares_references<W: AsRef<str>>(builtin: &str, args: &[W]) -> bool {
    matches!(builtin, "declare" | "typeset" | "local")
        && args
            .iter()
            .map(AsRef::as_ref)
            .any(|arg| arg.starts_with('-') && arg.contains('n'))
}

/// Longer values are not trimmed but unknown: each cut is one match.
const MAX_TRIMMED: usize = 1024;

/// `${value#pattern}` and kin: `value` without the shortest or longest
/// prefix (or suffix) that `pattern` matches. Unknown when either holds an
/// unknown part.
pub fn trim(value: &str, pattern: &str, longest: bool, prefix: bool) -> String {
    if value.len() > MAX_TRIMMED || value.contains(UNKNOWN_TEXT) || pattern.contains(UNKNOWN_TEXT) {
        return UNKNOWN_TEXT.to_owned();
    }
    let mut cuts: Vec<usize> = value
        .char_indices()
        .map(|(at, _)| at)
        .chain([value.len()])
        .collect();
    if longest == prefix {
        cuts.reverse();
    }
    for cut in cuts {
        let (head, tail) = value.split_at(cut);
        let (removed, kept) = if prefix { (head, tail) } else { (tail, head) };
        if glob_matches(pattern.as_bytes(), removed.as_bytes()) {
            return kept.to_owned();
        }
    }
    value.to_owned()
}

/// Whether `text` matches a pattern of `*`, `?`, bracket expressions
/// (`[a-z]`, `[[:lower:]]`, read over bytes) and literal bytes, in time
/// proportional to their lengths' product (one star is retried at a time).
/// Written here because the gate is built without `std` and needs only
/// these.
pub fn glob_matches(pattern: &[u8], text: &[u8]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        match pattern.get(p) {
            Some(b'*') => {
                star = Some((p, t));
                p += 1;
            }
            Some(b'[') if let Some(close) = class_end(pattern, p) => {
                if text
                    .get(t)
                    .is_some_and(|&c| class_matches(&pattern[p + 1..close], char::from(c)))
                {
                    p = close + 1;
                    t += 1;
                } else if let Some((star_at, matched)) = star {
                    p = star_at + 1;
                    t = matched + 1;
                    star = Some((star_at, matched + 1));
                } else {
                    return false;
                }
            }
            Some(&byte) if byte == b'?' || Some(&byte) == text.get(t) => {
                p += 1;
                t += 1;
            }
            _ => match star {
                Some((star_at, matched)) => {
                    p = star_at + 1;
                    t = matched + 1;
                    star = Some((star_at, matched + 1));
                }
                None => return false,
            },
        }
    }
    pattern
        .get(p..)
        .unwrap_or_default()
        .iter()
        .all(|&byte| byte == b'*')
}

/// Where the bracket expression that opens at `pattern[open]` (a `[`)
/// closes: the `]` after its first member (a `]` there is a member, as is
/// one after `!` or `^`), past any `[:class:]`. `None` when it does not
/// close, and the `[` is a plain character.
pub fn class_end<T: Copy + Into<char>>(pattern: &[T], open: usize) -> Option<usize> {
    let at = |index: usize| pattern.get(index).map(|&c| c.into());
    let mut index = open + 1;
    if matches!(at(index), Some('!' | '^')) {
        index += 1;
    }
    if at(index) == Some(']') {
        index += 1;
    }
    while let Some(c) = at(index) {
        match c {
            ']' => return Some(index),
            '[' if at(index + 1) == Some(':') => {
                let close = (index + 2..pattern.len())
                    .find(|&end| at(end) == Some(':') && at(end + 1) == Some(']'))?;
                index = close + 2;
            }
            _ => index += 1,
        }
    }
    None
}

/// Whether `c` is a member of `class`, a bracket expression's inside:
/// characters, ranges (`a-z`), POSIX classes (`[:lower:]`), negated by a
/// leading `!` or `^`.
pub fn class_matches<T: Copy + Into<char>>(class: &[T], c: char) -> bool {
    let class: Vec<char> = class.iter().map(|&member| member.into()).collect();
    let (negated, class) = match class.first() {
        Some('!' | '^') => (true, &class[1..]),
        _ => (false, &class[..]),
    };
    let mut found = false;
    let mut index = 0;
    while let Some(&first) = class.get(index) {
        if first == '['
            && class.get(index + 1) == Some(&':')
            && let Some(end) = (index + 2..class.len())
                .find(|&end| class[end] == ':' && class.get(end + 1) == Some(&']'))
        {
            let name: String = class[index + 2..end].iter().collect();
            found |= posix_class(&name, c);
            index = end + 2;
        } else if class.get(index + 1) == Some(&'-') && class.get(index + 2).is_some() {
            found |= (first..=class[index + 2]).contains(&c);
            index += 3;
        } else {
            found |= first == c;
            index += 1;
        }
    }
    found != negated
}

/// Whether `c` is in the POSIX character class `name` (`alpha`, `digit`, …).
fn posix_class(name: &str, c: char) -> bool {
    match name {
        "alpha" => c.is_alphabetic(),
        "digit" => c.is_ascii_digit(),
        "alnum" => c.is_alphanumeric(),
        "upper" => c.is_uppercase(),
        "lower" => c.is_lowercase(),
        "space" => c.is_whitespace(),
        "blank" => c == ' ' || c == '\t',
        "punct" => c.is_ascii_punctuation(),
        "xdigit" => c.is_ascii_hexdigit(),
        "cntrl" => c.is_control(),
        "print" => !c.is_control(),
        "graph" => !c.is_control() && !c.is_whitespace(),
        "word" => c.is_alphanumeric() || c == '_',
        _ => false,
    }
}

/// `${value@op}`: `U`, `L` and `u` change case, `E` expands backslash
/// escapes, `Q` quotes the value for the shell; `None` for the others
/// (`P`, `A`, `K`, `a`), which the gate does not follow.
pub fn transform(value: &str, operator: char) -> Option<String> {
    match operator {
        'U' => Some(change_case(value, true, true)),
        'L' => Some(change_case(value, false, true)),
        'u' => Some(change_case(value, true, false)),
        'E' => Some(crate::shell::decode_escapes(value).into_owned()),
        'Q' => Some(crate::interpreters::quoted(value)),
        _ => None,
    }
}

/// `${value^^}`, `${value,}` and kin.
pub fn change_case(value: &str, upper: bool, all: bool) -> String {
    let convert = |c: char| {
        if upper {
            c.to_uppercase().collect::<String>()
        } else {
            c.to_lowercase().collect()
        }
    };
    if all {
        return value.chars().map(convert).collect();
    }
    let mut chars = value.chars();
    match chars.next() {
        Some(first) => convert(first) + chars.as_str(),
        None => String::new(),
    }
}

/// Longest value `${x/p/r}` matches a pattern with a `*` against: each
/// start and end of a match is tried.
const MAX_REPLACED_WITH_STAR: usize = 64;

/// `${value/pattern/replacement}` and kin: the longest match at the first
/// place the pattern matches (or at every place, at the start, at the end)
/// replaced. Unknown as [`trim`] is, and for a long value and a pattern
/// with a `*`.
pub fn replace(value: &str, pattern: &str, replacement: &str, at: ReplaceAt) -> String {
    let star = pattern.contains('*');
    if value.len() > MAX_TRIMMED
        || (star && value.len() > MAX_REPLACED_WITH_STAR)
        || [value, pattern, replacement]
            .iter()
            .any(|text| text.contains(UNKNOWN_TEXT))
    {
        return UNKNOWN_TEXT.to_owned();
    }
    if pattern.is_empty() {
        return value.to_owned();
    }
    let bounds: Vec<usize> = value
        .char_indices()
        .map(|(at, _)| at)
        .chain([value.len()])
        .collect();
    let matches =
        |start: usize, end: usize| glob_matches(pattern.as_bytes(), &value.as_bytes()[start..end]);
    // The longest match starting at `start`, as its end.
    let longest_from = |start: usize| {
        bounds
            .iter()
            .rev()
            .copied()
            .filter(|&end| end > start)
            .find(|&end| matches(start, end))
    };
    let mut out = String::with_capacity(value.len());
    let mut kept_from = 0;
    match at {
        ReplaceAt::Start => {
            if let Some(end) = longest_from(0) {
                out.push_str(replacement);
                kept_from = end;
            }
        }
        ReplaceAt::End => {
            if let Some(&start) = bounds
                .iter()
                .find(|&&start| start < value.len() && matches(start, value.len()))
            {
                out.push_str(&value[..start]);
                out.push_str(replacement);
                kept_from = value.len();
            }
        }
        ReplaceAt::First | ReplaceAt::Every => {
            let mut index = 0;
            while let Some(&start) = bounds.get(index) {
                if start >= value.len() {
                    break;
                }
                match longest_from(start) {
                    Some(end) if start >= kept_from => {
                        out.push_str(&value[kept_from..start]);
                        out.push_str(replacement);
                        kept_from = end;
                        if at == ReplaceAt::First {
                            break;
                        }
                    }
                    _ => {}
                }
                index += 1;
            }
        }
    }
    out.push_str(&value[kept_from..]);
    out
}

/// `IFS` as shells set it at start-up, rather than take it from the
/// environment: blank, tab and newline.
pub const DEFAULT_IFS: &str = " \t\n";

/// What one character of an unquoted expansion does to the field being built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Split {
    /// The character belongs to the field.
    Keep,
    /// The field ends here, when it holds anything.
    End,
    /// The field ends here, even empty.
    EndEvenEmpty,
}

/// Field splitting of a word's unquoted expansions, as a shell splits them:
/// a run of separating blanks ends a field; any other separator ends one
/// too, an empty one when only another such separator came before it.
pub struct FieldSplitter {
    /// `IFS` when the command set it; otherwise the blank, tab and newline
    /// shells set at start-up rather than take from the environment.
    separators: Option<String>,
    /// Separating blanks ended the last field, and nothing came since.
    after_blank: bool,
}

impl FieldSplitter {
    pub const fn new(ifs: Option<String>) -> Self {
        FieldSplitter {
            separators: ifs,
            after_blank: false,
        }
    }

    /// What `c` does, given whether the current field holds anything yet.
    pub fn split(&mut self, c: char, started: bool) -> Split {
        let blank = matches!(c, ' ' | '\t' | '\n');
        let separates = match &self.separators {
            Some(separators) => separators.contains(c),
            None => blank,
        };
        if !separates {
            self.after_blank = false;
            Split::Keep
        } else if blank {
            self.after_blank |= started;
            Split::End
        } else if started || core::mem::take(&mut self.after_blank) {
            Split::End
        } else {
            Split::EndEvenEmpty
        }
    }
}

/// The element of `elements` at `index`, counted from the end when
/// negative; empty past either end, as bash gives it.
pub fn element<'v>(elements: &[&'v str], index: i64) -> &'v str {
    let index = if index < 0 {
        i64::try_from(elements.len()).ok().map(|len| len + index)
    } else {
        Some(index)
    };
    index
        .and_then(|index| usize::try_from(index).ok())
        .and_then(|index| elements.get(index))
        .copied()
        .unwrap_or_default()
}

/// The part `${x:offset:length}` takes of `len` items (characters of a
/// value, or elements): an offset counted from the end when negative, a
/// length that stops that far from the end when negative. `None` where
/// bash stops with an error (a negative length of elements, an end before
/// the start), which runs nothing.
pub fn slice_bounds(
    len: usize,
    offset: i64,
    length: Option<i64>,
    elements: bool,
) -> Option<(usize, usize)> {
    let len = i64::try_from(len).ok()?;
    let start = if offset < 0 { len + offset } else { offset };
    if start < 0 || start > len {
        return Some((0, 0));
    }
    let end = match length {
        None => len,
        Some(length) if length < 0 && elements => return None,
        Some(length) if length < 0 => len + length,
        Some(length) => start.saturating_add(length).min(len),
    };
    if end < start {
        return None;
    }
    Some((usize::try_from(start).ok()?, usize::try_from(end).ok()?))
}

/// Whether a builtin evaluates its arguments again, as variable names with
/// subscripts or as arithmetic (`printf -v`, `read`, `declare`, `let`,
/// `unset`, `test -v`), so the substitutions they hold run
/// ([`substitutions`]).
pub fn evaluates_arguments(builtin: &str) -> bool {
    matches!(
        builtin,
        "printf"
            | "read"
            | "declare"
            | "typeset"
            | "local"
            | "export"
            | "readonly"
            | "let"
            | "unset"
            | "mapfile"
            | "readarray"
            | "test"
            | "["
            | "wait"
            | "getopts"
    )
}

/// The commands a text held as data spells in `$(…)` or backquotes, which
/// bash runs where it evaluates the text again: as an arithmetic
/// expression (`x='a[$(cmd)]'; (( x ))`, `[[ $x -eq 0 ]]`, `printf -v "$x"`,
/// `[[ -v $x ]]`), as a prompt (`${x@P}`, `PS4` under `set -x`), or through
/// `eval`. Brackets inside are matched by count, quotes not told apart.
pub fn substitutions(text: &str) -> Vec<&str> {
    if !text.contains(['`', '$']) {
        return Vec::new();
    }
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'`' => {
                let Some(end) = text[at + 1..].find('`') else {
                    break;
                };
                found.push(&text[at + 1..at + 1 + end]);
                at += end + 2;
            }
            // `$((` opens arithmetic, whose substitutions are read as it is scanned.
            b'$' if bytes.get(at + 1) == Some(&b'(') && bytes.get(at + 2) != Some(&b'(') => {
                let start = at + 2;
                let mut depth = 1;
                let mut end = start;
                while end < bytes.len() {
                    match bytes[end] {
                        b'(' => depth += 1,
                        b')' if depth == 1 => break,
                        b')' => depth -= 1,
                        _ => {}
                    }
                    end += 1;
                }
                found.push(&text[start..end]);
                at = end + 1;
            }
            _ => at += 1,
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn substitutions_held_as_data_are_found() {
        assert_eq!(substitutions("a[$(rm -rf x)]"), ["rm -rf x"]);
        assert_eq!(
            substitutions("`id` and $(echo $(date))"),
            ["id", "echo $(date)"]
        );
        assert_eq!(substitutions("$(( 1 + $(cat n) ))"), ["cat n"]);
        assert!(substitutions("$HOME and ${x} and $((1+2))").is_empty());
    }

    fn fields(ifs: Option<&str>, text: &str) -> Vec<String> {
        let mut splitter = FieldSplitter::new(ifs.map(str::to_owned));
        let (mut out, mut current, mut started) = (Vec::new(), String::new(), false);
        for c in text.chars() {
            match splitter.split(c, started) {
                Split::Keep => {
                    current.push(c);
                    started = true;
                }
                Split::End if !started => {}
                Split::End | Split::EndEvenEmpty => {
                    out.push(core::mem::take(&mut current));
                    started = false;
                }
            }
        }
        if started {
            out.push(current);
        }
        out
    }

    #[test]
    fn fields_split_as_a_shell_splits_them() {
        assert_eq!(fields(None, "  a \t b\n"), ["a", "b"]);
        assert_eq!(fields(Some(","), ",a,,b,"), ["", "a", "", "b"]);
        assert_eq!(fields(Some(", "), "a , b"), ["a", "b"]);
        assert_eq!(fields(Some(""), "a b"), ["a b"]);
    }

    #[test]
    fn patterns_trim_and_match() {
        assert_eq!(trim("a/b/c", "*/", false, true), "b/c");
        assert_eq!(trim("a/b/c", "*/", true, true), "c");
        assert_eq!(trim("a.tar.gz", ".*", false, false), "a.tar");
        assert!(glob_matches(b"pre-*", b"pre-commit"));
        assert!(!glob_matches(b"?x", b"x"));
        assert_eq!(change_case("abc", true, false), "Abc");
    }

    #[test]
    fn replacements_take_the_longest_match() {
        let first = |v, p, r| replace(v, p, r, ReplaceAt::First);
        assert_eq!(first("--no-verify", "verify", "verify"), "--no-verify");
        assert_eq!(first("a-b-c", "-", "+"), "a+b-c");
        assert_eq!(replace("a-b-c", "-", "+", ReplaceAt::Every), "a+b+c");
        assert_eq!(first("xaaay", "a*", "b"), "xb");
        assert_eq!(replace("abab", "ab", "", ReplaceAt::Start), "ab");
        assert_eq!(replace("abab", "b", "c", ReplaceAt::End), "abac");
        assert_eq!(replace("abab", "x", "c", ReplaceAt::End), "abab");
        assert_eq!(first("--no-veri", "veri", "verify"), "--no-verify");
        assert_eq!(first("abc", "", "x"), "abc");
    }
}
