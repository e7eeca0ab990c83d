//! Bounded fuzzing of the shell reader (native build): generated and
//! mutated commands never panic it, and a bypass stays refused whatever
//! readable commands come before it. Each property runs a fixed number of
//! cases; failures proptest finds are kept in `proptest-regressions/` and
//! replayed first. The seed corpus is `cases.json`.

use block_git_hook_bypass::refusal_reason;
use proptest::prelude::*;

/// Shell syntax and git words the mutations splice in.
const PIECES: &[&str] = &[
    "git",
    " ",
    "commit",
    "push",
    "--no-verify",
    "-n",
    "-c core.hooksPath=/dev/null",
    "'",
    "\"",
    "\\",
    "$(",
    ")",
    "`",
    "${",
    "}",
    "{",
    "(",
    ";",
    "&&",
    "||",
    "|",
    "\n",
    "<<EOF\n",
    "EOF",
    "<<<",
    "$'",
    "\\x2d",
    "#",
    "=",
    "HUSKY=0",
    "sh -c ",
    "bash -c ",
    "eval ",
    "f()",
    "alias g=",
    "read -r x",
    "printf -v x ",
    "declare -a a=(",
    "${x:-",
    "${x:+",
    "${x#",
    "$@",
    "$0",
    "$1",
    "if ",
    "then ",
    "fi",
    "case ",
    " in ",
    "esac",
    ";;",
    "for x in ",
    "do ",
    "done",
    "while ",
    "xargs ",
    "env ",
    "timeout 5 ",
    "find . -exec ",
    "\\;",
    "&",
    "2>&1",
    ">",
    ">>",
    "<",
    "*",
    "?",
    "[",
    "]",
    "~",
    "\u{0}",
    "é",
    "\u{FFFC}",
    "\u{1E}",
];

/// Commands that parse and run nothing that touches hooks.
const HARMLESS: &[&str] = &[
    "ls",
    "echo hi",
    "x=1",
    "cd /tmp",
    "true",
    "git status",
    "f() { :; }",
    "alias g=ls",
    "read -r y <<< hi",
    "printf -v y %s hi",
    "declare -a a=(one two)",
    "export A=1",
    "set -- a b",
    "for i in 1 2; do echo $i; done",
    "if true; then echo y; fi",
    "git log --oneline | head -3",
];

/// Commands `cases.json` expects refused: a bypass in many spellings.
fn refused_cases() -> Vec<String> {
    let cases: serde_json::Value =
        serde_json::from_str(include_str!("cases.json")).expect("cases.json is JSON");
    cases
        .as_array()
        .expect("cases.json is an array")
        .iter()
        .filter(|case| case["refuse"] == true)
        .filter_map(|case| case["command"].as_str().map(str::to_owned))
        .collect()
}

fn all_cases() -> Vec<String> {
    let cases: serde_json::Value =
        serde_json::from_str(include_str!("cases.json")).expect("cases.json is JSON");
    cases
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|case| case["command"].as_str().map(str::to_owned))
        .collect()
}

/// A seed command with pieces spliced in at char boundaries and spans cut out.
fn mutated() -> impl Strategy<Value = String> {
    let edits = prop::collection::vec(
        (
            any::<prop::sample::Index>(),
            prop::sample::select(PIECES),
            any::<bool>(),
        ),
        0..6,
    );
    (prop::sample::select(all_cases()), edits).prop_map(|(seed, edits)| {
        let mut chars: Vec<char> = seed.chars().collect();
        for (at, piece, cut) in edits {
            let index = at.index(chars.len() + 1);
            if cut && index < chars.len() {
                let end = (index + piece.len()).min(chars.len());
                chars.drain(index..end);
            } else {
                chars.splice(index..index, piece.chars());
            }
        }
        chars.into_iter().collect()
    })
}

/// The case count: `PROPTEST_CASES` when set, else `default`, bounded for CI.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(4096), ..ProptestConfig::default() })]

    #[test]
    fn any_text_is_decided_without_panicking(command in any::<String>()) {
        let _ = refusal_reason(&command);
    }

    #[test]
    fn shell_soup_is_decided_without_panicking(pieces in prop::collection::vec(prop::sample::select(PIECES), 0..48)) {
        let _ = refusal_reason(&pieces.concat());
    }

    #[test]
    fn mutated_cases_are_decided_without_panicking(command in mutated()) {
        let _ = refusal_reason(&command);
    }

    #[test]
    fn a_bypass_stays_refused_after_harmless_commands(
        before in prop::collection::vec(prop::sample::select(HARMLESS), 0..5),
        separator in prop::sample::select(&["\n", "; ", " && "][..]),
        bypass in prop::sample::select(refused_cases()),
    ) {
        let mut command = before.join(separator);
        if !command.is_empty() {
            command.push_str(separator);
        }
        command.push_str(&bypass);
        prop_assert!(refusal_reason(&command).is_some(), "passed: {command:?}");
    }
}
