//! What `echo` and `printf` print, and which input a program that prints
//! some of its input's lines reads, for substitutions, pipes and files that
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

/// The files `name args…` prints some of the lines of, when it is a
/// program that only selects lines (`head`, `tail`, `tac`, `sort`, `uniq`,
/// `grep`, and `sed` given only `p`, `d` and `q` commands) and writes no
/// file (`sort -o`, `uniq in out`, `sed -i`): none for another program, and
/// no file when it reads standard input (`-` names standard input too). A
/// gate that reads the command's output as commands takes all the lines, a
/// superset of those printed.
pub fn selected_lines_of<'w, W: AsRef<str>>(name: &str, args: &'w [W]) -> Option<Vec<&'w str>> {
    if name == "sed" {
        return sed_selected_lines_of(args);
    }
    let valued: &[&str] = match name {
        "head" | "tail" => &["-n", "-c", "--lines", "--bytes"],
        "sort" => &["-k", "-t", "-S", "-T", "--key", "--field-separator"],
        "uniq" => &["-f", "-s", "-w"],
        "grep" => &["-e", "-f", "-m", "-A", "-B", "-C", "--regexp", "--file"],
        "tac" => &["-s", "--separator"],
        _ => return None,
    };
    let mut files = Vec::new();
    let mut words = args.iter().map(AsRef::as_ref);
    while let Some(word) = words.next() {
        // `sort -o file` writes the file.
        if name == "sort" && (matches!(word, "-o" | "--output") || word.starts_with("--output=")) {
            return None;
        }
        if valued.contains(&word) {
            words.next();
        } else if word == "-" || !word.starts_with('-') {
            files.push(word);
        }
    }
    // `uniq input output` writes its second operand.
    if name == "uniq" && files.len() > 1 {
        return None;
    }
    // grep's first operand is its pattern, unless `-e` or `-f` gave it.
    let given_pattern = args
        .iter()
        .any(|arg| matches!(arg.as_ref(), "-e" | "-f" | "--regexp" | "--file"));
    if name == "grep" && !given_pattern && !files.is_empty() {
        files.remove(0);
    }
    Some(files)
}

/// [`selected_lines_of`] for `sed`: its files, when every script it runs
/// only prints, deletes or quits at lines ([`selects_lines`]) and it edits
/// no file in place.
fn sed_selected_lines_of<W: AsRef<str>>(args: &[W]) -> Option<Vec<&str>> {
    let mut scripts = Vec::new();
    let mut files = Vec::new();
    let mut words = args.iter().map(AsRef::as_ref);
    while let Some(word) = words.next() {
        match word {
            "-e" | "--expression" => scripts.push(words.next()?),
            "-l" | "--line-length" => {
                words.next();
            }
            _ if word.starts_with("--expression=") => scripts.push(&word["--expression=".len()..]),
            // A script in a file, or files edited in place.
            "-f" | "--file" => return None,
            _ if word.starts_with("--in-place") || word.starts_with("--file") => return None,
            _ if word.starts_with("--") => {}
            _ if word.starts_with('-') && word.len() > 1 => {
                if word.contains(['i', 'f']) {
                    return None;
                }
            }
            _ => files.push(word),
        }
    }
    if scripts.is_empty() {
        if files.is_empty() {
            return None;
        }
        scripts.push(files.remove(0));
    }
    scripts
        .iter()
        .all(|script| selects_lines(script))
        .then_some(files)
}

/// Whether the sed `script` only prints, deletes or quits at the lines its
/// addresses pick (`1p`, `/commit/p`, `2,$d`, `5q`): its output is some of
/// its input's lines.
fn selects_lines(script: &str) -> bool {
    let mut chars = script.chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace() || *c == ';').is_some() {}
        if chars.peek().is_none() {
            return true;
        }
        // Up to two addresses: line numbers, `$`, `first~step`, `/regex/`.
        for _ in 0..2 {
            match chars.peek() {
                Some('/') => {
                    chars.next();
                    let mut escaped = false;
                    loop {
                        match chars.next() {
                            None => return false,
                            Some('\\') if !escaped => escaped = true,
                            Some('/') if !escaped => break,
                            Some(_) => escaped = false,
                        }
                    }
                    while chars.next_if(|c| matches!(c, 'I' | 'M')).is_some() {}
                }
                Some(c) if c.is_ascii_digit() || *c == '$' => {
                    while chars
                        .next_if(|c| c.is_ascii_digit() || matches!(c, '$' | '~'))
                        .is_some()
                    {}
                }
                _ => break,
            }
            if chars.next_if_eq(&',').is_none() {
                break;
            }
        }
        while chars.next_if(|c| *c == ' ' || *c == '!').is_some() {}
        if chars
            .next_if(|c| matches!(c, 'p' | 'P' | 'd' | 'D' | 'q' | 'Q'))
            .is_none()
        {
            return false;
        }
        // `q` and `Q` may give an exit status.
        while chars.next_if(|c| c.is_ascii_digit() || *c == ' ').is_some() {}
        if chars.next_if(|c| *c == ';' || *c == '\n').is_none() && chars.peek().is_some() {
            return false;
        }
    }
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
    // `printf -- FORMAT …`: the format follows the end of options.
    let args = match args.split_first() {
        Some((first, rest)) if first.as_ref() == "--" => rest,
        _ => args,
    };
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

/// What a filter that only transforms its input prints for `stdin`:
/// `base64 -d` (also `openssl base64 -d` and `openssl enc -d -a`), `xxd -r
/// -p`, `rev` and `tr`, the ways to hide a command's text on its way into a
/// shell. `None` for anything else, or a file operand.
pub fn filtered<W: AsRef<str>>(name: &str, args: &[W], stdin: &str) -> Option<String> {
    let args: Vec<&str> = args.iter().map(AsRef::as_ref).collect();
    let has = |flags: &[&str]| args.iter().any(|arg| flags.contains(arg));
    let operands = args.iter().filter(|arg| !arg.starts_with('-')).count();
    let text_of = |bytes: Vec<u8>| String::from_utf8(bytes).ok();
    let openssl_base64 = match args.first() {
        Some(&"base64") => has(&["-d"]),
        Some(&"enc") => has(&["-d"]) && has(&["-a", "-base64"]),
        _ => false,
    };
    match name {
        "openssl" if openssl_base64 && !has(&["-in"]) => filtered("base64", &["-d"], stdin),
        "base64" if has(&["-d", "--decode", "-D", "-di", "-id"]) && operands == 0 => {
            use base64::Engine as _;
            let compact: String = stdin.split_whitespace().collect();
            text_of(
                base64::engine::general_purpose::STANDARD
                    .decode(compact)
                    .ok()?,
            )
        }
        "xxd" if has(&["-r"]) && has(&["-p", "-ps", "-plain"]) && operands == 0 => {
            let compact: String = stdin.split_whitespace().collect();
            text_of(hex::decode(compact).ok()?)
        }
        "rev" if args.is_empty() => Some(
            stdin
                .split_inclusive('\n')
                .map(|line| {
                    let (text, end) = line
                        .strip_suffix('\n')
                        .map_or((line, ""), |text| (text, "\n"));
                    let mut reversed: String = text.chars().rev().collect();
                    reversed.push_str(end);
                    reversed
                })
                .collect(),
        ),
        "tr" => translated(&args, stdin),
        _ => None,
    }
}

/// `tr SET1 SET2` and `tr -d SET1`, with ranges (`a-z`) and escapes; other
/// options are not followed.
fn translated(args: &[&str], stdin: &str) -> Option<String> {
    let (delete, sets) = match args {
        ["-d", set] => (true, [*set, ""]),
        [from, to] if !from.starts_with('-') => (false, [*from, *to]),
        _ => return None,
    };
    let from = tr_set(sets[0]);
    let to = tr_set(sets[1]);
    Some(
        stdin
            .chars()
            .filter_map(|c| match from.iter().position(|&f| f == c) {
                Some(_) if delete => None,
                Some(at) => Some(to.get(at).or(to.last()).copied().unwrap_or(c)),
                None => Some(c),
            })
            .collect(),
    )
}

/// The characters a `tr` set names.
fn tr_set(set: &str) -> Vec<char> {
    let chars: Vec<char> = decode_escapes(set).chars().collect();
    let mut out = Vec::new();
    let mut index = 0;
    while let Some(&c) = chars.get(index) {
        match (chars.get(index + 1), chars.get(index + 2)) {
            (Some('-'), Some(&end)) if c <= end => {
                out.extend((c..=end).take(1 << 12));
                index += 3;
            }
            _ => {
                out.push(c);
                index += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sed_selects_lines_only_when_it_prints_deletes_or_quits() {
        for script in [
            "1p",
            "-n",
            "/commit/p",
            "2,$d",
            "5q",
            "/a\\/b/,/c/p;3q",
            "$!d",
            "1~2p",
        ] {
            let args: Vec<&str> = match script {
                "-n" => vec!["-n", "1p", "f"],
                script => vec!["-n", script, "f"],
            };
            assert_eq!(selected_lines_of("sed", &args), Some(vec!["f"]), "{script}");
        }
        assert_eq!(
            selected_lines_of("sed", &["-e", "1p", "-e", "3q"]),
            Some(vec![])
        );
        assert_eq!(selected_lines_of("sort", &["-o", "out", "f"]), None);
        assert_eq!(selected_lines_of("uniq", &["in", "out"]), None);
        assert_eq!(
            selected_lines_of("grep", &["-v", "x", "f"]),
            Some(vec!["f"])
        );
        for args in [
            &["s/a/b/", "f"][..],
            &["-n", "1p;s/x/y/p", "f"],
            &["-i", "1d", "f"],
            &["-ni", "1p", "f"],
            &["-f", "script.sed", "f"],
            &["1e date", "f"],
            &["y/ab/cd/", "f"],
            &["1r other", "f"],
        ] {
            assert_eq!(selected_lines_of("sed", args), None, "{args:?}");
        }
    }

    #[test]
    fn filters_decode_reverse_and_translate_their_input() {
        let none: [&str; 0] = [];
        assert_eq!(
            filtered("base64", &["-d"], "Z2l0\nIHN0YXR1cw==\n").as_deref(),
            Some("git status")
        );
        assert_eq!(filtered("base64", &["-d", "file"], "Z2l0").as_deref(), None);
        for openssl in [
            &["base64", "-d"][..],
            &["enc", "-d", "-a"],
            &["enc", "-base64", "-d"],
        ] {
            assert_eq!(filtered("openssl", openssl, "Z2l0").as_deref(), Some("git"));
        }
        assert_eq!(filtered("openssl", &["base64"], "Z2l0").as_deref(), None);
        assert_eq!(
            filtered("openssl", &["enc", "-d", "-a", "-in", "f"], "Z2l0").as_deref(),
            None
        );
        assert_eq!(
            filtered("xxd", &["-r", "-p"], "676974\n").as_deref(),
            Some("git")
        );
        assert_eq!(
            filtered("rev", &none, "tig\nsutats\n").as_deref(),
            Some("git\nstatus\n")
        );
        assert_eq!(
            filtered("tr", &["A-Za-z", "N-ZA-Mn-za-m"], "tvg fgnghf").as_deref(),
            Some("git status")
        );
        assert_eq!(filtered("tr", &["-d", "_"], "g_it").as_deref(), Some("git"));
        assert_eq!(filtered("tr", &["a-z", "x"], "ab-").as_deref(), Some("xx-"));
        assert_eq!(filtered("sort", &none, "b\na\n"), None);
    }
}
