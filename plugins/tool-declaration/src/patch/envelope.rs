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
    use super::targets;

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
