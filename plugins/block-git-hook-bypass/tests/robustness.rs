//! The analysis decides every input without panicking, however broken or
//! large, and fails closed on what it cannot read.

use block_git_hook_bypass::refusal_reason;

/// A deterministic generator, so that a failure reproduces.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, bound: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        usize::try_from(self.0 >> 33).unwrap_or(0) % bound
    }
}

const PIECES: &[&str] = &[
    "git",
    " ",
    "commit",
    "--no-verify",
    "-n",
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
    "|",
    "\n",
    "<<EOF",
    "EOF",
    "<<-'X'",
    "X",
    "$'",
    "\\x2d",
    "#",
    "=",
    "HUSKY=0",
    "sh -c",
    "eval",
    "f()",
    "f",
    "if",
    "then",
    "fi",
    "case",
    "in",
    "esac",
    ";;",
    "for",
    "do",
    "done",
    "[[",
    "]]",
    "((",
    "))",
    ">",
    ".git/hooks/pre-commit",
    "*",
    "é",
    "\t",
    "$@",
    "$1",
    "xargs",
    "find",
    "-exec",
    "\\;",
    "alias",
    "a=(",
    "+=",
    "${a[@]}",
    "$env:",
    "{,.bak}",
    "<(",
    "set --",
    "export",
    "cd",
    "bash <<<",
    "function",
    "&",
    "2>&1",
    "$((",
    "!",
    "time",
];

#[test]
fn random_inputs_never_panic() {
    let mut random = Lcg(42);
    for _ in 0..20_000 {
        let mut command = String::new();
        for _ in 0..random.below(24) {
            command.push_str(PIECES[random.below(PIECES.len())]);
        }
        let _ = refusal_reason(&command);
    }
}

#[test]
fn every_prefix_of_every_case_is_decided() {
    let cases: serde_json::Value =
        serde_json::from_str(include_str!("cases.json")).expect("cases.json is JSON");
    for case in cases.as_array().expect("an array") {
        let command = case["command"].as_str().expect("a command");
        for (end, _) in command.char_indices() {
            let _ = refusal_reason(&command[..end]);
        }
    }
}

#[test]
fn deep_and_large_inputs_are_decided() {
    let large = "git status && npm test; ".repeat(5_000);
    assert_eq!(refusal_reason(&large), None);
    let bypass_at_the_end = format!("{large}git commit --no-verify -m x");
    assert!(refusal_reason(&bypass_at_the_end).is_some());
    for opener in [
        "$(",
        "( ",
        "{ ",
        "\"$(",
        "f() { ",
        "if x; then ",
        "<(",
        "${x:-",
    ] {
        let deep = format!("{}git status", opener.repeat(2_000));
        let reason = refusal_reason(&deep).unwrap_or_else(|| panic!("{opener} is refused"));
        assert!(reason.contains("could not be read"), "{opener}: {reason}");
    }
    // Each `eval` reads its arguments as shell once more.
    let nested = |depth: usize| format!("{}git commit -n -m x", "eval ".repeat(depth));
    assert!(refusal_reason(&nested(8)).is_some_and(|reason| reason.contains("-n")));
    assert!(refusal_reason(&nested(40)).is_some());
}

#[test]
fn multiplying_loops_and_calls_stay_bounded() {
    let loops = format!(
        "{}git status{}",
        "for a in 1 2 3 4; do ".repeat(12),
        "; done".repeat(12)
    );
    assert!(refusal_reason(&loops).is_some_and(|reason| reason.contains("could not be read")));
    let mut calls = String::from("f0() { git status; }; ");
    for level in 1..12 {
        let previous = level - 1;
        calls.push_str(&format!(
            "f{level}() {{ f{previous}; f{previous}; f{previous}; f{previous}; }}; "
        ));
    }
    calls.push_str("f11");
    assert!(refusal_reason(&calls).is_some());
    let doubling = format!("a=x; {}echo \"$a\"", "a=\"$a$a\"; ".repeat(40));
    assert_eq!(refusal_reason(&doubling), None);
}

#[test]
fn a_bypass_after_more_strings_than_the_gate_follows_is_refused() {
    // Each string of code that runs programs is read as a command; past the
    // gate's limit the rest is not let through unread.
    let code = format!(
        "import os\n{}os.system('git commit -n -m x')",
        "x = \"a\"\n".repeat(25_000)
    );
    let command = format!("python3 - <<'PY'\n{code}\nPY");
    assert!(refusal_reason(&command).is_some_and(|reason| reason.contains("could not be read")));
    let small = format!(
        "python3 - <<'PY'\n{}os.system('ls')\nPY",
        "x = \"a\"\n".repeat(100)
    );
    assert_eq!(refusal_reason(&small), None);
}

#[test]
fn recursive_functions_terminate() {
    assert_eq!(refusal_reason("f() { f; }; f"), None);
    assert_eq!(refusal_reason("f() { g; }; g() { f; }; f"), None);
    assert!(refusal_reason("f() { f; git push --no-verify; }; f").is_some());
}
