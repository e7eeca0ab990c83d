//! oh-my-pi's hashline patches, its default edit format (18.2.3, `edit` with
//! `{input}`). Every section starts with a header line `[PATH#TAG]`, TAG four
//! hex digits of the file snapshot the model read; 18.2.3 also reads a header
//! without its tag (`[src/new.ts]`), blanks around the path or before `#`, a
//! path in quotes, and a stray envelope keyword (`[*** Update File: p#TAG]`).
//! `MV DEST` moves the section's file to DEST. Body rows start with `+`, so no
//! body row is a header; they are what the section adds to its file.

use super::{Written, add_to_section, moved};
use crate::prelude::*;
pub fn opens(line: &str) -> bool {
    header(line).is_some()
}

pub fn targets(text: &str) -> Result<Vec<Written>, String> {
    let mut found = Vec::new();
    let mut section = 0;
    for line in text.lines() {
        if let Some(inner) = header(line) {
            let path = section_path(inner);
            if path.is_empty() {
                return Err(format!(
                    "names no file: its hashline header `{}` has no path",
                    line.trim()
                ));
            }
            section = found.len();
            found.push(Written::new(path));
        } else if let Some(dest) = line
            .trim()
            .strip_prefix("MV")
            .filter(|rest| rest.is_empty() || rest.starts_with([' ', '\t']))
        {
            let dest = super::unquote(dest.trim());
            if dest.is_empty() {
                return Err("names no file: its `MV` op has no destination".to_string());
            }
            found.push(moved(&found, section, dest));
        } else if let Some(row) = line.strip_prefix('+') {
            add_to_section(&mut found, section, row);
        }
    }
    Ok(found)
}

/// The inside of a header line `[...]`.
fn header(line: &str) -> Option<&str> {
    let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?;
    (!inner.contains(']')).then_some(inner)
}

/// The file a header names: without its tag, the envelope keyword a model
/// may have left in it, blanks and quotes.
fn section_path(inner: &str) -> &str {
    let untagged = match inner.trim_end().rsplit_once('#') {
        Some((path, tag)) if tag.len() == 4 && tag.chars().all(|c| c.is_ascii_hexdigit()) => path,
        _ => inner,
    };
    super::unquote(without_keyword(untagged.trim()).trim())
}

/// `*** Update File:`, `Add File:`, `move to:` ... before the path, as oh-my-pi
/// 18.2.3 strips them: up to three `*`, a keyword, optional `file`/`to`, a colon.
fn without_keyword(path: &str) -> &str {
    let rest = path.trim_start_matches('*').trim_start();
    let lower = rest.to_ascii_lowercase();
    let Some(keyword) = ["update", "add", "delete", "move"]
        .into_iter()
        .find(|k| lower.starts_with(k))
    else {
        return path;
    };
    let after = rest[keyword.len()..].trim_start_matches(|c: char| !c.is_ascii_alphanumeric());
    let after_lower = after.to_ascii_lowercase();
    let after = ["file", "to"]
        .into_iter()
        .find(|w| after_lower.starts_with(w))
        .map_or(after, |w| &after[w.len()..]);
    let after = after.trim_start_matches(|c: char| !c.is_ascii_alphanumeric() && c != ':');
    match after.strip_prefix(':') {
        Some(rest) => rest.trim_start().trim_start_matches('*').trim_start(),
        None => path,
    }
}

#[cfg(test)]
mod tests {
    use super::targets;

    #[test]
    fn body_rows_are_what_a_section_adds() {
        let found = targets("[a.sh#1F2E]\nPUT 1.=1:\n+ls\n+pwd\nMV b.sh\n[c.sh]\nREM\n").unwrap();
        let texts: Vec<&str> = found.iter().map(|w| w.text.as_str()).collect();
        assert_eq!(texts, ["ls\npwd\n", "ls\npwd\n", ""]);
    }

    /// oh-my-pi 18.2.3 `src/edit/hashline-compact.md`: the tagged section in
    /// its optional envelope, `PUT`, `REM` and `MV` ops.
    #[test]
    fn tagged_sections_and_moves() {
        let patch = "*** Begin Patch\n[src/foo.ts#1A2B]\nPUT 3.=3:\n+replacement\n*** End Patch";
        assert_eq!(targets(patch).unwrap(), ["src/foo.ts"]);
        let patch = "[src/a.ts#1f2e]\nCUT 1.=1 @r\n[src/b.ts#00AB]\nPUT >1 @r\n[src/c.ts#0C0D]\nREM\n[src/d.ts#9999]\nMV src/e.ts\n";
        assert_eq!(
            targets(patch).unwrap(),
            ["src/a.ts", "src/b.ts", "src/c.ts", "src/d.ts", "src/e.ts"]
        );
    }

    /// 18.2.3 reads `Input header must be [PATH] or [PATH#TAG]`: a section for a new file has no tag.
    #[test]
    fn a_section_without_a_tag() {
        assert_eq!(
            targets("[src/new.ts]\nPUT >$:\n+export const x = 1;\n").unwrap(),
            ["src/new.ts"]
        );
        assert_eq!(
            targets("[src/a.ts#1F2E]\nPUT 1.=1:\n+y\n[src/b.ts]\nPUT >$:\n+q\n").unwrap(),
            ["src/a.ts", "src/b.ts"]
        );
    }

    /// `MV DEST` (quote paths with spaces): 18.2.3 moves to the path without its quotes, and so for headers.
    #[test]
    fn quoted_paths_lose_their_quotes() {
        assert_eq!(
            targets("[\"src/a b.ts\"#1F2E]\nMV \"dest dir/b.ts\"\n").unwrap(),
            ["src/a b.ts", "dest dir/b.ts"]
        );
        assert_eq!(targets("['src/c d.ts']\nREM\n").unwrap(), ["src/c d.ts"]);
    }

    #[test]
    fn blanks_and_stray_envelope_keywords() {
        for header in [
            "[ src/a.ts ]",
            "[src/a.ts #1F2E]",
            "  [src/a.ts#1F2E]  ",
            "[*** Update File: src/a.ts#1F2E]",
            "[Update File: src/a.ts#1F2E]",
            "[add file: src/a.ts]",
        ] {
            assert_eq!(
                targets(&format!("{header}\nREM\n")).unwrap(),
                ["src/a.ts"],
                "{header}"
            );
        }
    }

    #[test]
    fn body_rows_are_not_headers() {
        assert_eq!(
            targets("[src/a.ts#1F2E]\nPUT 1.=1:\n+[not/a/header#1234]\n+MV x\n").unwrap(),
            ["src/a.ts"]
        );
    }

    #[test]
    fn a_header_or_move_without_a_path_is_an_error() {
        for patch in [
            "[src/a.ts#1F2E]\nREM\n[]\nREM\n",
            "[#1F2E]\nREM\n",
            "[\"\"]\nREM\n",
            "[src/a.ts#1F2E]\nMV\n",
            "[src/a.ts#1F2E]\nMV   \n",
        ] {
            assert!(
                targets(patch).unwrap_err().contains("names no file"),
                "{patch}"
            );
        }
    }
}
