//! oh-my-pi `write` to an `xd://` device. Only `xd://lsp` asked for one of
//! its documented read-only actions is a lookup; every other address is an
//! ordinary write target.

use crate::prelude::*;
use serde_json::{Map, Value};

use crate::exports::tama::gate::declaration::{ToolCall, ToolKind, WriteTarget};

const SCHEME: &str = "xd://";
/// The language-server device, spelled exactly.
const LSP: &str = "xd://lsp";
/// The read-only actions of `xd://lsp`, spelled exactly as oh-my-pi spells them.
const LSP_READ_ONLY: &[&str] = &[
    "status",
    "capabilities",
    "diagnostics",
    "definition",
    "references",
    "hover",
    "symbols",
    "type_definition",
    "implementation",
];

/// The device address a write names, if it names one.
pub fn address(fields: &Map<String, Value>) -> Option<&str> {
    fields
        .get("path")
        .and_then(Value::as_str)
        .filter(|p| p.starts_with(SCHEME))
}

/// A write to `address`. For `xd://lsp`, `content` must be a JSON string
/// holding the device's arguments with a string `action` (oh-my-pi 18.2.3's
/// `write` types `content` as a string): anything else is a protocol error.
pub fn request(name: &str, address: &str, fields: &Map<String, Value>) -> Result<ToolCall, String> {
    let target = |device_action: Option<String>| {
        vec![WriteTarget {
            path: address.to_string(),
            device_action,
            text: None,
        }]
    };
    if address != LSP {
        return Ok(ToolCall {
            name: name.to_string(),
            kind: ToolKind::Write,
            command: None,
            targets: target(None),
        });
    }
    let text = match fields.get("content") {
        Some(Value::String(text)) => text,
        Some(other) => {
            return Err(format!(
                "device request to {LSP}: content must be a JSON string, got {}",
                json_type(other)
            ));
        }
        None => return Err(format!("device request to {LSP}: content is missing")),
    };
    let arguments: Value = serde_json::from_str(text)
        .map_err(|e| format!("device request to {LSP}: content is not JSON: {e}"))?;
    let action = arguments
        .get("action")
        .and_then(Value::as_str)
        .ok_or_else(|| format!("device request to {LSP}: its arguments have no string action"))?;
    let kind = if LSP_READ_ONLY.contains(&action) {
        ToolKind::Lookup
    } else {
        ToolKind::Write
    };
    Ok(ToolCall {
        name: name.to_string(),
        kind,
        command: None,
        targets: target(Some(action.to_string())),
    })
}

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::classify::classify;
    use crate::exports::tama::gate::declaration::ToolKind;

    fn write(
        path: &str,
        content: serde_json::Value,
    ) -> Result<crate::exports::tama::gate::declaration::ToolCall, String> {
        classify(
            "write",
            &json!({"path": path, "content": content}).to_string(),
        )
    }

    #[test]
    fn only_exact_read_only_actions_of_xd_lsp_are_lookups() {
        for action in super::LSP_READ_ONLY {
            let call = write(
                "xd://lsp",
                json!(json!({"action": action, "file": "a.rs"}).to_string()),
            )
            .unwrap();
            assert_eq!(call.kind, ToolKind::Lookup, "{action}");
            assert_eq!(call.targets[0].device_action.as_deref(), Some(*action));
        }
        for action in [
            "HOVER",
            "Hover",
            "type-definition",
            "rename",
            "rename_file",
            "code_actions",
            "request",
            "reload",
        ] {
            let call = write("xd://lsp", json!(json!({"action": action}).to_string())).unwrap();
            assert_eq!(call.kind, ToolKind::Write, "{action}");
        }
    }

    #[test]
    fn other_addresses_are_ordinary_write_targets() {
        for path in [
            "xd://lsp/",
            "xd://LSP",
            "xd://lsp/hover",
            "xd://mcp__github__search",
            "xd://",
        ] {
            let call = write(path, json!({"action": "hover"})).unwrap();
            assert_eq!(call.kind, ToolKind::Write, "{path}");
            assert_eq!(
                (
                    call.targets[0].path.as_str(),
                    call.targets[0].device_action.as_deref()
                ),
                (path, None)
            );
        }
    }

    #[test]
    fn malformed_lsp_requests_refuse_with_their_cause() {
        for (content, cause) in [
            (
                json!({"action": "hover"}),
                "content must be a JSON string, got an object",
            ),
            (json!(["hover"]), "got an array"),
            (json!("{not json"), "content is not JSON"),
            (
                json!(json!({"file": "a.rs"}).to_string()),
                "no string action",
            ),
            (json!(json!({"action": 3}).to_string()), "no string action"),
        ] {
            let why = write("xd://lsp", content).unwrap_err();
            assert!(why.contains(cause), "{why}");
        }
    }
}
