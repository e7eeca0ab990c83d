//! The small command languages of editors and text tools that run shell
//! commands: ex and vim (`:!cmd`, `:r !cmd`, `system('cmd')`), `ed`, `sed`
//! (`e cmd`, `s/…/cmd/e`), `dc` (`!cmd`), `m4` (`syscmd(cmd)`) and Emacs
//! Lisp (`(shell-command "cmd")`, `(call-process "git" nil nil nil …)`).
//! Each is read only as far as finding those commands.

use crate::prelude::*;

use crate::interpreters::quoted;
use crate::output::joined;

/// The shell text of each ex command in `script` (vim's `-c`, `+cmd` and
/// `--cmd`, or what `ex`, `ed` and `vim -es` read), one command a line.
/// Commands in vim's script languages come back as the interpreter's
/// command line (`lua -e '…'`), for the gate to read as such.
pub fn ex_commands(script: &str) -> Vec<String> {
    script.lines().filter_map(ex_shell).collect()
}

fn ex_shell(command: &str) -> Option<String> {
    let mut rest = command.trim_start_matches([':', ' ', '\t']);
    for modifier in ["silent!", "silent", "sil!", "sil", "exe", "execute"] {
        if let Some(after) = rest.strip_prefix(modifier) {
            rest = after.trim_start();
        }
    }
    // A range: line numbers, `%`, `.`, `$`, marks, offsets.
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit() || "%.$,;+-' ".contains(c));
    if let Some(shell) = rest.strip_prefix('!') {
        return Some(shell.trim_start_matches('!').to_owned());
    }
    for read in ["r", "read", "e", "edit", "w", "write"] {
        let Some(after) = rest.strip_prefix(read) else {
            continue;
        };
        // `:r!cmd` runs a command, `:w!` only forces a write: only `w !cmd` does.
        let after = if read.starts_with('w') {
            after.strip_prefix(' ')
        } else {
            Some(after)
        };
        if let Some(shell) = after.map(str::trim_start).and_then(|a| a.strip_prefix('!')) {
            return Some(shell.to_owned());
        }
    }
    for terminal in ["terminal ", "term "] {
        if let Some(mut shell) = rest.strip_prefix(terminal) {
            // Options first: `:terminal ++close cmd`.
            while let Some((_, after)) = shell.strip_prefix("++").and_then(|o| o.split_once(' ')) {
                shell = after;
            }
            return Some(shell.to_owned());
        }
    }
    for (prefix, interpreter) in [
        ("lua ", "lua -e"),
        ("py3 ", "python3 -c"),
        ("python3 ", "python3 -c"),
        ("pyx ", "python3 -c"),
        ("python ", "python -c"),
        ("perl ", "perl -e"),
        ("ruby ", "ruby -e"),
    ] {
        if let Some(code) = rest.strip_prefix(prefix) {
            return Some(format!("{interpreter} {}", quoted(code)));
        }
    }
    ["system(", "systemlist(", "jobstart(", "termopen("]
        .iter()
        .find_map(|call| rest.find(call).map(|at| &rest[at + call.len()..]))
        .and_then(|arguments| vim_string(arguments.trim_start()))
}

/// The vim string literal `text` starts with: `'…'` (`''` a quote) or
/// `"…"` (backslash escapes).
fn vim_string(text: &str) -> Option<String> {
    if let Some(body) = text.strip_prefix('\'') {
        let mut out = String::new();
        let mut chars = body.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\'' if chars.peek() == Some(&'\'') => {
                    chars.next();
                    out.push('\'');
                }
                '\'' => return Some(out),
                c => out.push(c),
            }
        }
        return Some(out);
    }
    let body = text.strip_prefix('"')?;
    let end = closing_quote(body, '"');
    Some(crate::shell::decode_escapes(&body[..end]).into_owned())
}

/// Where the string whose body starts `body` ends: its closing `quote`
/// not escaped by a backslash, or the end.
fn closing_quote(body: &str, quote: char) -> usize {
    let mut escaped = false;
    for (at, c) in body.char_indices() {
        match c {
            '\\' if !escaped => escaped = true,
            c if c == quote && !escaped => return at,
            _ => escaped = false,
        }
    }
    body.len()
}

/// The shell commands of a `sed` script: `e command`, and the replacement
/// of an `s` command with the `e` flag, which sed runs as a command.
pub fn sed_commands(script: &str) -> Vec<String> {
    read_sed(script).commands
}

/// The text a `sed` script puts into what it edits, one piece a line: the
/// replacements of its `s` commands and the text of `a`, `i` and `c`.
pub fn sed_added(script: &str) -> String {
    read_sed(script).added.join("\n")
}

/// What a `sed` script runs and what it writes.
struct SedScript {
    commands: Vec<String>,
    added: Vec<String>,
}

fn read_sed(script: &str) -> SedScript {
    let mut out = SedScript {
        commands: Vec::new(),
        added: Vec::new(),
    };
    let mut rest = script;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ';' || c == '}');
        rest = sed_address(rest);
        let mut chars = rest.chars();
        let Some(command) = chars.next() else {
            return out;
        };
        rest = chars.as_str();
        match command {
            'e' => {
                let (line, after) = rest.split_once('\n').unwrap_or((rest, ""));
                if !line.trim().is_empty() {
                    out.commands.push(line.trim().to_owned());
                }
                rest = after;
            }
            's' | 'y' => {
                let Some(delimiter) = rest.chars().next() else {
                    return out;
                };
                let body = &rest[delimiter.len_utf8()..];
                let pattern_end = closing_quote(body, delimiter);
                let after_pattern = body.get(pattern_end + delimiter.len_utf8()..).unwrap_or("");
                let replacement_end = closing_quote(after_pattern, delimiter);
                let mut escaped = String::from('\\');
                escaped.push(delimiter);
                let replacement =
                    after_pattern[..replacement_end].replace(&escaped, &delimiter.to_string());
                rest = after_pattern
                    .get(replacement_end + delimiter.len_utf8()..)
                    .unwrap_or("");
                let flags_end = rest.find([';', '\n', '}']).unwrap_or(rest.len());
                if command == 's' {
                    // Put inside a line, it may start a command of its own there.
                    let added = replacement
                        .trim_start_matches(|c: char| c.is_whitespace() || ";&|".contains(c));
                    out.added.push(added.replace("\\n", "\n"));
                    if rest[..flags_end].contains('e') {
                        out.commands.push(replacement);
                    }
                }
                rest = &rest[flags_end..];
            }
            '{' | '!' => {}
            // `a text`, or `a\` with the text on the next line.
            'a' | 'i' | 'c' => {
                let (line, after) = rest.split_once('\n').unwrap_or((rest, ""));
                let text = line.trim_start();
                let text = text.strip_prefix('\\').unwrap_or(text);
                rest = after;
                if text.trim().is_empty() {
                    let (next, after) = rest.split_once('\n').unwrap_or((rest, ""));
                    out.added.push(next.trim_start().to_owned());
                    rest = after;
                } else {
                    out.added.push(text.to_owned());
                }
            }
            // File names and labels run to the end of the line.
            'r' | 'R' | 'w' | 'W' | 'b' | 't' | 'T' | ':' => {
                rest = rest.split_once('\n').map_or("", |(_, after)| after);
            }
            _ => rest = rest.trim_start_matches(|c: char| c != ';' && c != '\n'),
        }
    }
}

/// `script` past a leading sed address (`3`, `$`, `/re/`, `\%re%`, `1,5`,
/// `0~2`, and `!`).
fn sed_address(mut script: &str) -> &str {
    loop {
        script = script.trim_start();
        if let Some(body) = script.strip_prefix('/') {
            let end = closing_quote(body, '/');
            script = body.get(end + 1..).unwrap_or("");
        } else if let Some(body) = script.strip_prefix('\\') {
            let Some(delimiter) = body.chars().next() else {
                return "";
            };
            let body = &body[delimiter.len_utf8()..];
            let end = closing_quote(body, delimiter);
            script = body.get(end + delimiter.len_utf8()..).unwrap_or("");
        } else if script.starts_with(|c: char| c.is_ascii_digit() || "$,~+".contains(c)) {
            script = script.trim_start_matches(|c: char| c.is_ascii_digit() || "$,~+".contains(c));
        } else {
            return script.trim_start_matches(['!', ' ']);
        }
        // Flags of a regex address (`/re/I`).
        script = script.trim_start_matches(['I', 'M']);
    }
}

/// `dc`'s `!command`: the rest of the line runs in a shell.
pub fn dc_commands(program: &str) -> Vec<String> {
    program
        .lines()
        .filter_map(|line| line.split_once('!'))
        .map(|(_, command)| command.to_owned())
        .filter(|command| !command.starts_with(['<', '>', '=']))
        .collect()
}

/// The commands of m4's `syscmd(…)` and `esyscmd(…)`, m4's quotes removed.
pub fn m4_commands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for call in ["syscmd(", "esyscmd("] {
        let mut rest = text;
        while let Some(at) = rest.find(call) {
            rest = &rest[at + call.len()..];
            let mut depth = 0usize;
            let end = rest
                .char_indices()
                .find(|&(_, c)| {
                    match c {
                        '(' => depth += 1,
                        ')' if depth == 0 => return true,
                        ')' => depth -= 1,
                        _ => {}
                    }
                    false
                })
                .map_or(rest.len(), |(at, _)| at);
            out.push(rest[..end].replace(['`', '\'', '[', ']'], ""));
        }
    }
    out
}

/// What Emacs Lisp code runs: the command string of `shell-command` and
/// its kin, and the program and arguments of `call-process` and its kin.
pub fn lisp_commands(code: &str) -> Vec<String> {
    // The calls whose strings are a shell command, and the calls whose
    // strings are a program and its arguments after `skip` leading strings.
    const SHELL: &[&str] = &[
        "(shell-command",
        "(async-shell-command",
        "(shell-command-to-string",
        "(call-process-shell-command",
        "(process-file-shell-command",
        "(start-process-shell-command",
        "(start-file-process-shell-command",
        "(compile",
    ];
    const PROGRAM: &[(&str, usize)] = &[
        ("(call-process", 0),
        ("(process-file", 0),
        ("(process-lines", 0),
        ("(call-process-region", 0),
        ("(start-process", 2),
        ("(start-file-process", 2),
        ("(make-process", 0),
    ];
    let mut out = Vec::new();
    for (at, _) in code.match_indices('(') {
        let rest = &code[at..];
        let call_end = rest
            .find(|c: char| c.is_whitespace() || c == ')')
            .unwrap_or(rest.len());
        let call = &rest[..call_end];
        let strings = lisp_strings(&rest[call_end..]);
        if SHELL.contains(&call) {
            // The command, and all the form's strings joined, for a
            // command made with `concat`.
            let skip = usize::from(call.starts_with("(start"));
            out.extend(strings.get(skip).cloned());
            if strings.len() > skip + 1 {
                out.push(strings[skip..].concat());
            }
        } else if let Some((_, skip)) = PROGRAM.iter().find(|(name, _)| *name == call) {
            let words: Vec<String> = strings.iter().skip(*skip).map(|w| quoted(w)).collect();
            if !words.is_empty() {
                out.push(joined(&words));
            }
        }
    }
    out
}

/// The string literals of one Lisp form, up to its closing parenthesis.
fn lisp_strings(form: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut rest = form;
    while let Some(c) = rest.chars().next() {
        rest = &rest[c.len_utf8()..];
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => break,
            ')' => depth -= 1,
            ';' => rest = rest.split_once('\n').map_or("", |(_, after)| after),
            '"' => {
                let end = closing_quote(rest, '"');
                out.push(crate::shell::decode_escapes(&rest[..end]).into_owned());
                rest = rest.get(end + 1..).unwrap_or("");
            }
            _ => {}
        }
    }
    out
}
