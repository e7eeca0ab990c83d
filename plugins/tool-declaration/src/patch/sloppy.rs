//! oh-my-pi's sloppy edit format. 18.2.3 opens each file with a tag line
//! `<SM:EDIT path="relative/path.ts">` (or `file="..."`, and `all`); a bare
//! `<SM:EDIT>` continues the same file. Later builds (upstream `sloppy.md`)
//! open a file with `§relative/path.ts` (`§*path` for every match), a bare `§`
//! continuing it, and may name a file by a `[path]` line before its `§`. A
//! payload that names no file first would apply to the last file the session
//! edited: that is unknowable here, so it is an error.

//!
//! What a section adds to its file: in the tagged form every line outside
//! its `<SM:FIND>` blocks, in the marked form every line after a `»` and
//! each line holding an inline change `⟪old│new⟫`, read with its new side.

use super::Written;
use crate::prelude::*;

pub fn opens_tagged(line: &str) -> bool {
    tag_opener(line).is_some()
}

pub fn tagged_targets(text: &str) -> Result<Vec<Written>, String> {
    let mut sections = Sections::new("<SM:EDIT path=\"...\">");
    let mut finding = false;
    for line in text.lines() {
        if let Some(attrs) = tag_opener(line) {
            sections.open(attribute(attrs, "path").or_else(|| attribute(attrs, "file")))?;
            finding = false;
            continue;
        }
        let tag = line.trim();
        if tag.starts_with("<SM:") || tag.starts_with("</SM:") {
            finding = tag.starts_with("<SM:FIND>") && !tag.ends_with("</SM:FIND>");
            continue;
        }
        if !finding {
            sections.add(line);
        }
    }
    Ok(sections.found)
}

pub fn opens_marked(line: &str) -> bool {
    line.starts_with('§')
}

pub fn marked_targets(text: &str) -> Result<Vec<Written>, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut sections = Sections::new("§path");
    let mut replacing = false;
    for (i, line) in lines.iter().enumerate() {
        if let Some(rest) = line.trim_start().strip_prefix('§') {
            // A `[path]` line names the file of the bare `§` after it.
            sections.open(Some(rest.strip_prefix('*').unwrap_or(rest)))?;
            replacing = false;
        } else if let Some(path) = bracketed(line).filter(|_| opens_operation(&lines[i + 1..])) {
            sections.open(Some(path))?;
        } else if line.trim() == "»" {
            replacing = true;
        } else if replacing {
            sections.add(line);
        } else if line.contains('⟪') {
            sections.add(&new_side(line));
        }
    }
    Ok(sections.found)
}

/// The files a sloppy payload's openers name, and the one being read.
struct Sections {
    found: Vec<Written>,
    current: Option<usize>,
    /// How an opener that names a file is written, for the error.
    form: &'static str,
}

impl Sections {
    fn new(form: &'static str) -> Self {
        Sections {
            found: Vec::new(),
            current: None,
            form,
        }
    }

    /// An opener: naming a file starts it; an empty one continues the file
    /// before it, and names no file when it comes first.
    fn open(&mut self, path: Option<&str>) -> Result<(), String> {
        match path
            .map(|p| super::unquote(p.trim()))
            .filter(|p| !p.is_empty())
        {
            Some(path) => {
                self.current = Some(self.found.len());
                self.found.push(Written::new(path));
            }
            None if self.found.is_empty() => {
                return Err(format!(
                    "names no file: its first sloppy section does not start with `{}`",
                    self.form
                ));
            }
            None => {}
        }
        Ok(())
    }

    fn add(&mut self, line: &str) {
        if let Some(file) = self.current.and_then(|i| self.found.get_mut(i)) {
            file.add(line);
        }
    }
}

/// A line with each inline change `⟪old│new⟫` read as its new side.
fn new_side(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some((before, change)) = rest.split_once('⟪') {
        out.push_str(before);
        let Some((inside, after)) = change.split_once('⟫') else {
            out.push_str(change);
            return out;
        };
        out.push_str(inside.split_once('│').map_or(inside, |(_, new)| new));
        rest = after;
    }
    out.push_str(rest);
    out
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

    fn texts(found: &[super::Written]) -> Vec<&str> {
        found.iter().map(|w| w.text.as_str()).collect()
    }

    #[test]
    fn what_each_form_adds() {
        let tagged = "<SM:EDIT path=\"a.sh\">\n<SM:FIND>\nold\n</SM:FIND>\n<SM:PUT>\nnew\n</SM:PUT>\n</SM:EDIT>\n";
        assert_eq!(texts(&tagged_targets(tagged).unwrap()), ["new\n"]);
        let marked = "§a.sh\nctx\nx = ⟪1│2⟫;\n§b.sh\nold\n»\nnew\n";
        assert_eq!(
            texts(&marked_targets(marked).unwrap()),
            ["x = 2;\n", "new\n"]
        );
    }

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
