//! Runs every case of `cases.json` through the gate's analysis and reports
//! all mismatches at once.

use block_git_hook_bypass::refusal_reason;

struct Case {
    command: String,
    refuse: bool,
    why: String,
}

fn cases() -> Vec<Case> {
    let text = include_str!("cases.json");
    let value: serde_json::Value = serde_json::from_str(text).expect("cases.json is JSON");
    let array = value.as_array().expect("cases.json is an array");
    array
        .iter()
        .map(|case| Case {
            command: case["command"].as_str().expect("command").to_owned(),
            refuse: case["refuse"].as_bool().expect("refuse"),
            why: case["why"].as_str().expect("why").to_owned(),
        })
        .collect()
}

/// Words a refusal must repeat when the command spells them: the reason
/// names the bypass it found.
const MARKERS: &[&str] = &[
    "--no-verify",
    "--no-veri",
    "--no-post-rewrite",
    "hookspath",
    "husky",
    "skip",
    "lefthook",
    "overcommit",
    "commit-tree",
    ".git/hooks",
    ".husky",
    "git_config",
    "uninstall",
    "-n",
];

#[test]
fn every_case_is_decided_as_expected() {
    let cases = cases();
    let mut failures = Vec::new();
    for case in &cases {
        let reason = refusal_reason(&case.command);
        match (&reason, case.refuse) {
            (Some(_), false) | (None, true) => failures.push(format!(
                "{}: {:?}\n    why: {}\n    got: {}",
                if case.refuse {
                    "MISSED"
                } else {
                    "WRONGLY REFUSED"
                },
                case.command,
                case.why,
                reason.as_deref().unwrap_or("pass"),
            )),
            (Some(reason), true) => {
                let lower_command = case.command.to_ascii_lowercase();
                let lower_reason = reason.to_ascii_lowercase();
                let named: Vec<&str> = MARKERS
                    .iter()
                    .copied()
                    .filter(|marker| lower_command.contains(marker))
                    .collect();
                let unreadable = lower_reason.contains("could not be read");
                if !reason.contains("block-git-hook-bypass")
                    || (!unreadable
                        && !named.is_empty()
                        && !named.iter().any(|marker| lower_reason.contains(marker)))
                {
                    failures.push(format!(
                        "REASON DOES NOT NAME THE BYPASS: {:?}\n    got: {reason}",
                        case.command
                    ));
                }
            }
            (None, false) => {}
        }
    }
    let refused = cases.iter().filter(|case| case.refuse).count();
    assert!(
        failures.is_empty(),
        "{} of {} cases ({refused} bypasses, {} harmless) failed:\n{}",
        failures.len(),
        cases.len(),
        cases.len() - refused,
        failures.join("\n")
    );
}
