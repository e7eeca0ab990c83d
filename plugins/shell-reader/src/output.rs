//! What `echo` and `printf` print, and which input a program that prints
//! some of its input's lines reads, for substitutions, pipes and files that
//! later commands read. The words are a gate's expanded words: fields, or
//! plain text.

use crate::prelude::*;

use alloc::borrow::Cow;

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

/// The files `name args…` prints the lines of, some of them or all of them
/// reshaped, when it is a program that only selects lines (`head`, `tail`,
/// `tac`, `sort`, `uniq`, `grep`, `sed` given only `p`, `d` and `q`
/// commands, `awk` that only prints lines) or cuts, joins, wraps or
/// re-encodes them (`cut`, `paste`, `fold`, `fmt`, `expand`, `unexpand`,
/// `strings`, `iconv`, `dd`), and writes no file (`sort -o`, `uniq in out`,
/// `sed -i`, `iconv -o`, `dd of=`): none for another program, and no file
/// when it reads standard input (`-` names standard input too). A gate that
/// reads the command's output as commands takes all the lines of its
/// input, which hold every command the output can.
pub fn selected_lines_of<'w, W: AsRef<str>>(name: &str, args: &'w [W]) -> Option<Vec<&'w str>> {
    match name {
        "sed" => return sed_selected_lines_of(args),
        "awk" | "gawk" | "mawk" | "nawk" => return awk_selected_lines_of(args),
        "dd" => return dd_input(args),
        _ => {}
    }
    let valued: &[&str] = match name {
        "head" | "tail" => &["-n", "-c", "--lines", "--bytes"],
        "sort" => &["-k", "-t", "-S", "-T", "--key", "--field-separator"],
        "uniq" => &["-f", "-s", "-w"],
        "grep" => &["-e", "-f", "-m", "-A", "-B", "-C", "--regexp", "--file"],
        "tac" => &["-s", "--separator"],
        "cut" => &[
            "-b",
            "-c",
            "-f",
            "-d",
            "--bytes",
            "--characters",
            "--fields",
            "--delimiter",
        ],
        "paste" => &["-d", "--delimiters"],
        "fold" => &["-w", "--width"],
        "fmt" => &["-w", "-g", "-p", "--width", "--goal", "--prefix"],
        "expand" | "unexpand" => &["-t", "--tabs"],
        "strings" => &["-n", "-t", "-e", "--bytes", "--radix", "--encoding"],
        "iconv" => &["-f", "-t", "--from-code", "--to-code"],
        _ => return None,
    };
    let mut files = Vec::new();
    let mut words = args.iter().map(AsRef::as_ref);
    while let Some(word) = words.next() {
        // `sort -o file` and `iconv -o file` write the file.
        let writes = match name {
            "sort" | "iconv" => ["-o", "--output"].contains(&word) || word.starts_with("--output="),
            _ => false,
        };
        if writes {
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
    // `grep -o` prints pieces of lines, `-c`, `-l` and `-n` other text.
    if name == "grep"
        && args
            .iter()
            .any(|arg| grep_prints_other_than_lines(arg.as_ref()))
    {
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

/// Whether a grep option has it print something other than whole lines:
/// parts of them (`-o`), counts, file names, or lines with a prefix.
fn grep_prints_other_than_lines(arg: &str) -> bool {
    const LONG: &[&str] = &[
        "--only-matching",
        "--count",
        "--files-with-matches",
        "--files-without-match",
        "--byte-offset",
        "--line-number",
        "--with-filename",
        "--null",
        "--initial-tab",
    ];
    match arg.strip_prefix('-') {
        Some(long) if long.starts_with('-') => LONG.contains(&arg),
        // A cluster's letters up to the first that takes a value.
        Some(cluster) => cluster
            .chars()
            .take_while(|c| !matches!(c, 'e' | 'f' | 'm' | 'A' | 'B' | 'C' | 'd' | 'D'))
            .any(|c| matches!(c, 'o' | 'c' | 'l' | 'L' | 'b' | 'n' | 'H' | 'Z' | 'T')),
        None => false,
    }
}

/// What a program reading `files` takes in: each file's text as
/// `file_text` gives it (`-` is `stdin`), or `stdin` when it names none;
/// none when any part is unknown.
pub fn input_of<'a, W: AsRef<str>>(
    files: &[W],
    stdin: Option<&'a str>,
    file_text: impl Fn(&str) -> Option<&'a str>,
) -> Option<String> {
    if files.is_empty() {
        return stdin.map(str::to_owned);
    }
    files
        .iter()
        .map(|file| match file.as_ref() {
            "-" => stdin,
            file => file_text(file),
        })
        .collect()
}

/// What a filter of [`filtered`] prints, of `stdin` or of the file it
/// names ([`filtered_file`]) as `file_text` gives it.
pub fn filtered_input<'a, W: AsRef<str>>(
    name: &str,
    args: &[W],
    stdin: Option<&'a str>,
    file_text: impl Fn(&str) -> Option<&'a str>,
) -> Option<String> {
    match filtered_file(name, args) {
        Some((file, rest)) => filtered(name, &rest, file_text(file)?),
        None => filtered(name, args, stdin?),
    }
}

/// [`selected_lines_of`] for `dd`: the file `if=` names, or standard input,
/// while no `of=` writes a file.
fn dd_input<W: AsRef<str>>(args: &[W]) -> Option<Vec<&str>> {
    let mut files = Vec::new();
    for arg in args.iter().map(AsRef::as_ref) {
        if arg.starts_with("of=") {
            return None;
        }
        if let Some(file) = arg.strip_prefix("if=") {
            files = vec![file];
        }
    }
    Some(files)
}

/// [`selected_lines_of`] for `awk`: its files, when its program only prints
/// whole lines, at every line or at those a pattern picks (`awk 1`,
/// `awk '{print}'`, `awk '/x/ {print $0}'`, `awk 'NR==2'`), and no
/// variable assignment stands among its files.
fn awk_selected_lines_of<W: AsRef<str>>(args: &[W]) -> Option<Vec<&str>> {
    let mut words = args.iter().map(AsRef::as_ref);
    let mut program = None;
    let mut files = Vec::new();
    while let Some(word) = words.next() {
        match word {
            "-F" | "-v" => {
                words.next();
            }
            "--" => {}
            // A program in a file, or one that runs another.
            "-f" | "-E" | "-e" | "--file" | "--exec" | "--source" => return None,
            _ if word.starts_with('-') && word.len() > 1 => {}
            _ if program.is_none() => program = Some(word),
            _ if word.contains('=') => return None,
            _ => files.push(word),
        }
    }
    prints_whole_lines(program?).then_some(files)
}

/// Whether the awk `program` is one rule that prints the line it matches,
/// and nothing else: a pattern without braces, or `{print}`/`{print $0}`
/// after an optional pattern.
fn prints_whole_lines(program: &str) -> bool {
    let program = program.trim();
    let (pattern, action) = match program.find('{') {
        Some(at) => (&program[..at], &program[at..]),
        None => (program, "{print}"),
    };
    let action: String = action.chars().filter(|c| !c.is_whitespace()).collect();
    let prints = matches!(
        action.as_str(),
        "{print}" | "{print;}" | "{print$0}" | "{print$0;}"
    );
    prints && !pattern.contains(['(', '{', '}', ';']) && !assigns(pattern)
}

/// Whether the awk expression `text` holds an assignment: an `=` that is
/// not part of `==`, `!=`, `<=` or `>=`.
fn assigns(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.iter().enumerate().any(|(at, byte)| {
        let before = at.checked_sub(1).and_then(|at| bytes.get(at));
        *byte == b'='
            && !matches!(before, Some(b'=' | b'!' | b'<' | b'>'))
            && bytes.get(at + 1) != Some(&b'=')
    })
}

/// The file a filter of [`filtered`] reads in place of standard input
/// (`base64 -d notes.txt`, `rev f`, `xxd -r -p f`, `openssl base64 -d -in
/// f`), and its arguments without it.
pub fn filtered_file<'w, W: AsRef<str>>(
    name: &str,
    args: &'w [W],
) -> Option<(&'w str, Vec<&'w str>)> {
    let args: Vec<&str> = args.iter().map(AsRef::as_ref).collect();
    if name == "openssl" {
        let at = args.iter().position(|arg| *arg == "-in")?;
        let file = *args.get(at + 1)?;
        let rest = [&args[..at], args.get(at + 2..).unwrap_or_default()].concat();
        return Some((file, rest));
    }
    if !matches!(name, "base64" | "xxd" | "rev") {
        return None;
    }
    let (files, rest): (Vec<&str>, Vec<&str>) = args
        .iter()
        .partition(|arg| !arg.starts_with('-') || **arg == "-");
    match files[..] {
        [file] if file != "-" => Some((file, rest)),
        _ => None,
    }
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

/// What `dirname` or `basename` (`name`) prints for `args`, a line per
/// path as GNU's print them (`basename -a`, `-s SUFFIX`, `basename PATH
/// SUFFIX`); `None` for another program, an option it does not know, or a
/// path the reader cannot know.
pub fn path_parts<W: AsRef<str>>(name: &str, args: &[W]) -> Option<String> {
    let mut paths = Vec::new();
    let (mut suffix, mut many) = (None, name == "dirname");
    let mut words = args.iter().map(AsRef::as_ref);
    while let Some(word) = words.next() {
        match word {
            "-a" | "--multiple" if name == "basename" => many = true,
            "-s" if name == "basename" => (suffix, many) = (Some(words.next()?), true),
            "--" => paths.extend(words.by_ref()),
            _ if word.starts_with("--suffix=") && name == "basename" => {
                (suffix, many) = (word.strip_prefix("--suffix="), true);
            }
            _ if word.starts_with('-') && word.len() > 1 => return None,
            _ => paths.push(word),
        }
    }
    if name == "basename" && !many && paths.len() == 2 {
        suffix = paths.pop();
    }
    if paths.is_empty()
        || paths
            .iter()
            .any(|path| path.contains(crate::field::UNKNOWN))
    {
        return None;
    }
    let mut out = String::new();
    for path in paths {
        let trimmed = path.trim_end_matches('/');
        let part = match (name, trimmed.rsplit_once('/')) {
            (_, _) if trimmed.is_empty() && !path.is_empty() => "/",
            ("dirname", None) => ".",
            ("dirname", Some((parent, _))) => match parent.trim_end_matches('/') {
                "" => "/",
                parent => parent,
            },
            ("basename", split) => {
                let base = split.map_or(trimmed, |(_, base)| base);
                match suffix {
                    Some(suffix) if base != suffix => base.strip_suffix(suffix).unwrap_or(base),
                    _ => base,
                }
            }
            _ => return None,
        };
        out.push_str(part);
        out.push('\n');
    }
    Some(out)
}

/// What `find` or `ls` (`name`) prints, as far as the paths in it go: for
/// `find`, each folder it starts from and a path under it the reader cannot
/// know (one whose name matches a lone `-name` test's pattern; the folder
/// itself only where it may match); for `ls`, each operand as given (a file, or a folder with `-d`)
/// and, without `-d`, a name the reader cannot know (what a folder holds).
/// `None` for another program.
pub fn listed<W: AsRef<str>>(name: &str, args: &[W]) -> Option<String> {
    let unknown = crate::field::UNKNOWN_TEXT;
    let args: Vec<&str> = args.iter().map(AsRef::as_ref).collect();
    let mut out = String::new();
    match name {
        "find" => {
            let folders = crate::runners::find_folders(&args);
            let mut starts: Vec<&str> = args[folders.clone()].to_vec();
            if starts.is_empty() {
                starts.push(".");
            }
            let tests = &args[folders.end..];
            // A lone `-name PATTERN` test: the names found match it, at any depth.
            let alternatives = tests
                .iter()
                .any(|test| matches!(*test, "-o" | "-or" | "!" | "-not" | "(" | ","));
            let names: Vec<&str> = tests
                .windows(2)
                .filter(|pair| matches!(pair[0], "-name" | "-iname"))
                .map(|pair| pair[1])
                .collect();
            // The folder a search starts from is printed too, unless only
            // files are asked for.
            let files_only = !alternatives && tests.windows(2).any(|pair| pair == ["-type", "f"]);
            for start in starts {
                match names.as_slice() {
                    [pattern] if !alternatives && !pattern.contains('/') => {
                        out.push_str(&format!("{start}/{unknown}/{pattern}\n{start}/{pattern}\n"))
                    }
                    _ if files_only => out.push_str(&format!("{start}/{unknown}\n")),
                    _ => out.push_str(&format!("{start}\n{start}/{unknown}\n")),
                }
            }
        }
        "ls" => {
            let (options, operands): (Vec<&str>, Vec<&str>) = args
                .iter()
                .partition(|arg| arg.starts_with('-') && arg.len() > 1);
            let folders_listed = !options.iter().any(|option| {
                option.starts_with("--directory")
                    || (!option.starts_with("--") && option.contains('d'))
            });
            // What a folder holds comes first: `ls dir | head -1` is one of its names.
            if folders_listed || operands.is_empty() {
                out.push_str(unknown);
                out.push('\n');
            }
            for operand in operands {
                out.push_str(operand);
                out.push('\n');
            }
        }
        _ => return None,
    }
    Some(out)
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
                        out.push_str(&decode_escapes(&octal_escapes(value)));
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

/// `%b`'s octal escapes, `\0` and up to three digits (`\0156` is `n`), as
/// the characters they stand for; the other escapes are left to
/// [`decode_escapes`].
fn octal_escapes(value: &str) -> Cow<'_, str> {
    if !value.contains("\\0") {
        return Cow::Borrowed(value);
    }
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(at) = rest.find("\\0") {
        out.push_str(&rest[..at]);
        let digits: String = rest[at + 2..]
            .chars()
            .take(3)
            .take_while(|c| c.is_digit(8))
            .collect();
        let code = u32::from_str_radix(&digits, 8).unwrap_or(0);
        match char::from_u32(code).filter(|_| !digits.is_empty()) {
            Some(c) => out.push(c),
            None => out.push_str("\\0"),
        }
        rest = &rest[at + 2 + digits.len()..];
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// What a filter that only transforms its input prints for `stdin`:
/// `base64` and `base64 -d` (also `openssl base64 -d` and `openssl enc -d
/// -a`), `xxd -r -p`, `rev` and `tr`, the ways to hide a command's text on its way into a
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
        // Encoding, which a later `base64 -d` undoes: GNU's lines of 76.
        "base64" if only_wraps(&args) => {
            use base64::Engine as _;
            let encoded = base64::engine::general_purpose::STANDARD.encode(stdin);
            let mut out = String::with_capacity(encoded.len() + encoded.len() / 76 + 1);
            for line in encoded.as_bytes().chunks(76) {
                out.push_str(core::str::from_utf8(line).ok()?);
                out.push('\n');
            }
            Some(out)
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
        "sed" | "gsed" => substituted(&args, stdin),
        "cut" => cut(&args, stdin),
        _ => None,
    }
}

/// `cut -c LIST`, `-b LIST` (read as characters) or `-f LIST [-d DELIM]
/// [-s]` on its input, with `--complement` and `--output-delimiter`; `None`
/// for a file operand or another option.
fn cut(args: &[&str], stdin: &str) -> Option<String> {
    let mut list = None;
    let mut fields = false;
    let mut delimiter = '\t';
    let mut output_delimiter = None;
    let mut only_delimited = false;
    let mut complement = false;
    let mut words = args.iter();
    while let Some(&word) = words.next() {
        let (option, value) = match word.split_once('=') {
            Some((option, value)) if option.starts_with("--") => (option, Some(value)),
            _ if word.len() > 2 && !word.starts_with("--") && word.starts_with('-') => {
                (&word[..2], Some(&word[2..]))
            }
            _ => (word, None),
        };
        let attached = value.is_some();
        let mut value = || value.or_else(|| words.next().copied());
        match option {
            // A flag with letters after it (`-sd:`) is not read.
            "-s" | "--only-delimited" | "--complement" | "-n" if attached => return None,
            "-c" | "-b" | "--characters" | "--bytes" => list = Some(value()?),
            "-f" | "--fields" => {
                list = Some(value()?);
                fields = true;
            }
            "-d" | "--delimiter" => delimiter = value()?.chars().next()?,
            "--output-delimiter" => output_delimiter = Some(value()?),
            "-s" | "--only-delimited" => only_delimited = true,
            "--complement" => complement = true,
            "-n" => {}
            _ => return None,
        }
    }
    let ranges = cut_ranges(list?)?;
    let picked = |index: usize| ranges.iter().any(|range| range.contains(&index)) != complement;
    let mut out = String::new();
    for line in stdin.lines() {
        if !fields {
            out.extend(
                line.chars()
                    .enumerate()
                    .filter(|(at, _)| picked(at + 1))
                    .map(|(_, c)| c),
            );
        } else if line.contains(delimiter) {
            let joiner = output_delimiter.map_or_else(|| delimiter.to_string(), str::to_owned);
            let kept: Vec<&str> = line
                .split(delimiter)
                .enumerate()
                .filter(|(at, _)| picked(at + 1))
                .map(|(_, field)| field)
                .collect();
            out.push_str(&kept.join(&joiner));
        } else if only_delimited {
            continue;
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    Some(out)
}

/// A `cut` list (`2`, `2-`, `-3`, `1,4-6`) as ranges of positions from 1.
fn cut_ranges(list: &str) -> Option<Vec<core::ops::RangeInclusive<usize>>> {
    let number = |text: &str| text.parse::<usize>().ok().filter(|&n| n > 0);
    list.split(',')
        .map(|part| match part.split_once('-') {
            None => number(part).map(|n| n..=n),
            Some(("", "")) => None,
            Some(("", end)) => number(end).map(|end| 1..=end),
            Some((start, "")) => number(start).map(|start| start..=usize::MAX),
            Some((start, end)) => Some(number(start)?..=number(end)?),
        })
        .collect()
}

/// `sed 's/FROM/TO/'` (or with `g`) on its input, for a FROM and TO of
/// plain characters; `None` for any other script.
fn substituted(args: &[&str], stdin: &str) -> Option<String> {
    const PATTERN_SIGNS: &[char] = &[
        '\\', '.', '[', ']', '*', '^', '$', '&', '+', '?', '(', ')', '{', '}', '|', '\n',
    ];
    let script = match args {
        [script] if !script.starts_with('-') => *script,
        ["-e" | "--expression", script] => *script,
        _ => return None,
    };
    let mut chars = script.strip_prefix('s')?.chars();
    let delimiter = chars.next().filter(|c| !c.is_alphanumeric())?;
    let mut parts = chars.as_str().split(delimiter);
    let (from, to, flags) = (parts.next()?, parts.next()?, parts.next()?);
    // `^` and `$` anchor FROM to the line's start or end (`s/^/--no-/`).
    let (from, at_start) = from
        .strip_prefix('^')
        .map_or((from, false), |rest| (rest, true));
    let (from, at_end) = from
        .strip_suffix('$')
        .map_or((from, false), |rest| (rest, true));
    if parts.next().is_some()
        || (from.is_empty() && !(at_start || at_end))
        || (at_start && at_end)
        || !matches!(flags, "" | "g")
        || from.contains(PATTERN_SIGNS)
        || to.contains(PATTERN_SIGNS)
    {
        return None;
    }
    Some(
        stdin
            .split_inclusive('\n')
            .map(|line| {
                let (text, end) = line
                    .strip_suffix('\n')
                    .map_or((line, ""), |text| (text, "\n"));
                let replaced = if at_start {
                    text.strip_prefix(from)
                        .map_or_else(|| text.to_owned(), |rest| format!("{to}{rest}"))
                } else if at_end {
                    text.strip_suffix(from)
                        .map_or_else(|| text.to_owned(), |rest| format!("{rest}{to}"))
                } else if flags == "g" {
                    text.replace(from, to)
                } else {
                    text.replacen(from, to, 1)
                };
                replaced + end
            })
            .collect(),
    )
}

/// Whether `base64 args…` encodes its input: no option but a line width.
fn only_wraps(args: &[&str]) -> bool {
    let mut words = args.iter();
    while let Some(word) = words.next() {
        match *word {
            "-w" | "--wrap" => {
                words.next();
            }
            _ if word.starts_with("-w") || word.starts_with("--wrap=") => {}
            _ => return false,
        }
    }
    true
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
    fn find_and_ls_print_their_paths_and_names_unknown() {
        let unknown = crate::field::UNKNOWN_TEXT;
        assert_eq!(
            listed("find", &["-L", ".git/hooks", "-type", "f"]),
            Some(format!(".git/hooks/{unknown}\n"))
        );
        assert_eq!(
            listed("find", &["-name", "x"]),
            Some(format!("./{unknown}/x\n./x\n"))
        );
        assert_eq!(
            listed("find", &["a", "-name", "x", "-o", "-name", "y"]),
            Some(format!("a\na/{unknown}\n"))
        );
        assert_eq!(listed("ls", &["-d", "a", "b"]).as_deref(), Some("a\nb\n"));
        assert_eq!(
            listed("ls", &["-la", "src"]),
            Some(format!("{unknown}\nsrc\n"))
        );
        assert_eq!(listed("cat", &["x"]), None);
    }

    #[test]
    fn sed_anchors_and_cut_columns_are_worked_out() {
        assert_eq!(
            filtered("sed", &["s/^/--no-/"], "verify\n").as_deref(),
            Some("--no-verify\n")
        );
        assert_eq!(filtered("sed", &["s/y$/z/"], "yy").as_deref(), Some("yz"));
        assert_eq!(filtered("sed", &["s/^$/x/"], ""), None);
        assert_eq!(
            filtered("cut", &["-c2-"], "xtama\n").as_deref(),
            Some("tama\n")
        );
        assert_eq!(
            filtered("cut", &["-d", ":", "-f", "2,3"], "a:b:c:d\nplain\n").as_deref(),
            Some("b:c\nplain\n")
        );
        assert_eq!(
            filtered("cut", &["--complement", "-c", "1,3"], "abcd").as_deref(),
            Some("bd\n")
        );
        assert_eq!(filtered("cut", &["-c2", "file.txt"], ""), None);
        assert_eq!(filtered("cut", &["-sd:", "-f1"], ""), None);
    }

    #[test]
    fn sed_substitutes_plain_text_on_its_input() {
        assert_eq!(
            filtered("sed", &["s/a/n/"], "-a\n").as_deref(),
            Some("-n\n")
        );
        assert_eq!(
            filtered("sed", &["-e", "s|x|y|g"], "xx\nx").as_deref(),
            Some("yy\ny")
        );
        assert_eq!(filtered("sed", &["s/a.*/n/"], "-a"), None);
        assert_eq!(filtered("sed", &["s/a/n/;s/b/c/"], "-a"), None);
        assert_eq!(filtered("sed", &["s/a/n/", "file"], "-a"), None);
    }

    #[test]
    fn dirname_and_basename_print_each_paths_part() {
        let parts = |name: &str, args: &[&str]| path_parts(name, args);
        assert_eq!(
            parts("dirname", &[".git/hooks/pre-commit"]).as_deref(),
            Some(".git/hooks\n")
        );
        assert_eq!(
            parts("dirname", &["/a//b/", "c", "/"]).as_deref(),
            Some("/a\n.\n/\n")
        );
        assert_eq!(parts("dirname", &["/x"]).as_deref(), Some("/\n"));
        assert_eq!(
            parts("basename", &["/a/b.sh", ".sh"]).as_deref(),
            Some("b\n")
        );
        assert_eq!(
            parts("basename", &["-a", "/a/b/", "c"]).as_deref(),
            Some("b\nc\n")
        );
        assert_eq!(
            parts("basename", &["-s", ".json", "/a/x.json", "y.json"]).as_deref(),
            Some("x\ny\n")
        );
        assert_eq!(parts("dirname", &["-z", "a/b"]), None);
        assert_eq!(
            parts("dirname", &[&format!("a/{}", crate::field::UNKNOWN_TEXT)]),
            None
        );
    }

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
    fn programs_that_cut_join_or_wrap_lines_print_their_files_lines() {
        type Case<'a> = (&'a str, &'a [&'a str], Option<Vec<&'a str>>);
        let cases: [Case<'_>; 14] = [
            ("cut", &["-c1-", "f"], Some(vec!["f"])),
            ("cut", &["-d", ":", "-f", "1"], Some(vec![])),
            ("paste", &["-d", ",", "a", "-"], Some(vec!["a", "-"])),
            ("fold", &["-w", "200", "f"], Some(vec!["f"])),
            ("strings", &["-n", "2", "f"], Some(vec!["f"])),
            (
                "iconv",
                &["-f", "utf8", "-t", "ascii", "f"],
                Some(vec!["f"]),
            ),
            ("iconv", &["-f", "utf8", "-o", "out", "f"], None),
            ("dd", &["if=f", "bs=1"], Some(vec!["f"])),
            ("dd", &["if=f", "of=g"], None),
            ("awk", &["{print}", "f"], Some(vec!["f"])),
            ("awk", &["-F:", "NR==2 { print $0 }", "f"], Some(vec!["f"])),
            ("awk", &["{print $1}", "f"], None),
            ("awk", &["{system($0)}", "f"], None),
            ("awk", &["x=1", "f"], None),
        ];
        for (name, args, files) in cases {
            assert_eq!(selected_lines_of(name, args), files, "{name} {args:?}");
        }
    }

    #[test]
    fn a_programs_input_is_its_files_in_order_or_standard_input() {
        let file_text = |file: &str| (file == "a").then_some("A\n");
        let none: [&str; 0] = [];
        assert_eq!(
            input_of(&none, Some("in"), file_text).as_deref(),
            Some("in")
        );
        assert_eq!(
            input_of(&["a", "-", "a"], Some("in\n"), file_text).as_deref(),
            Some("A\nin\nA\n")
        );
        assert_eq!(input_of(&["a", "b"], Some("in"), file_text), None);
        assert_eq!(input_of(&["-"], None, file_text), None);
        assert_eq!(
            filtered_input("rev", &["a"], None, file_text).as_deref(),
            Some("A\n")
        );
        assert_eq!(
            filtered_input("rev", &none, Some("ab"), file_text).as_deref(),
            Some("ba")
        );
    }

    #[test]
    fn a_filter_may_read_a_file_in_place_of_its_input() {
        assert_eq!(
            filtered_file("base64", &["-d", "notes.txt"]),
            Some(("notes.txt", vec!["-d"]))
        );
        assert_eq!(filtered_file("rev", &["f"]), Some(("f", vec![])));
        assert_eq!(
            filtered_file("openssl", &["enc", "-d", "-a", "-in", "f"]),
            Some(("f", vec!["enc", "-d", "-a"]))
        );
        assert_eq!(filtered_file("rev", &["-"]), None);
        assert_eq!(filtered_file("rev", &["a", "b"]), None);
        assert_eq!(filtered_file("tr", &["a", "b"]), None);
    }

    #[test]
    fn filters_decode_reverse_and_translate_their_input() {
        let none: [&str; 0] = [];
        assert_eq!(
            filtered("base64", &["-d"], "Z2l0\nIHN0YXR1cw==\n").as_deref(),
            Some("git status")
        );
        assert_eq!(filtered("base64", &["-d", "file"], "Z2l0").as_deref(), None);
        assert_eq!(filtered("base64", &none, "git").as_deref(), Some("Z2l0\n"));
        let long = "git commit --no-verify ".repeat(4);
        let encoded = filtered("base64", &["-w", "0"], &long).unwrap();
        assert_eq!(
            filtered("base64", &["-d"], &encoded).as_deref(),
            Some(&*long)
        );
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
