//! oh-my-pi's sloppy edit format. 18.2.3 opens each file with a tag line
//! `<SM:EDIT path="relative/path.ts">` (or `file="..."`, and `all`); a bare
//! `<SM:EDIT>` continues the same file. Later builds (upstream `sloppy.md`)
//! open a file with `§relative/path.ts` (`§*path` for every match), a bare `§`
//! continuing it, and may name a file by a `[path]` line before its `§`. A
//! payload that names no file first would apply to the last file the session
//! edited: that is unknowable here, so it is an error.

use crate::prelude::*;
pub fn opens_tagged(line: &str) -> bool {
    tag_opener(line).is_some()
}

pub fn tagged_targets(text: &str) -> Result<Vec<String>, String> {
    let openers = text.lines().filter_map(tag_opener);
    read_openers(
        openers.map(|attrs| attribute(attrs, "path").or_else(|| attribute(attrs, "file"))),
        "<SM:EDIT path=\"...\">",
    )
}

pub fn opens_marked(line: &str) -> bool {
    line.starts_with('§')
}

pub fn marked_targets(text: &str) -> Result<Vec<String>, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut openers = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if let Some(rest) = line.trim_start().strip_prefix('§') {
            openers.push(Some(rest.strip_prefix('*').unwrap_or(rest).trim()));
        } else if let Some(path) = bracketed(line).filter(|_| opens_operation(&lines[i + 1..])) {
            openers.push(Some(path));
        }
    }
    // A `[path]` line names the file of the bare `§` after it.
    read_openers(openers.into_iter(), "§path")
}

/// Every file the openers name. The first must name one; a later empty
/// opener continues the file before it.
fn read_openers<'a>(
    openers: impl Iterator<Item = Option<&'a str>>,
    form: &str,
) -> Result<Vec<String>, String> {
    let mut found: Vec<String> = Vec::new();
    for opener in openers {
        match opener
            .map(|p| super::unquote(p.trim()))
            .filter(|p| !p.is_empty())
        {
            Some(path) => found.push(path.to_string()),
            None if found.is_empty() => {
                return Err(format!(
                    "names no file: its first sloppy section does not start with `{form}`"
                ));
            }
            None => {}
        }
    }
    Ok(found)
}

/// The attributes of an opening tag `<SM:EDIT ...>`.
fn tag_opener(line: &str) -> Option<&str> {
    let attrs = line.trim().strip_prefix("<SM:EDIT")?.strip_suffix('>')?;
    (attrs.is_empty() || attrs.starts_with([' ', '\t'])).then_some(attrs)
}

/// The value of `name="..."` or `name='...'` among a tag's attributes.
fn attribute<'a>(attrs: &'a str, name: &str) -> Option<&'a str> {
    let mut rest = attrs;
    while let Some(at) = rest.find(name) {
        let before_ok = rest[..at].ends_with([' ', '\t']) || at == 0;
        let after = &rest[at + name.len()..];
        if let (true, Some(value)) = (before_ok, after.strip_prefix('=')) {
            let quote = value.chars().next().filter(|c| *c == '"' || *c == '\'')?;
            let value = &value[1..];
            return value.find(quote).map(|end| &value[..end]);
        }
        rest = after;
    }
    None
}

/// A whole-line `[path]`.
fn bracketed(line: &str) -> Option<&str> {
    let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?;
    (!inner.contains(']')).then_some(inner)
}

/// Whether the next non-blank line opens a sloppy operation.
fn opens_operation(rest: &[&str]) -> bool {
    rest.iter()
        .map(|l| l.trim())
        .find(|l| !l.is_empty())
        .is_some_and(|l| l.starts_with('§') || l.starts_with('«'))
}

#[cfg(test)]
mod tests {
    use super::{marked_targets, tagged_targets};

    /// oh-my-pi 18.2.3's sloppy prompt: "Small change" and "Fix every match".
    #[test]
    fn tagged_files() {
        let small = "<SM:EDIT path=\"src/config.ts\">\n<SM:FIND>\nconst timeout = 1000;\n</SM:FIND>\n<SM:PUT>\nconst timeout = 5000;\n</SM:PUT>\n</SM:EDIT>\n";
        assert_eq!(tagged_targets(small).unwrap(), ["src/config.ts"]);
        let every = "<SM:EDIT path=\"src/catalog.ts\" all>\n<SM:FIND>\nlogger.debug(\n</SM:FIND>\n<SM:PUT>\nlogger.trace(\n</SM:PUT>\n</SM:EDIT>\n<SM:EDIT file='src/b.ts'>\n<SM:FIND>\na\n</SM:FIND>\n<SM:PUT></SM:PUT>\n<SM:EDIT>\n<SM:FIND>\nb\n</SM:FIND>\n<SM:AFTER>\nc\n</SM:AFTER>\n";
        assert_eq!(
            tagged_targets(every).unwrap(),
            ["src/catalog.ts", "src/b.ts"]
        );
    }

    #[test]
    fn a_tagged_payload_that_names_no_file_first_is_an_error() {
        for payload in [
            "<SM:EDIT>\n<SM:FIND>\na\n</SM:FIND>\n<SM:PUT>\nb\n</SM:PUT>\n",
            "<SM:EDIT path=\"\">\n<SM:FIND>\na\n</SM:FIND>\n",
        ] {
            assert!(
                tagged_targets(payload)
                    .unwrap_err()
                    .contains("names no file"),
                "{payload}"
            );
        }
    }

    /// Upstream `sloppy.md`: inline changes, "Fix every match", several operations in one file.
    #[test]
    fn marked_files() {
        assert_eq!(
            marked_targets("§src/config.ts\nconst timeout = ⟪1000│5000⟫;\n").unwrap(),
            ["src/config.ts"]
        );
        assert_eq!(
            marked_targets("§*src/catalog.ts\nlogger.⟪debug│trace⟫(\n").unwrap(),
            ["src/catalog.ts"]
        );
        let several = "§src/footer.ts\n\t} else {\n\t\tstr = ⟪warn(display)│display⟫;\n§\nconst label = ⟪\"pct\"│\"percent\"⟫;\n§src/b.ts\nx\n»\ny\n";
        assert_eq!(
            marked_targets(several).unwrap(),
            ["src/footer.ts", "src/b.ts"]
        );
        assert_eq!(
            marked_targets("§src/a.ts\nx\n»\ny\n[src/b.ts]\n§\nz\n»\nw\n").unwrap(),
            ["src/a.ts", "src/b.ts"]
        );
    }

    #[test]
    fn a_marked_payload_that_names_no_file_first_is_an_error() {
        assert!(
            marked_targets("§\nconst a = ⟪1│2⟫;\n")
                .unwrap_err()
                .contains("names no file")
        );
    }

    #[test]
    fn content_that_looks_like_a_header_stays_content() {
        assert_eq!(
            marked_targets("§Cargo.toml\n[package]\nname = ⟪\"a\"│\"b\"⟫\n").unwrap(),
            ["Cargo.toml"]
        );
    }
}
