//! Signals sent to Tama's processes. Claude Code and Codex read a hook that
//! dies by a signal, or never answers, as a hook that failed, and go on: a
//! command that kills or stops the `tama` a hook runs, or the shell a
//! harness runs it through, lets the tool calls after it through unchecked
//! (`pkill -f run-hook`, `killall tama`, `kill $(pgrep tama)`, such a loop
//! left running in the background). A process's resource limits changed
//! from outside (`prlimit --pid`) are inherited by every hook it starts,
//! which then cannot run.
//!
//! Which processes a pattern selects is decided as `pkill` decides it, by
//! matching the pattern as a regular expression against the names and
//! command lines Tama's processes have.

use crate::prelude::*;

use regex_automata::nfa::thompson::{self, pikevm::PikeVM};
use regex_automata::util::syntax;
use shell_reader::field::UNKNOWN_TEXT;

use crate::commands::basename;
use crate::loaded::SHELLS;
use crate::walk::{Result, Walker, shown};

/// What `pgrep` or `pidof` prints when what it lists may be Tama's
/// processes: their ids, unknown but known to be theirs.
const TAMA_PIDS: &str = "\u{FFFC}tama-pids\u{FFFC}";

/// The names a process running a hook has: `tama`, and the shells a
/// harness runs a hook command through (`sh -c`, `$SHELL -lc`).
fn process_names() -> impl Iterator<Item = &'static str> {
    core::iter::once("tama").chain(SHELLS.iter().copied())
}

/// `pkill` and `pgrep` options that take a value.
const PGREP_VALUED: &[&str] = &[
    "-d",
    "--delimiter",
    "-g",
    "--pgroup",
    "-G",
    "--group",
    "-P",
    "--parent",
    "-s",
    "--session",
    "-t",
    "--terminal",
    "-u",
    "--euid",
    "-U",
    "--uid",
    "-F",
    "--pidfile",
    "--signal",
    "--ns",
    "--nslist",
    "-r",
    "--runstates",
    "--env",
    "--cgroup",
];

/// `killall` options that take a value.
const KILLALL_VALUED: &[&str] = &[
    "-s",
    "--signal",
    "-u",
    "--user",
    "-o",
    "--older-than",
    "-y",
    "--younger-than",
    "-n",
    "--ns",
    "-Z",
    "--context",
];

/// Refuses a command that signals Tama's processes or may, or that sets
/// another process's resource limits. `fed` says the command's operands
/// come in part from its input (`… | xargs kill`).
pub fn check(walker: &Walker<'_>, name: &str, args: &[String], fed: bool) -> Result<()> {
    let tama = walker.protected.tama_binary.as_str();
    let refused = match name {
        "kill" => kill(walker, args, fed),
        "pkill" => pgrep_selects_tama(args, tama)
            .map(|why| format!("`pkill {}` {why}", shown(&args.join(" ")))),
        "killall" => killall_selects_tama(args)
            .map(|why| format!("`killall {}` {why}", shown(&args.join(" ")))),
        // `fuser -k /bin/sh`: every process running the file is killed.
        "fuser" if fuser_kills_hooks(args, tama) => Some(format!(
            "`fuser {}` kills the processes running a shell or `tama`",
            shown(&args.join(" "))
        )),
        "prlimit" if sets_another_process(args) => {
            return Err(format!(
                "the tool call sets the resource limits of a running process (`prlimit {}`): a harness's hooks start under its limits, and Tama, unable to run under them, fails where the harness goes on without it",
                shown(&args.join(" "))
            ));
        }
        _ => None,
    };
    match refused {
        Some(how) => Err(format!(
            "the tool call signals processes that may be Tama's: {how}. A harness goes on when a hook dies or stops, so no hook would check what runs after it"
        )),
        None => Ok(()),
    }
}

/// Why `kill args…` may signal Tama's processes: it is handed the ids
/// `pgrep` or `pidof` found of them, or ids it cannot know in a command
/// that lists processes and names `tama` or `run-hook`, as a filter picking
/// them out of the list would (`ps aux | grep '[t]ama' | awk …`, a loop
/// over `/proc`).
fn kill(walker: &Walker<'_>, args: &[String], fed: bool) -> Option<String> {
    if args.iter().any(|arg| arg.contains(TAMA_PIDS)) {
        return Some(
            "`kill` is handed the ids `pgrep` or `pidof` found of processes that may be Tama's"
                .to_owned(),
        );
    }
    // Ids written out (`12345`, a process group's `-12345`) or jobs (`%1`)
    // are known; anything else (a variable the gate cannot know, a glob) is not.
    let mut words = args.iter().map(String::as_str);
    let mut ids = Vec::new();
    while let Some(word) = words.next() {
        match word {
            "-s" | "-n" => drop(words.next()),
            _ if word.starts_with('-') && !is_number(&word[1..]) => {}
            _ => ids.push(word),
        }
    }
    let unknown = fed
        || ids
            .iter()
            .any(|id| !is_number(id.trim_start_matches('-')) && !id.starts_with('%'));
    let text = walker.command_text();
    (unknown && lists_processes(&text) && (names_tama_processes(&text) || names_shell(&text))).then(|| {
        "`kill` is handed process ids the gate cannot know, picked out by a command that names `tama` or a shell hooks run through".to_owned()
    })
}

/// Whether `text` names a shell as a word of its own (`awk '$2=="sh"'`,
/// `[ "$(cat $p/comm)" = bash ]`), not a script's extension (`server.sh`)
/// or part of a longer name.
fn names_shell(text: &str) -> bool {
    let part_of_name = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.');
    SHELLS.iter().any(|shell| {
        text.match_indices(shell).any(|(at, _)| {
            !text[..at].chars().next_back().is_some_and(part_of_name)
                && !text[at + shell.len()..]
                    .chars()
                    .next()
                    .is_some_and(part_of_name)
        })
    })
}

/// Whether `fuser -k` (or `--kill`) kills the processes using a shell's
/// program or `tama`'s.
fn fuser_kills_hooks(args: &[String], tama: &str) -> bool {
    let kills = args.iter().any(|arg| {
        arg == "--kill" || (arg.starts_with('-') && !arg.starts_with("--") && arg.contains('k'))
    });
    kills
        && args.iter().filter(|arg| !arg.starts_with('-')).any(|file| {
            let name = basename(file);
            process_names().any(|process| process == name)
                || (!tama.is_empty() && file == tama)
                || file.contains(UNKNOWN_TEXT)
        })
}

/// Whether shell text lists processes, from which ids may be picked: `ps`,
/// `pgrep`, `pidof`, `pstree`, or `/proc`.
fn lists_processes(text: &str) -> bool {
    text.contains("/proc/")
        || text
            .split(|c: char| c.is_whitespace() || ";|&()`$".contains(c))
            .any(|word| matches!(word, "ps" | "pgrep" | "pidof" | "pstree"))
}

fn is_number(word: &str) -> bool {
    !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit())
}

/// Interpreter code that kills processes (`os.kill`, `process.kill`, perl's
/// `kill 9, …`) and names `tama` or `run-hook` in its text or strings
/// (`os.popen('pgrep tama')`).
pub fn in_code(code: &str) -> Result<()> {
    const KILLS: &[&str] = &[
        "os.kill",
        "killpg",
        "process.kill",
        "kill(",
        "kill 9",
        "kill -9",
        "'kill'",
        "\"kill\"",
        "sigkill",
        "sigstop",
        "sigterm",
    ];
    let lower = code.to_ascii_lowercase();
    if KILLS.iter().any(|kill| lower.contains(kill)) && names_tama_processes(code) {
        return Err("the interpreter code signals processes and names `tama`: a harness goes on when a hook dies or stops, so no hook would check what runs after it".to_owned());
    }
    Ok(())
}

/// Whether `text`, quotes, backslashes and brackets taken out and case
/// ignored, names `tama` or `run-hook` (`grep '[t]ama'`, `"ta""ma"`).
fn names_tama_processes(text: &str) -> bool {
    let letters = crate::startup::letters(text).replace(['[', ']'], "");
    letters.contains("tama") || letters.contains("run-hook")
}

/// What `pgrep` or `pidof` prints, when what it lists may be Tama's processes.
pub fn listed(name: &str, args: &[String], tama: &str) -> Option<String> {
    let lists_tama = match name {
        "pgrep" => pgrep_selects_tama(args, tama).is_some(),
        "pidof" => args.iter().filter(|arg| !arg.starts_with('-')).any(|arg| {
            let name = basename(arg);
            process_names().any(|process| process == name) || arg.contains(UNKNOWN_TEXT)
        }),
        // `ps -C sh -o pid=`: the processes of the commands it names.
        "ps" => crate::commands::option_values(args, &["-C"])
            .iter()
            .flat_map(|names| names.split(','))
            .any(|name| {
                process_names().any(|process| process == name) || name.contains(UNKNOWN_TEXT)
            }),
        _ => false,
    };
    lists_tama.then(|| format!("{TAMA_PIDS}\n"))
}

/// Why `pgrep`'s or `pkill`'s selection may hold Tama's processes: its
/// pattern matches one of their names, or with `-f` one of their command
/// lines; or it has no pattern and selects by user, parent or session.
fn pgrep_selects_tama(args: &[String], tama: &str) -> Option<&'static str> {
    let mut full = false;
    let mut exact = false;
    let mut ignore_case = false;
    let mut inverse = false;
    let mut pattern = None;
    let mut words = args.iter();
    while let Some(word) = words.next() {
        if PGREP_VALUED.contains(&word.as_str()) {
            words.next();
        } else if word.starts_with("--") {
            match word.as_str() {
                "--full" => full = true,
                "--exact" => exact = true,
                "--ignore-case" => ignore_case = true,
                "--inverse" => inverse = true,
                _ => {}
            }
        } else if let Some(flags) = word.strip_prefix('-').filter(|flags| !flags.is_empty()) {
            // A signal (`-9`, `-KILL`), or short options, the last of which may take the next word.
            if flags.starts_with(|c: char| c.is_ascii_digit() || c.is_ascii_uppercase()) {
                continue;
            }
            full |= flags.contains('f');
            exact |= flags.contains('x');
            ignore_case |= flags.contains('i');
            inverse |= flags.contains('v');
            if flags.ends_with(['d', 'g', 'G', 'P', 's', 't', 'u', 'U', 'F', 'r']) {
                words.next();
            }
        } else if pattern.is_none() {
            pattern = Some(word.as_str());
        }
    }
    if inverse {
        return Some("selects every process its pattern does not match, Tama's among them");
    }
    let Some(pattern) = pattern else {
        return Some("selects processes by user, parent or session, Tama's among them");
    };
    let matches = if full {
        command_lines(tama)
            .iter()
            .any(|line| pattern_matches(pattern, line, exact, ignore_case))
    } else {
        process_names().any(|name| pattern_matches(pattern, name, exact, ignore_case))
    };
    matches.then_some(if full {
        "matches the command line of a `tama` hook or of the shell a harness runs it through"
    } else {
        "matches the name of `tama` or of the shell a harness runs a hook through"
    })
}

/// Why `killall`'s selection may hold Tama's processes: a name of theirs
/// among its operands (a regular expression with `-r`), or none, with `-u`.
fn killall_selects_tama(args: &[String]) -> Option<&'static str> {
    let regex = args
        .iter()
        .any(|arg| arg == "--regexp" || (is_short_flags(arg) && arg.contains('r')));
    let ignore_case = args
        .iter()
        .any(|arg| arg == "--ignore-case" || (is_short_flags(arg) && arg.contains('I')));
    let mut names = Vec::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        if KILLALL_VALUED.contains(&word.as_str()) {
            words.next();
        } else if !word.starts_with('-') {
            names.push(word.as_str());
        }
    }
    if names.is_empty() {
        return Some("selects every process of a user, Tama's among them");
    }
    let selects = names.iter().any(|name| {
        process_names().any(|process| {
            if regex {
                pattern_matches(name, process, false, ignore_case)
            } else {
                let name = basename(name);
                name.contains(UNKNOWN_TEXT)
                    || name == process
                    || (ignore_case && name.eq_ignore_ascii_case(process))
            }
        })
    });
    selects.then_some("names `tama` or the shell a harness runs a hook through")
}

/// Whether `word` is a cluster of short options (`-qI`), not a signal (`-9`, `-KILL`).
fn is_short_flags(word: &str) -> bool {
    word.strip_prefix('-').is_some_and(|flags| {
        !flags.is_empty() && flags.chars().all(|c| c.is_ascii_lowercase() || c == 'I')
    })
}

/// What the hook command `tama setup` writes for Claude Code runs when
/// `tama` ends without an answer (`adapters/src/setup.rs`); Codex's runs
/// much the same.
const GUARD: &str = r#"|| { [ $? = 2 ] && exit 2; echo "{\"decision\":\"block\",\"reason\":\"TAMA_HOOK_INFRASTRUCTURE: tama run-hook pre_tool_use ended before deciding: it crashed, was killed or could not start; Tama refuses until it runs again (tama doctor says why)\",\"infrastructure\":true,\"event\":\"pre_tool_use\",\"sessionId\":null,\"agentId\":null,\"releaseId\":null,\"catalogChecksum\":null,\"results\":[]}"; echo "TAMA_HOOK_INFRASTRUCTURE: tama run-hook pre_tool_use ended before deciding: it crashed, was killed or could not start; Tama refuses until it runs again (tama doctor says why)" >&2; exit 2; }"#;

/// The command lines of the processes a hook runs in: `tama` (the one
/// running now, and one installed as `tama`) run by Claude Code and Codex,
/// and the shells around it: Claude Code's `sh -c`, Codex's `$SHELL -lc`,
/// and the `/bin/sh -c` of the command `tama setup` writes, which refuses
/// when `tama` ends without an answer but not when the shell itself is
/// killed. oh-my-pi's serving engine is not among them: its extension
/// refuses while the engine is gone, and starts it again.
fn command_lines(tama: &str) -> Vec<String> {
    let mut lines = Vec::new();
    for tama in [tama, "/usr/local/bin/tama"]
        .into_iter()
        .filter(|t| !t.is_empty())
    {
        let claude = format!("{tama} run-hook --provider claude pre_tool_use claude");
        let codex = "run-hook --provider codex pre_tool_use codex";
        let script = format!("\"$0\" {codex} {GUARD}");
        lines.extend([
            format!("/bin/sh -c {claude} {GUARD}"),
            format!("/bin/bash -lc /bin/sh -c '{script}' {tama}"),
            format!("/bin/sh -c {script} {tama}"),
            format!("{tama} {codex}"),
            claude,
        ]);
    }
    lines
}

/// Whether `pattern`, a regular expression as `pkill` reads it, matches
/// `text`. A pattern the gate cannot read, or one holding a value it
/// cannot know, may match anything.
fn pattern_matches(pattern: &str, text: &str, exact: bool, ignore_case: bool) -> bool {
    if pattern.contains(UNKNOWN_TEXT) {
        return true;
    }
    let anchored;
    let pattern = if exact {
        anchored = format!("^(?:{pattern})$");
        anchored.as_str()
    } else {
        pattern
    };
    let syntax = syntax::Config::new()
        .unicode(false)
        .utf8(false)
        .case_insensitive(ignore_case);
    let built = PikeVM::builder()
        .syntax(syntax)
        .thompson(thompson::Config::new().utf8(false))
        .build(pattern);
    match built {
        Ok(vm) => vm.is_match(&mut vm.create_cache(), text.as_bytes()),
        Err(_) => true,
    }
}

/// Whether `prlimit` is pointed at a running process (`--pid`, `-p`).
fn sets_another_process(args: &[String]) -> bool {
    args.iter().any(|arg| {
        arg == "--pid"
            || arg.starts_with("--pid=")
            || (arg.starts_with("-p") && !arg.starts_with("--"))
    })
}
