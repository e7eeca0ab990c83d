//! Write tools (any harness's whole-file writes, edits and patches) aimed at
//! what makes git run hooks: a hook file, git's configuration, a shell
//! start-up file, a script or makefile run later. The shell gives the same changes other spellings, which
//! `analysis` reads.

use crate::prelude::*;

use crate::analysis::{files, find_bypass, find_bypass_after_startup};
use crate::finding::Finding;
use crate::tama::gate::declaration::WriteTarget;
use shell_reader::git_config;

/// The first bypass a write tool named `tool` makes, writing `targets`
/// with `tool_input` (its input as JSON).
pub fn write_bypass(tool: &str, targets: &[WriteTarget], tool_input: &str) -> Option<Finding> {
    let input: serde_json::Value = serde_json::from_str(tool_input).unwrap_or_default();
    // A whole-file write states the file's new content; an edit states a part.
    let whole_file = ["content", "file_text", "contents"]
        .iter()
        .find_map(|key| input.get(key).and_then(serde_json::Value::as_str))
        .filter(|_| input.get("old_string").is_none());
    let lower = tool_input.to_ascii_lowercase();
    for WriteTarget {
        path: target,
        text: written_text,
        ..
    } in targets
    {
        let target = target.as_str();
        let written = format!("{tool} {target}");
        if files::is_hook_path(target, files::Within::Elsewhere) {
            let effect = if tool.contains("delete") {
                "deletes"
            } else if let Some(content) = whole_file {
                if !files::is_neutered(content) {
                    // A hook installed with real content.
                    continue;
                }
                "swaps a no-op in for"
            } else {
                "rewrites"
            };
            return Some(Finding::HookFiles {
                command: written,
                effect,
            });
        }
        if files::is_hook_tool(target) && whole_file.is_some_and(files::is_neutered) {
            return Some(Finding::HookFiles {
                command: written,
                effect: files::TOOL_SWAPPED,
            });
        }
        let text = whole_file.map_or_else(|| strings(&input), str::to_owned);
        if git_config::sets_hooks_path(&text) {
            return Some(Finding::HooksPath { setting: written });
        }
        let is_config = git_config::is_file(target);
        if is_config {
            if lower.contains("hookspath") {
                return Some(Finding::HooksPath { setting: written });
            }
            if lower.contains("include") {
                return Some(Finding::ConfigInclude { setting: written });
            }
        }
        if files::switches_hooks_off(target, &text) {
            return Some(Finding::HookFiles {
                command: written,
                effect: "switches off",
            });
        }
        if files::is_hook_startup_file(target) && files::ends_hooks(&text) {
            return Some(Finding::HookFiles {
                command: written,
                effect: "cuts short",
            });
        }
        // A git command after a start-up file runs with its switches and aliases.
        if let Some(label) = files::runs_before_git(target)
            && let Some(finding) = find_bypass_after_startup(&text)
        {
            return Some(finding.in_code(label));
        }
        if let Some(finding) = find_config_bypass(tool, target, &text) {
            return Some(finding);
        }
        // Any other change to git's configuration may drop or move
        // core.hooksPath: an edit need not name it (`[core]` renamed, its
        // value changed), and a whole file cannot say what it replaces.
        if is_config {
            let effect = if tool.contains("delete") {
                "deletes"
            } else if whole_file.is_some() {
                "replaces"
            } else {
                "edits"
            };
            return Some(Finding::ConfigFiles {
                command: written,
                effect,
            });
        }
        // A script, or a makefile's recipes, that skips hooks when run later.
        let scripts = written_text
            .as_deref()
            .map(|text| files::scripts_run_later(target, text));
        for later in scripts.unwrap_or_default() {
            if let Some(finding) = find_bypass(&later) {
                return Some(
                    finding.in_code(format!("The script `{target}` that `{tool}` writes")),
                );
            }
        }
    }
    None
}

/// What the git configuration in `text` runs or sets, if git would read it.
fn find_config_bypass(tool: &str, target: &str, text: &str) -> Option<Finding> {
    let finding =
        git_config::written_commands(target, text).and_then(|settings| find_bypass(&settings))?;
    Some(finding.in_code(format!(
        "The git configuration that `{tool}` writes to `{target}`"
    )))
}

/// Every string in `value`, one per line.
fn strings(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(text) => text.clone(),
        serde_json::Value::Array(items) => items.iter().map(strings).collect::<Vec<_>>().join("\n"),
        serde_json::Value::Object(map) => map.values().map(strings).collect::<Vec<_>>().join("\n"),
        _ => String::new(),
    }
}
