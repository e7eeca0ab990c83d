//! What a write puts into its file, from the fields that carry it across
//! harnesses: whole-file content, an edit's new text (at the top of the
//! input or in each of its `edits`), and the new side of a diff.

use crate::prelude::*;
use serde_json::{Map, Value};

/// Fields holding text written as it stands.
const TEXT_KEYS: &[&str] = &[
    "content",
    "contents",
    "file_text",
    "new_string",
    "new_str",
    "newString",
    "new_text",
    "newText",
    "new_source",
    "code_edit",
    "code",
];

/// Fields holding a diff: oh-my-pi's patch-mode `edits[].diff` (a new file's
/// text, or hunks), Cline's search and replace blocks.
const DIFF_KEYS: &[&str] = &["diff"];

/// The text a write given `fields` puts into the files its path fields name,
/// one piece a line; none when the input holds none.
pub fn of_fields(fields: &Map<String, Value>) -> Option<String> {
    let mut text = String::new();
    add_fields(fields, &mut text);
    if let Some(Value::Array(edits)) = fields.get("edits") {
        for edit in edits.iter().filter_map(Value::as_object) {
            add_fields(edit, &mut text);
        }
    }
    (!text.is_empty()).then_some(text)
}

fn add_fields(fields: &Map<String, Value>, text: &mut String) {
    let strings = |keys: &'static [&'static str]| {
        keys.iter()
            .filter_map(|key| fields.get(*key)?.as_str())
            .filter(|s| !s.is_empty())
    };
    for piece in strings(TEXT_KEYS) {
        add_line(text, piece);
    }
    for diff in strings(DIFF_KEYS) {
        add_line(text, &new_side(diff));
    }
}

fn add_line(text: &mut String, piece: &str) {
    text.push_str(piece);
    if !piece.ends_with('\n') {
        text.push('\n');
    }
}

/// The new side of a diff: the replacements of search and replace blocks,
/// else the `+` lines of hunks, else (a new file's text) all of it.
fn new_side(diff: &str) -> String {
    let mut out = String::new();
    if diff.lines().any(|l| l.trim_end() == "=======") {
        let mut replacing = false;
        for line in diff.lines() {
            match line.trim_end() {
                "=======" => replacing = true,
                l if l.ends_with(" REPLACE") || l.ends_with(" SEARCH") => replacing = false,
                _ if replacing => add_line(&mut out, line),
                _ => {}
            }
        }
        return out;
    }
    let hunks = diff
        .lines()
        .any(|l| l.starts_with(['+', '-']) || l.starts_with("@@"));
    if !hunks {
        return diff.to_string();
    }
    for line in diff.lines() {
        if let Some(added) = line.strip_prefix('+').filter(|l| !l.starts_with("++ ")) {
            add_line(&mut out, added);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::of_fields;
    use serde_json::{Value, json};

    fn text(input: Value) -> Option<String> {
        of_fields(input.as_object().unwrap())
    }

    #[test]
    fn whole_files_edits_and_each_edit_of_a_batch() {
        assert_eq!(text(json!({"path": "a", "content": "ls"})).unwrap(), "ls\n");
        assert_eq!(
            text(json!({"file_path": "a", "old_string": "x", "new_string": "y"})).unwrap(),
            "y\n"
        );
        assert_eq!(
            text(json!({"file_path": "a", "edits": [{"old_string": "1", "new_string": "2"}, {"new_string": "3"}]}))
                .unwrap(),
            "2\n3\n"
        );
        assert_eq!(text(json!({"path": "a", "old_string": "x"})), None);
    }

    #[test]
    fn the_new_side_of_each_kind_of_diff() {
        assert_eq!(
            text(
                json!({"path": "a", "diff": "------- SEARCH\nold\n=======\nnew\n+++++++ REPLACE"})
            )
            .unwrap(),
            "new\n"
        );
        assert_eq!(
            text(json!({"path": "a", "edits": [{"diff": "@@\n ctx\n-old\n+new"}]})).unwrap(),
            "new\n"
        );
        assert_eq!(
            text(json!({"path": "a", "edits": [{"op": "create", "diff": "#!/bin/sh\nls"}]}))
                .unwrap(),
            "#!/bin/sh\nls\n"
        );
    }
}
