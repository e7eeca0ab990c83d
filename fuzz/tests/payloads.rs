//! Payload decoding in every harness's shape (Claude Code, Codex,
//! oh-my-pi), fuzzed: nothing panics, and a payload that is not a
//! well-formed tool call never passes a blocking event. The blocking event
//! is the built-in registry's `pre_tool_use:bash`, run by the real engine
//! with its real gates.

use std::sync::{Arc, OnceLock};

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use tama_core::dispatch::{Dispatcher, Selection};
use tama_core::event::Event;
use tama_core::registry::Loaded;
use tama_core::wasm::NoState;

/// One dispatcher for the whole run: its wasm host compiles the gates once.
fn dispatcher() -> &'static Dispatcher {
    static DISPATCHER: OnceLock<(tempfile::TempDir, Dispatcher)> = OnceLock::new();
    &DISPATCHER
        .get_or_init(|| {
            let cache = tempfile::tempdir().expect("a cache directory");
            // SAFETY: set once, before any thread of this test reads the environment.
            unsafe { std::env::set_var("TAMA_CACHE_DIR", cache.path()) };
            let registry = Loaded::embedded().expect("the built-in registry loads");
            (cache, Dispatcher::new(registry, Arc::new(NoState)))
        })
        .1
}

const EVENTS: &[&str] = &[
    "PreToolUse",
    "pre_tool_use",
    "tool_call",
    "PostToolUse",
    "Stop",
    "session_stop",
    "nonsense",
    "",
];
const SHELL_NAMES: &[&str] = &[
    "Bash",
    "bash",
    "exec_command",
    "functions.exec_command",
    "shell",
    "BASH",
];

fn json_leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_map(|n| json!(n)),
        any::<String>().prop_map(Value::String),
        Just(json!("git commit --no-verify -m x")),
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    json_leaf().prop_recursive(4, 24, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_A-Z]{0,12}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// A payload in one harness's shape, with any field possibly replaced.
fn payload() -> impl Strategy<Value = Value> {
    (
        0..3usize,
        prop::sample::select(EVENTS),
        prop::sample::select(SHELL_NAMES),
        json_value(),
        prop::collection::vec(("[a-z_A-Z]{1,16}", json_value()), 0..3),
    )
        .prop_map(|(shape, event, tool, input, extra)| {
            let mut payload = match shape {
                0 => json!({"session_id": "s", "hook_event_name": event, "tool_name": tool, "tool_input": input, "cwd": "/tmp"}),
                1 => json!({"session_id": "s", "turn_id": "t", "hook_event_name": event, "tool_name": tool, "tool_input": input, "model": "m"}),
                _ => json!({"type": event, "sessionId": "s", "toolName": tool, "input": input}),
            };
            if let Some(fields) = payload.as_object_mut() {
                for (key, value) in extra {
                    fields.insert(key, value);
                }
            }
            payload
        })
}

/// A shell call that is not well-formed: no input, input that is not an
/// object, input under a key Tama does not read, a command that is not a
/// string, or two command fields that disagree.
fn malformed_shell_call() -> impl Strategy<Value = Value> {
    let broken_input = prop_oneof![
        json_leaf().prop_map(Some),
        prop::collection::vec(json_leaf(), 0..3).prop_map(|v| Some(Value::Array(v))),
        json_leaf()
            .prop_filter("not a string", |v| !v.is_string())
            .prop_map(|c| Some(json!({"command": c}))),
        Just(Some(json!({"description": "no command"}))),
        Just(Some(
            json!({"command": "ls", "cmd": "git commit --no-verify -m x"})
        )),
        Just(None),
    ];
    (0..3usize, prop::sample::select(SHELL_NAMES), broken_input, any::<bool>()).prop_map(|(shape, tool, input, renamed)| {
        let mut payload = match shape {
            0 => json!({"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": tool}),
            1 => json!({"session_id": "s", "turn_id": "t", "hook_event_name": "PreToolUse", "tool_name": tool}),
            _ => json!({"type": "tool_call", "sessionId": "s", "toolName": tool}),
        };
        if let (Some(fields), Some(input)) = (payload.as_object_mut(), input) {
            let key = match (renamed, shape) {
                (true, _) => "toolInput",
                (false, 2) => "input",
                (false, _) => "tool_input",
            };
            fields.insert(key.to_owned(), input);
        }
        payload
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
    #![proptest_config(ProptestConfig { cases: cases(1024), ..ProptestConfig::default() })]

    #[test]
    fn any_text_decodes_or_says_why(text in any::<String>(), event in prop::option::of(prop::sample::select(EVENTS))) {
        let _ = Event::decode(&text, event);
    }

    #[test]
    fn any_harness_payload_decodes_or_says_why(payload in payload()) {
        let _ = Event::decode(&payload.to_string(), None);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(256), ..ProptestConfig::default() })]

    /// Decoded or not, a payload is either refused or, when it passes, was
    /// read as a whole tool call: decoding and dispatch never panic.
    #[test]
    fn any_harness_payload_is_decided(payload in payload()) {
        if let Ok(event) = Event::decode(&payload.to_string(), None) {
            let _ = dispatcher().dispatch(event, &Selection::default());
        }
    }

    #[test]
    fn a_malformed_shell_call_never_passes_a_blocking_event(payload in malformed_shell_call()) {
        // A payload that does not decode is refused by every entry point.
        if let Ok(event) = Event::decode(&payload.to_string(), None) {
            let decision = dispatcher().dispatch(event, &Selection::default());
            prop_assert!(decision.is_block(), "passed: {payload}");
        }
    }
}
