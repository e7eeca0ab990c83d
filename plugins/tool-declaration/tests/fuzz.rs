//! Bounded fuzzing of the tool declaration's `classify` (native build):
//! no input panics it, and a shell call it cannot read is an error, never a
//! shell call without a command. The module is compiled here from its
//! source, with the bindings it expects at the crate root.
#![allow(dead_code)]

wit_bindgen::generate!({ path: "../../wit", world: "tool-declaration" });

extern crate alloc;

#[path = "../src/classify.rs"]
mod classify;
#[path = "../src/code_cell.rs"]
mod code_cell;
#[path = "../src/device.rs"]
mod device;
#[path = "../src/harness_path.rs"]
mod harness_path;
#[path = "../src/launch.rs"]
mod launch;
#[path = "../src/new_text.rs"]
mod new_text;
#[path = "../src/patch/mod.rs"]
mod patch;
#[path = "../src/prelude.rs"]
mod prelude;
#[path = "../src/spellings.rs"]
mod spellings;

use exports::tama::gate::declaration::ToolKind;
use proptest::prelude::*;
use serde_json::{Value, json};

/// Spellings of every harness, and some that are none.
const NAMES: &[&str] = &[
    "Bash",
    "bash",
    "BASH",
    "exec_command",
    "functions.exec_command",
    "functions.bash",
    "shell",
    "exec",
    "run_command",
    "run_package_script",
    "Write",
    "write",
    "Edit",
    "MultiEdit",
    "apply_patch",
    "functions.apply_patch",
    "NotebookEdit",
    "notebook",
    "Read",
    "read",
    "grep",
    "",
    "ßash",
    "bash ",
];
const SHELLS: &[&str] = &[
    "bash",
    "functions.bash",
    "exec_command",
    "functions.exec_command",
    "shell",
    "exec",
    "run_command",
    "run_package_script",
];
const KEYS: &[&str] = &[
    "command",
    "cmd",
    "path",
    "file_path",
    "notebook_path",
    "content",
    "patch",
    "input",
    "raw_input",
    "edits",
    "old_string",
    "new_string",
    "action",
    "toolInput",
    "arguments",
];

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<String>().prop_map(Value::String),
        prop::sample::select(
            &[
                "git commit -n",
                "*** Begin Patch\n*** Update File: a\n",
                "xd://lsp",
                "a.txt"
            ][..]
        )
        .prop_map(|s| Value::String(s.to_owned())),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..5).prop_map(|fields| {
                Value::Object(fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
            }),
        ]
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
    #![proptest_config(ProptestConfig { cases: cases(2048), ..ProptestConfig::default() })]

    #[test]
    fn any_call_is_classified_without_panicking(name in prop::sample::select(NAMES), input in json_value()) {
        let _ = classify::classify(name, &input.to_string());
    }

    #[test]
    fn any_text_is_classified_without_panicking(name in any::<String>(), input in any::<String>()) {
        let _ = classify::classify(&name, &input);
    }

    /// A shell spelling, in any letter case, is either read with its command
    /// or refused: never a shell call Tama cannot see the command of.
    #[test]
    fn a_shell_call_has_its_command_or_is_an_error(
        name in prop::sample::select(SHELLS),
        upper in prop::collection::vec(any::<bool>(), 24),
        input in json_value(),
    ) {
        let name: String = name.chars().zip(upper.iter().cycle()).map(|(c, up)| if *up { c.to_ascii_uppercase() } else { c }).collect();
        if let Ok(call) = classify::classify(&name, &input.to_string()) {
            prop_assert!(matches!(call.kind, ToolKind::Shell), "{name} {input} read as {:?}", call.kind);
            prop_assert!(call.command.is_some(), "{name} {input} read without a command");
        }
    }
}
