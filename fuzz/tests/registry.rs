//! Registry parsing and validation, fuzzed: any text, and the built-in
//! registry with keys misspelled, values swapped and fields dropped, sealed
//! or not, loads or is refused with its cause; nothing panics.

use std::path::Path;

use proptest::prelude::*;
use serde_json::{Value, json};
use tama_core::registry::{Loaded, checksum};

fn load(dir: &Path, text: &str) {
    let path = dir.join("registry.json");
    std::fs::write(&path, text).expect("the registry is written");
    match Loaded::from_file(&path) {
        Ok(loaded) => {
            let _ = loaded.registry.validate();
            for id in loaded.registry.hook_ids() {
                for hook in loaded.registry.hooks_named(id) {
                    let _ = loaded.component(hook);
                }
            }
        }
        Err(error) => assert!(!error.to_string().is_empty()),
    }
}

fn builtin() -> Value {
    Loaded::embedded().expect("the built-in registry loads").raw
}

const KEYS: &[&str] = &[
    "blocking",
    "Blocking",
    "blockng",
    "hooks",
    "type",
    "component",
    "sha256",
    "sha265",
    "command",
    "timeout",
    "config",
    "state",
    "id",
    "events",
    "version",
    "catalog",
    "releaseId",
    "generatedAt",
    "managedBy",
    "",
];

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_map(|n| json!(n)),
        "[ -~]{0,24}".prop_map(Value::String),
        Just(json!("../../etc/passwd")),
        Just(json!("/abs/gate.wasm")),
        Just(json!([])),
        Just(json!({})),
    ]
}

/// One edit at the `pick`-th object of the registry, in document order.
#[derive(Debug, Clone)]
enum Edit {
    Insert(&'static str, Value),
    Remove(usize),
    Replace(usize, Value),
}

fn edit() -> impl Strategy<Value = (usize, Edit)> {
    let kind = prop_oneof![
        (prop::sample::select(KEYS), leaf()).prop_map(|(k, v)| Edit::Insert(k, v)),
        any::<usize>().prop_map(Edit::Remove),
        (any::<usize>(), leaf()).prop_map(|(i, v)| Edit::Replace(i, v)),
    ];
    (any::<usize>(), kind)
}

/// The JSON pointer of every object in `value`, in document order.
fn objects(value: &Value, at: String, out: &mut Vec<String>) {
    let escape = |key: &str| key.replace('~', "~0").replace('/', "~1");
    match value {
        Value::Object(map) => {
            out.push(at.clone());
            for (key, child) in map {
                objects(child, format!("{at}/{}", escape(key)), out);
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                objects(item, format!("{at}/{index}"), out);
            }
        }
        _ => {}
    }
}

fn apply(registry: &mut Value, (pick, edit): (usize, Edit)) {
    let mut found = Vec::new();
    objects(registry, String::new(), &mut found);
    let Some(pointer) = found.get(pick % found.len().max(1)) else {
        return;
    };
    let Some(Value::Object(map)) = registry.pointer_mut(pointer) else {
        return;
    };
    match edit {
        Edit::Insert(key, value) => {
            map.insert(key.to_owned(), value);
        }
        Edit::Remove(index) if !map.is_empty() => {
            let key = map
                .keys()
                .nth(index % map.len())
                .cloned()
                .unwrap_or_default();
            map.shift_remove(&key);
        }
        Edit::Replace(index, value) if !map.is_empty() => {
            let key = map
                .keys()
                .nth(index % map.len())
                .cloned()
                .unwrap_or_default();
            map.insert(key, value);
        }
        _ => {}
    }
}

/// The case count: `PROPTEST_CASES` when set, else `default`, bounded for CI.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(256), ..ProptestConfig::default() })]

    #[test]
    fn any_text_loads_or_says_why(text in any::<String>()) {
        let dir = tempfile::tempdir().expect("a scratch directory");
        load(dir.path(), &text);
    }

    #[test]
    fn an_edited_registry_loads_or_says_why(edits in prop::collection::vec(edit(), 1..5), seal in any::<bool>()) {
        let dir = tempfile::tempdir().expect("a scratch directory");
        let mut registry = builtin();
        for edit in edits {
            apply(&mut registry, edit);
        }
        if seal {
            checksum::seal(&mut registry);
        }
        load(dir.path(), &registry.to_string());
    }
}

#[test]
fn the_builtin_registry_sealed_loads() {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let mut registry = builtin();
    checksum::seal(&mut registry);
    let path = dir.path().join("registry.json");
    std::fs::write(&path, registry.to_string()).expect("written");
    Loaded::from_file(&path).expect("the sealed built-in registry loads");
}
