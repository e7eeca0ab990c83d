//! The folder guard: a session may not write into another live session's
//! checkout. Which files a tool call writes is the tool declaration's
//! answer, the same one every gate gets: file and notebook paths, every file
//! of a patch, oh-my-pi edits.

use std::path::Path;

use super::folder::{git_root, resolve};
use super::sessions::{self, Registration};
use super::{Kind, PeerError, Result, peer_run};
use crate::tool::{ToolCall, ToolKind};

/// Why the tool call in `payload` is refused, if it is: the first target
/// inside another live session's git root, naming that session and how to
/// ask it. With no other checkout to guard, the call is not even read.
pub fn denial(dir: &Path, me: &Registration, payload: &serde_json::Value) -> Result<Option<String>> {
    let (name, input) = tool_call(payload)?;
    let owners: Vec<Registration> = sessions::all_live(dir)?
        .into_iter()
        .filter(|r| r.key != me.key && r.guarded && r.root != me.root)
        .collect();
    if owners.is_empty() {
        return Ok(None);
    }
    let call = classify(name, &input)?;
    if call.kind != ToolKind::Write {
        return Ok(None);
    }
    for target in call.targets.iter().filter(|t| t.device_action.is_none()) {
        let path = resolve(&me.cwd, &target.path);
        let Some(root) = git_root(&path) else { continue };
        if let Some(owner) = owners.iter().find(|o| o.root == root) {
            let run = peer_run(me.kind().unwrap_or(Kind::Claude), &me.key);
            return Ok(Some(format!(
                "{} is inside {}, where peer session {} is working. Do not write there; ask it instead: {run} ask {} \"<what you need>\"",
                path.display(),
                root.display(),
                owner.describe(),
                owner.key,
            )));
        }
    }
    Ok(None)
}

/// A hook payload's tool name and tool input (as JSON text).
fn tool_call(payload: &serde_json::Value) -> Result<(&str, String)> {
    let name = payload["tool_name"].as_str().ok_or_else(|| PeerError::Input("the hook input has no string tool_name".into()))?;
    match &payload["tool_input"] {
        input @ serde_json::Value::Object(_) => Ok((name, input.to_string())),
        other => Err(PeerError::Input(format!("TypeError: tool_input is not an object: {other}"))),
    }
}

/// The tool declaration's reading of a tool call.
fn classify(name: &str, input: &str) -> Result<ToolCall> {
    let host = crate::wasm::Host::new(crate::paths::cache_dir(), &crate::registry::tool_declaration())
        .map_err(|e| PeerError::Input(format!("the tool declaration cannot be loaded: {e:#}")))?;
    host.classify(name, input).map_err(|e| PeerError::Input(e.to_string()))
}
