//! Codex's `apply_patch` envelope (also oh-my-pi's `apply_patch` edit mode):
//! `*** Add File: p`, `*** Update File: p` (with `*** Move to: q`),
//! `*** Delete File: p`. Codex also accepts the markers padded with blanks.
//! Paths are taken as written: neither Codex nor oh-my-pi strips quotes here.
//! A section's `+` lines are what it adds to its file.

use super::{Written, add_to_section, moved};
use crate::prelude::*;
const HEADERS: [&str; 4] = [
    "*** Add File:",
    "*** Update File:",
    "*** Delete File:",
    "*** Move to:",
];

/// The patch of a shell command that is exactly Codex's own way of running
/// `apply_patch` (`apply_patch <<'EOF'` … `EOF`, perhaps after
/// `cd <folder> &&`), with that folder. Codex applies such a command itself
/// and never runs it in a shell; any other command, one with more after the
/// here-document say, runs in a shell and is read as one.
pub fn shell_invocation(command: &str) -> Option<(Option<String>, String)> {
    let mut rest = command.trim();
    let mut folder = None;
    if let Some(after) = rest.strip_prefix("cd ") {
        let (named, tail) = after.split_once("&&")?;
        folder = Some(super::unquote(named.trim()).to_string());
        rest = tail.trim_start();
    }
    let rest = rest
        .strip_prefix("apply_patch")
        .or_else(|| rest.strip_prefix("applypatch"))?;
    let rest = rest.trim_start_matches([' ', '\t']).strip_prefix("<<")?;
    let (word, body) = rest.strip_prefix('-').unwrap_or(rest).split_once('\n')?;
    let delimiter = super::unquote(word.trim());
    if delimiter.is_empty() || delimiter.contains(char::is_whitespace) {
        return None;
    }
    let (patch, last) = body.rsplit_once('\n').unwrap_or(("", body));
    (last.trim_end() == delimiter).then(|| (folder, patch.to_string()))
}

pub fn opens(line: &str) -> bool {
    HEADERS[..3].iter().any(|h| line.starts_with(h))
}

pub fn targets(text: &str) -> Result<Vec<Written>, String> {
    let mut found = Vec::new();
    let mut section = None;
    for line in text.lines() {
        let trimmed = line.trim();
        let Some((header, path)) = HEADERS
            .iter()
            .find_map(|h| Some((h, trimmed.strip_prefix(h)?)))
        else {
            if let (Some(section), Some(added)) = (section, line.strip_prefix('+')) {
                add_to_section(&mut found, section, added);
            }
            continue;
        };
        let path = path.trim();
        if path.is_empty() {
            return Err(format!("names no file: its header `{header}` has no path"));
        }
        match (*header == "*** Move to:", section) {
            (true, Some(section)) => found.push(moved(&found, section, path)),
            _ => {
                section = Some(found.len());
                found.push(Written::new(path));
            }
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::{shell_invocation, targets};

    #[test]
    fn codexs_own_shell_form_and_nothing_else() {
        let patch = "*** Begin Patch\n*** Add File: a\n+x\n*** End Patch";
        assert_eq!(
            shell_invocation(&format!("apply_patch <<'EOF'\n{patch}\nEOF\n")),
            Some((None, patch.to_string()))
        );
        assert_eq!(
            shell_invocation(&format!("cd 'sub dir' && apply_patch <<\"P\"\n{patch}\nP")),
            Some((Some("sub dir".to_string()), patch.to_string()))
        );
        for shell in [
            format!("apply_patch <<'EOF'\n{patch}\nEOF\ngit commit -n"),
            format!("apply_patch <<'EOF'\n{patch}\nEOF; ls"),
            format!("echo x; apply_patch <<'EOF'\n{patch}\nEOF"),
            "apply_patch_all <<'EOF'\nx\nEOF".to_string(),
        ] {
            assert_eq!(shell_invocation(&shell), None, "{shell}");
        }
    }

    #[test]
    fn each_file_gets_the_lines_its_section_adds() {
        let patch = "*** Begin Patch\n*** Add File: run.sh\n+#!/bin/sh\n+ls\n*** Update File: a.py\n*** Move to: b.py\n@@\n ctx\n-old\n+new\n*** Delete File: c\n*** End Patch";
        let found = targets(patch).unwrap();
        let texts: Vec<&str> = found.iter().map(|w| w.text.as_str()).collect();
        assert_eq!(texts, ["#!/bin/sh\nls\n", "new\n", "new\n", ""]);
    }

    /// oh-my-pi 18.2.3's `apply_patch` example (src/edit/index.ts), the grammar of Codex's instructions.
    #[test]
    fn every_header_of_a_combined_patch() {
        let patch = "*** Begin Patch\n*** Add File: hello.txt\n+Hello world\n*** Update File: src/app.py\n*** Move to: src/main.py\n@@ def greet():\n-print(\"Hi\")\n+print(\"Hello, world!\")\n*** Delete File: obsolete.txt\n*** End Patch\n";
        assert_eq!(
            targets(patch).unwrap(),
            ["hello.txt", "src/app.py", "src/main.py", "obsolete.txt"]
        );
    }

    /// Codex's parser scenario 018: whitespace-padded markers.
    #[test]
    fn padded_markers() {
        assert_eq!(
            targets("  *** Begin Patch\n  *** Add File: p.txt  \n+1\n  *** End Patch").unwrap(),
            ["p.txt"]
        );
    }

    #[test]
    fn quotes_are_part_of_the_path() {
        assert_eq!(
            targets("*** Begin Patch\n*** Add File: \"q.ts\"\n+x\n*** End Patch").unwrap(),
            ["\"q.ts\""]
        );
    }

    #[test]
    fn a_header_without_a_path_is_an_error() {
        for header in [
            "*** Add File: ",
            "*** Add File:",
            "*** Delete File:   ",
            "*** Move to:",
        ] {
            let patch =
                format!("*** Begin Patch\n*** Update File: a.rs\n{header}\n+x\n*** End Patch");
            assert!(
                targets(&patch).unwrap_err().contains("names no file"),
                "{header}"
            );
        }
    }

    #[test]
    fn body_lines_are_not_headers() {
        assert!(
            targets("+*** Add File: x\n-*** Delete File: y\n")
                .unwrap()
                .is_empty()
        );
    }
}
