//! Programs that hand text to a shell elsewhere or later: a terminal
//! multiplexer's new windows and typed keys, `at` and `crontab`, `make`'s
//! recipes, `expect`'s `spawn`, PowerShell's `-Command`. What each runs, as
//! shell text, where the command shows it.

use crate::prelude::*;

/// The shell text `name args…` hands on; `file` gives the content of a file
/// the command wrote earlier, when it did. Empty for other programs.
pub fn shell_texts<'a, W: AsRef<str>>(
    name: &str,
    args: &[W],
    stdin: Option<&str>,
    file: impl Fn(&str) -> Option<&'a str>,
) -> Vec<String> {
    let words = || args.iter().map(AsRef::as_ref);
    let option_value = |names: &[&str]| {
        let at = words().position(|arg| names.contains(&arg))?;
        args.get(at + 1).map(AsRef::as_ref)
    };
    // What a file operand holds: `-` and `/dev/stdin` are standard input.
    let content = |path: &str| match path {
        "-" | "/dev/stdin" => stdin.map(str::to_owned),
        path => file(path).map(str::to_owned),
    };
    let stdin_text = || stdin.map(str::to_owned);
    match name {
        // Every word may be a command a pane runs or keys typed into its shell.
        "tmux" => words()
            .filter(|arg| !arg.starts_with('-'))
            .map(str::to_owned)
            .collect(),
        "screen" if words().any(|arg| arg == "-X") => words()
            .skip_while(|arg| !matches!(*arg, "stuff" | "exec" | "screen"))
            .skip(1)
            .map(str::to_owned)
            .collect(),
        "at" | "batch" => option_value(&["-f"])
            .map_or_else(stdin_text, content)
            .into_iter()
            .collect(),
        "crontab" if !words().any(|arg| matches!(arg, "-l" | "-r" | "-e")) => words()
            .rev()
            .find(|arg| !arg.starts_with('-') || *arg == "-")
            .map_or_else(stdin_text, content)
            .map_or_else(Vec::new, |table| cron_commands(&table)),
        "make" | "gmake" => {
            let makefile = match option_value(&["-f", "--file", "--makefile"]) {
                Some(path) => content(path),
                None => ["GNUmakefile", "makefile", "Makefile"]
                    .iter()
                    .find_map(|name| file(name))
                    .map(str::to_owned),
            };
            makefile.map_or_else(Vec::new, |text| recipes(&text))
        }
        "expect" => option_value(&["-c"])
            .map(str::to_owned)
            .or_else(|| option_value(&["-f"]).map_or_else(stdin_text, content))
            .map_or_else(Vec::new, |code| spawned(&code)),
        "pwsh" | "powershell" | "powershell.exe" | "pwsh.exe" => {
            let lowered: Vec<String> = words().map(str::to_ascii_lowercase).collect();
            let value_of = |names: &[&str]| {
                let at = lowered
                    .iter()
                    .position(|arg| names.contains(&arg.as_str()))?;
                args.get(at + 1).map(AsRef::as_ref)
            };
            let mut texts: Vec<String> = value_of(&["-c", "-command"])
                .map(str::to_owned)
                .into_iter()
                .collect();
            texts.extend(value_of(&["-e", "-ec", "-encodedcommand"]).and_then(utf16_base64));
            texts
        }
        _ => Vec::new(),
    }
}

/// The commands of a crontab: each line's after its five time fields (or
/// an `@reboot`-style name); comments and variable lines run nothing.
fn cron_commands(table: &str) -> Vec<String> {
    table
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .filter_map(|line| {
            let fields = if line.starts_with('@') { 1 } else { 5 };
            let mut rest = line;
            for _ in 0..fields {
                rest = rest.trim_start().split_once(char::is_whitespace)?.1;
            }
            Some(rest.trim().to_owned())
        })
        .collect()
}

/// A makefile's recipe lines, as the shell gets them: tab-indented, without
/// the `@`, `-` and `+` prefixes, `$$` as `$`.
fn recipes(makefile: &str) -> Vec<String> {
    makefile
        .lines()
        .filter_map(|line| line.strip_prefix('\t'))
        .map(|recipe| {
            recipe
                .trim_start_matches(['@', '-', '+'])
                .replace("$$", "$")
        })
        .collect()
}

/// What Tcl's `spawn` and `exec` start in `expect` code, one command each.
fn spawned(code: &str) -> Vec<String> {
    code.split(['\n', ';'])
        .filter_map(|command| {
            let command = command.trim_start_matches([' ', '\t', '[']);
            command
                .strip_prefix("spawn ")
                .or_else(|| command.strip_prefix("exec "))
                .map(|rest| rest.trim_end_matches([']', ' ']).to_owned())
        })
        .collect()
}

/// PowerShell's `-EncodedCommand`: base64 of UTF-16LE text.
fn utf16_base64(encoded: &str) -> Option<String> {
    use base64::Engine as _;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .ok()?;
    let units: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|pair| u16::from_le_bytes([pair[0], pair[1]]))
        .collect();
    String::from_utf16(&units).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(name: &str, args: &[&str], stdin: Option<&str>) -> Vec<String> {
        shell_texts(name, args, stdin, |path| {
            (path == "Makefile").then_some("all:\n\t@git commit -m \"$$X\"\n")
        })
    }

    #[test]
    fn programs_that_run_shell_text_elsewhere_are_read() {
        assert!(texts("tmux", &["new", "-d", "git status"], None).contains(&"git status".into()));
        assert_eq!(
            texts("screen", &["-S", "s", "-X", "stuff", "ls\n"], None),
            ["ls\n"]
        );
        assert_eq!(texts("at", &["now"], Some("ls")), ["ls"]);
        assert_eq!(
            texts(
                "crontab",
                &["-"],
                Some("# x\nPATH=/bin\n* * * * * git status\n@reboot ls -l\n")
            ),
            ["git status", "ls -l"]
        );
        assert_eq!(texts("make", &[], None), ["git commit -m \"$X\""]);
        assert_eq!(texts("make", &["-f", "-"], Some("x:\n\tls\n")), ["ls"]);
        assert_eq!(
            texts("expect", &["-c", "spawn git status; expect eof"], None),
            ["git status"]
        );
        // "ls" in UTF-16LE, base64.
        assert_eq!(
            texts("pwsh", &["-EncodedCommand", "bABzAA=="], None),
            ["ls"]
        );
        assert_eq!(texts("pwsh", &["-Command", "ls"], None), ["ls"]);
        assert!(texts("git", &["status"], None).is_empty());
        assert!(texts("crontab", &["-l"], None).is_empty());
    }
}
