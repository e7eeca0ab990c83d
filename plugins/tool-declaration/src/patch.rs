//! File targets named inside patch text: Codex `apply_patch` envelopes and
//! oh-my-pi's anchored (hashline) edits.

/// Every file a patch touches, in order of appearance, each once.
pub fn patch_targets(patch: &str) -> Vec<String> {
    let mut targets: Vec<String> = Vec::new();
    for line in patch.lines() {
        let Some(path) = envelope_header(line.trim()).or_else(|| hashline_header(line)) else {
            continue;
        };
        if !path.is_empty() && !targets.iter().any(|t| t == path) {
            targets.push(path.to_string());
        }
    }
    targets
}

/// `*** Add File: p`, `*** Update File: p`, `*** Delete File: p`, `*** Move to: p`.
fn envelope_header(line: &str) -> Option<&str> {
    const HEADERS: [&str; 4] = ["*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:"];
    HEADERS.iter().find_map(|h| line.strip_prefix(h)).map(str::trim)
}

/// A hashline file section `[PATH#TAG]` (TAG four hex digits), or its move op `MV DEST`.
fn hashline_header(line: &str) -> Option<&str> {
    if let Some(dest) = line.strip_prefix("MV ") {
        return Some(dest.trim());
    }
    let inner = line.trim_end().strip_prefix('[')?.strip_suffix(']')?;
    let (path, tag) = inner.rsplit_once('#')?;
    let is_tag = !tag.is_empty() && tag.len() <= 8 && tag.chars().all(|c| c.is_ascii_hexdigit());
    is_tag.then_some(path.trim())
}

#[cfg(test)]
mod tests {
    use super::patch_targets;

    #[test]
    fn codex_envelope_names_every_file_once() {
        let patch = "*** Begin Patch\n*** Update File: a.py\n*** Move to: b.py\n@@\n-x\n+y\n*** Add File: /r/c.py\n+z\n  *** Delete File: a.py\n*** End Patch";
        assert_eq!(patch_targets(patch), ["a.py", "b.py", "/r/c.py"]);
    }

    #[test]
    fn hashline_sections_and_moves() {
        let patch = "[src/a.rs#1f2e]\nSWAP 3.=4:\n+x\n[src/b.rs#00ab]\nMV src/c.rs\n";
        assert_eq!(patch_targets(patch), ["src/a.rs", "src/b.rs", "src/c.rs"]);
    }

    #[test]
    fn body_lines_are_not_headers() {
        assert!(patch_targets("+*** Add File: x\n [not#a tag]\n").is_empty());
    }
}
