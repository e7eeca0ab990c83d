//! What a tool call is, as the tool declaration component reads it.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolKind {
    Shell,
    Write,
    Lookup,
    Other,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WriteTarget {
    pub path: String,
    #[serde(rename = "deviceAction", skip_serializing_if = "Option::is_none")]
    pub device_action: Option<String>,
    /// What the call puts into the file, when it says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// The tool declaration's reading of one call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToolCall {
    /// The tool name, lower-cased.
    pub name: String,
    pub kind: ToolKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    pub targets: Vec<WriteTarget>,
}
