//! What a shell started with arguments runs, read once for every gate.
//!
//! POSIX shells (`sh`, `bash`, `dash`, `ksh`, `zsh`, …) read every option
//! before their first operand: clusters of flags (`-ec`, `+x`), `-o` and
//! `-O` each taking the next word in turn (`-eo pipefail`, `-oc errexit`),
//! and bash's long options before them (`--rcfile FILE`). With `-c` the
//! first operand is the command string and the next is `$0`, wherever `-c`
//! stood (`bash -c -x 'cmd'`). fish runs the value of every `-C` and then
//! of every `-c` (long names by any unambiguous prefix), and reads a script
//! or its input when given no `-c`.

use crate::prelude::*;

/// Shells whose arguments [`ShellArgs`] reads.
pub fn is_shell(name: &str) -> bool {
    matches!(
        name,
        "sh" | "bash" | "zsh" | "dash" | "ksh" | "mksh" | "ash" | "yash" | "fish"
    )
}

/// What a shell's arguments say it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShellArgs<'a> {
    /// Files read before the commands: bash's `--rcfile` and `--init-file`.
    pub startup: Vec<&'a str>,
    /// Command strings run before the commands: fish's `-C`.
    pub init: Vec<&'a str>,
    /// Where its commands come from.
    pub runs: Runs<'a>,
    /// Where the positional parameters start among the arguments: `$0`
    /// for a command string, `$1` for a script or the input.
    pub positional: usize,
}

/// Where a shell's commands come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Runs<'a> {
    /// The command strings it is given, in the order they run: `-c`'s
    /// (fish runs every one).
    Strings(Vec<&'a str>),
    /// A script file it reads.
    Script(&'a str),
    /// Its standard input: no string and no script, `-s`, or a script
    /// named `/dev/stdin`.
    Input,
    /// Nothing: `-c` without its string, which the shell refuses.
    Nothing,
}

impl<'a> Runs<'a> {
    /// The command texts it runs that its arguments or `stdin` hold: its
    /// strings, or its input. Empty for a script.
    pub fn texts<'t>(&self, stdin: Option<&'t str>) -> Vec<&'t str>
    where
        'a: 't,
    {
        match self {
            Runs::Strings(strings) => strings.clone(),
            Runs::Input => stdin.into_iter().collect(),
            Runs::Script(_) | Runs::Nothing => Vec::new(),
        }
    }
}

impl<'a> ShellArgs<'a> {
    /// Reads the arguments of the shell `name` (its file name).
    pub fn parse<W: AsRef<str>>(name: &str, args: &'a [W]) -> Self {
        if name == "fish" {
            return fish(args);
        }
        let mut startup = Vec::new();
        let mut command_string = false;
        let mut reads_input = false;
        let mut index = 0;
        while let Some(arg) = args.get(index).map(AsRef::as_ref) {
            index += 1;
            if matches!(arg, "--" | "-") {
                break;
            }
            if let Some(long) = arg.strip_prefix("--") {
                if matches!(long, "rcfile" | "init-file") {
                    startup.extend(args.get(index).map(AsRef::as_ref));
                    index += 1;
                }
                continue;
            }
            let Some(flags) = arg
                .strip_prefix(['-', '+'])
                .filter(|flags| !flags.is_empty())
            else {
                index -= 1;
                break;
            };
            for flag in flags.chars() {
                match flag {
                    'c' => command_string = true,
                    's' => reads_input = true,
                    // Each takes the next word, in turn.
                    'o' | 'O' => index += 1,
                    _ => {}
                }
            }
        }
        let index = index.min(args.len());
        let operand = args.get(index).map(AsRef::as_ref);
        let (runs, positional) = match operand {
            _ if command_string => match operand {
                Some(string) => (Runs::Strings(vec![string]), index + 1),
                None => (Runs::Nothing, index),
            },
            _ if reads_input => (Runs::Input, index),
            Some("/dev/stdin" | "/dev/fd/0" | "/proc/self/fd/0") => (Runs::Input, index + 1),
            Some(script) => (Runs::Script(script), index + 1),
            None => (Runs::Input, index),
        };
        ShellArgs {
            startup,
            init: Vec::new(),
            runs,
            positional,
        }
    }
}

/// fish's options: each long name with its short one (`-` for none) and
/// whether it takes a value.
const FISH_OPTIONS: &[(&str, char, bool)] = &[
    ("command", 'c', true),
    ("init-command", 'C', true),
    ("features", 'f', true),
    ("debug", 'd', true),
    ("debug-output", 'o', true),
    ("debug-stack-frames", 'D', true),
    ("profile", 'p', true),
    ("profile-startup", '-', true),
    ("interactive", 'i', false),
    ("login", 'l', false),
    ("no-config", 'N', false),
    ("no-execute", 'n', false),
    ("print-rusage-self", '-', false),
    ("print-debug-categories", '-', false),
    ("private", 'P', false),
    ("help", 'h', false),
    ("version", 'v', false),
];

/// The fish option a long name spells, exactly or by an unambiguous prefix.
fn fish_long(name: &str) -> Option<(char, bool)> {
    let exact = FISH_OPTIONS.iter().find(|(long, ..)| *long == name);
    let mut prefixed = FISH_OPTIONS
        .iter()
        .filter(|(long, ..)| long.starts_with(name));
    let found = exact.or(match (prefixed.next(), prefixed.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    });
    found.map(|&(_, short, valued)| (short, valued))
}

/// fish's arguments: its `-C` strings run first, then its `-c` strings, or
/// else a script or its input.
fn fish<W: AsRef<str>>(args: &[W]) -> ShellArgs<'_> {
    let mut init = Vec::new();
    let mut strings = Vec::new();
    let mut index = 0;
    while let Some(arg) = args.get(index).map(AsRef::as_ref) {
        index += 1;
        if arg == "--" {
            break;
        }
        let (short, attached) = if let Some(long) = arg.strip_prefix("--") {
            let (name, value) = long
                .split_once('=')
                .map_or((long, None), |(name, value)| (name, Some(value)));
            match fish_long(name) {
                Some((short, true)) => (short, value),
                _ => continue,
            }
        } else if let Some(cluster) = arg.strip_prefix('-').filter(|c| !c.is_empty()) {
            // The first option of a cluster that takes a value takes the rest.
            let valued = |c: char| FISH_OPTIONS.iter().any(|&(_, s, v)| v && s == c);
            match cluster.char_indices().find(|&(_, c)| valued(c)) {
                Some((at, short)) => {
                    let rest = &cluster[at + short.len_utf8()..];
                    (short, Some(rest).filter(|rest| !rest.is_empty()))
                }
                None => continue,
            }
        } else {
            index -= 1;
            break;
        };
        let value = attached.or_else(|| {
            index += 1;
            args.get(index - 1).map(AsRef::as_ref)
        });
        match short {
            'c' => strings.extend(value),
            'C' => init.extend(value),
            _ => {}
        }
    }
    let index = index.min(args.len());
    let script = args.get(index).map(AsRef::as_ref);
    let runs = match script {
        _ if !strings.is_empty() => Runs::Strings(strings),
        Some(script) => Runs::Script(script),
        None => Runs::Input,
    };
    ShellArgs {
        startup: Vec::new(),
        init,
        runs,
        positional: index + usize::from(script.is_some()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(name: &str, args: &[&'static str]) -> ShellArgs<'static> {
        let args: &'static [&'static str] = Vec::leak(args.to_vec());
        ShellArgs::parse(name, args)
    }

    fn runs(name: &str, args: &[&'static str]) -> Runs<'static> {
        parsed(name, args).runs
    }

    #[test]
    fn finds_the_command_string_past_every_option() {
        let string = |text| Runs::Strings(vec![text]);
        assert_eq!(runs("bash", &["-c", "cmd"]), string("cmd"));
        assert_eq!(runs("bash", &["-c", "-x", "cmd"]), string("cmd"));
        assert_eq!(runs("bash", &["-c", "-o", "errexit", "cmd"]), string("cmd"));
        assert_eq!(runs("bash", &["-oc", "errexit", "cmd"]), string("cmd"));
        assert_eq!(
            runs("bash", &["-eo", "pipefail", "-c", "cmd"]),
            string("cmd")
        );
        assert_eq!(runs("bash", &["-O", "extglob", "-c", "cmd"]), string("cmd"));
        assert_eq!(runs("bash", &["+O", "extglob", "-c", "cmd"]), string("cmd"));
        assert_eq!(runs("bash", &["-c", "+x", "cmd"]), string("cmd"));
        assert_eq!(runs("bash", &["-ce", "--", "cmd"]), string("cmd"));
        assert_eq!(runs("sh", &["-c"]), Runs::Nothing);
        let with_rc = parsed(
            "bash",
            &["--rcfile", "/dev/null", "-ic", "cmd", "name", "a"],
        );
        assert_eq!(with_rc.startup, ["/dev/null"]);
        assert_eq!(with_rc.runs, string("cmd"));
        assert_eq!(with_rc.positional, 4);
    }

    #[test]
    fn tells_a_script_from_the_input() {
        assert_eq!(runs("bash", &["-O", "extglob"]), Runs::Input);
        assert_eq!(runs("bash", &["--rcfile", "/dev/null"]), Runs::Input);
        assert_eq!(runs("bash", &["-s", "x", "y"]), Runs::Input);
        assert_eq!(parsed("bash", &["-xs", "x"]).positional, 1);
        assert_eq!(runs("bash", &["-x", "-"]), Runs::Input);
        assert_eq!(runs("sh", &["/dev/stdin", "a"]), Runs::Input);
        assert_eq!(runs("sh", &["-e", "run.sh", "-c"]), Runs::Script("run.sh"));
        assert_eq!(parsed("sh", &["-e", "run.sh", "a"]).positional, 2);
    }

    #[test]
    fn runs_every_string_fish_is_given() {
        let strings = |texts: &[&'static str]| Runs::Strings(texts.to_vec());
        assert_eq!(runs("fish", &["-c", "a"]), strings(&["a"]));
        assert_eq!(runs("fish", &["--command=a"]), strings(&["a"]));
        assert_eq!(runs("fish", &["-c", "a", "-c", "b"]), strings(&["a", "b"]));
        assert_eq!(runs("fish", &["--comm", "a"]), strings(&["a"]));
        assert_eq!(runs("fish", &["-ic", "a"]), strings(&["a"]));
        let init = parsed("fish", &["--init=i", "-Cj", "run.fish", "x"]);
        assert_eq!(init.init, ["i", "j"]);
        assert_eq!(init.runs, Runs::Script("run.fish"));
        assert_eq!(init.positional, 3);
        assert_eq!(runs("fish", &["-n"]), Runs::Input);
    }
}
