//! The folder guard: a session may not write into another live session's
//! checkout. Which files a tool call writes is the tool declaration's
//! answer, the same one every gate gets: file and notebook paths, every file
//! of a patch (string or argv form), hashline sections, oh-my-pi edits.
//! Each is resolved to the physical path the write lands on.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::folder::resolve;
use super::sessions::{self, Registration};
use super::{PeerError, Result, journal, peer_run};
use tama_core::tool::{ToolCall, ToolKind};

/// Why the tool call in `payload` is refused, if it is: the first target
/// whose checkout belongs to another live session, naming that session and
/// how to ask it. A target belongs to the deepest guarded root holding it,
/// so a checkout nested in another (a submodule, a vendored repository) is
/// its own session's, and everything else under a peer's root is the
/// peer's. With no other checkout to guard, the call is not even read.
pub fn denial(
    dir: &Path,
    me: &Registration,
    cwd: &Path,
    payload: &Value,
) -> Result<Option<String>> {
    let call = tool_call(payload);
    // Codex applies a shell command that runs `apply_patch` itself, and its
    // hook sees a `Bash` call; any other shell command is not the guard's.
    let shell_patch = matches!(&call, Ok((name, _)) if name == "Bash")
        .then(|| {
            payload["tool_input"]["command"]
                .as_str()
                .and_then(shell_patch)
        })
        .flatten();
    if matches!(&call, Ok((name, _)) if name == "Bash") && shell_patch.is_none() {
        return Ok(None);
    }
    let (call, patch_dir) = match shell_patch {
        Some((dir, patch)) => (
            Ok((
                "apply_patch".to_string(),
                serde_json::json!({"command": patch}).to_string(),
            )),
            dir,
        ),
        None => (call, None),
    };
    let peers: Vec<Registration> = sessions::all_live(dir)?
        .into_iter()
        .filter(|r| r.key != me.key && r.guarded && r.root != me.root)
        .collect();
    if peers.is_empty() {
        return call.map(|_| None);
    }
    let read = call.and_then(|(name, input)| classify(&name, &input));
    let call = match read {
        Ok(call) => call,
        Err(err) => {
            // Other checkouts are guarded: a write we cannot read is refused, never let through.
            journal::hook_error(dir, "pre-tool", Some(&me.key), &err);
            return Ok(Some(format!(
                "peer folder guard (pre-tool): cannot tell which files this call writes, so it is refused \
                while other sessions' checkouts are guarded: {err}"
            )));
        }
    };
    if call.kind != ToolKind::Write {
        return Ok(None);
    }
    let mut cwd = resolve(Path::new("/"), &cwd.to_string_lossy())?;
    if let Some(dir) = patch_dir {
        cwd = resolve(&cwd, &dir)?;
    }
    for target in call.targets.iter().filter(|t| t.device_action.is_none()) {
        let path = match resolve(&cwd, &target.path) {
            Ok(path) => path,
            Err(err) => {
                return Ok(Some(format!(
                    "peer folder guard (pre-tool): {err}; the write is refused"
                )));
            }
        };
        if let Some(owner) = owner(me, &peers, &path) {
            let run = peer_run(me.kind().as_ref(), &me.key);
            return Ok(Some(format!(
                "{} is inside {}, where peer session {} is working. Do not write there; ask it instead: {run} ask {} \"<what you need>\"",
                path.display(),
                owner.root.display(),
                owner.describe(),
                owner.key,
            )));
        }
    }
    Ok(None)
}

/// The peer whose checkout `path` lies in, unless the session's own
/// (guarded) checkout is nearer to it.
fn owner<'a>(
    me: &Registration,
    peers: &'a [Registration],
    path: &Path,
) -> Option<&'a Registration> {
    let depth = |root: &PathBuf| root.components().count();
    let peer = peers
        .iter()
        .filter(|p| path.starts_with(&p.root))
        .max_by_key(|p| depth(&p.root))?;
    let mine = me.guarded && path.starts_with(&me.root) && depth(&me.root) >= depth(&peer.root);
    (!mine).then_some(peer)
}

/// The tool name and the tool input as JSON text, with a patch in argv
/// form (`"command": ["apply_patch", "<patch>"]`, as Codex's `local_shell`
/// sends it) given as the patch text the declaration reads; an argv that
/// runs `apply_patch` is an `apply_patch` call whatever tool carries it.
fn tool_call(payload: &Value) -> Result<(String, String)> {
    let Value::Object(input) = &payload["tool_input"] else {
        return Err(PeerError::Input(format!(
            "TypeError: tool_input is not an object: {}",
            payload["tool_input"]
        )));
    };
    let mut name = payload["tool_name"]
        .as_str()
        .ok_or_else(|| PeerError::Input("the hook input has no string tool_name".into()))?
        .to_string();
    let mut input = input.clone();
    for field in ["command", "input", "patch"] {
        if let Some(Value::Array(argv)) = input.get(field) {
            let words: Vec<&str> = argv.iter().filter_map(Value::as_str).collect();
            if matches!(words.first(), Some(&"apply_patch" | &"applypatch")) {
                name = "apply_patch".into();
            }
            if let Some(patch) = words
                .iter()
                .skip(1)
                .find(|w| w.contains('\n'))
                .or(words.last())
            {
                input.insert(field.to_string(), Value::String((*patch).to_string()));
            }
        }
    }
    Ok((name, Value::Object(input).to_string()))
}

/// The patch of a shell command Codex applies as `apply_patch` (`apply_patch
/// <<'EOF' … EOF`, perhaps after `cd <dir> &&`), with that folder. A command
/// that runs `apply_patch` with no patch we can find gives its text whole, so
/// the declaration refuses it rather than let it through. Written by hand:
/// only these two forms reach Codex's own patch runner.
fn shell_patch(command: &str) -> Option<(Option<String>, String)> {
    let mut rest = command.trim_start();
    let mut dir = None;
    if let Some(after) = rest.strip_prefix("cd ") {
        let (folder, tail) = after.split_once("&&")?;
        dir = Some(
            folder
                .trim()
                .trim_matches(|c| c == '\'' || c == '"')
                .to_string(),
        );
        rest = tail.trim_start();
    }
    let rest = rest
        .strip_prefix("apply_patch")
        .or_else(|| rest.strip_prefix("applypatch"))?;
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    const BEGIN: &str = "*** Begin Patch";
    const END: &str = "*** End Patch";
    let patch = match (rest.find(BEGIN), rest.rfind(END)) {
        (Some(begin), Some(end)) if end > begin => rest.get(begin..end + END.len()).unwrap_or(rest),
        _ => rest,
    };
    Some((dir, patch.to_string()))
}

/// The tool declaration's reading of a tool call.
fn classify(name: &str, input: &str) -> Result<ToolCall> {
    let host = tama_core::wasm::Host::new(
        tama_core::paths::cache_dir(),
        &tama_core::registry::tool_declaration(),
    )
    .map_err(|e| {
        PeerError::Input(format!(
            "TAMA_HOOK_INFRASTRUCTURE: the tool declaration cannot be loaded: {e:#}"
        ))
    })?;
    host.classify(name, input)
        .map_err(|e| PeerError::Input(e.to_string()))
}
