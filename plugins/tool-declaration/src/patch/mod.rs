//! Files named inside patch text. Each edit format is one reader: the first
//! meaningful line says which format the text is in, and that reader names
//! every file the text touches. A header that names no file makes the whole
//! text an error: no other target, and never the session directory, stands in
//! for it. Each file comes with the text the patch puts into it: the lines its
//! sections add, never those they remove.

use crate::prelude::*;
mod envelope;
mod hashline;
mod sloppy;

pub use envelope::shell_invocation;

/// One file a patch touches, with the lines it adds there, one per line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    pub path: String,
    pub text: String,
}

impl Written {
    fn new(path: &str) -> Self {
        Written {
            path: path.to_string(),
            text: String::new(),
        }
    }

    /// Adds one line the patch puts into this file.
    fn add(&mut self, line: &str) {
        self.text.push_str(line);
        self.text.push('\n');
    }
}

impl PartialEq<&str> for Written {
    fn eq(&self, path: &&str) -> bool {
        self.path == *path
    }
}

/// The destination a section's file moves to, holding what the section has
/// added so far; its later lines reach both (`add_to_section`).
fn moved(found: &[Written], section: usize, dest: &str) -> Written {
    let mut file = Written::new(dest);
    if let Some(source) = found.get(section) {
        file.text.clone_from(&source.text);
    }
    file
}

/// Adds `line` to the files of the section being read: the file it opened
/// and the file a move in it names, which receives the same text.
fn add_to_section(found: &mut [Written], section: usize, line: &str) {
    for file in found.iter_mut().skip(section) {
        file.add(line);
    }
}

/// One edit format: whether a text's first meaningful line opens it, and its
/// reader of every target.
struct Format {
    opens: fn(&str) -> bool,
    targets: fn(&str) -> Result<Vec<Written>, String>,
}

const FORMATS: &[Format] = &[
    Format {
        opens: envelope::opens,
        targets: envelope::targets,
    },
    Format {
        opens: hashline::opens,
        targets: hashline::targets,
    },
    Format {
        opens: sloppy::opens_tagged,
        targets: sloppy::tagged_targets,
    },
    Format {
        opens: sloppy::opens_marked,
        targets: sloppy::marked_targets,
    },
];

/// Every file the patch text touches, in order of appearance, each once with
/// all the text added to it. A text in no known format names the files of
/// any envelope headers it holds.
pub fn targets(text: &str) -> Result<Vec<Written>, String> {
    let first = text.lines().map(str::trim).find(|l| !is_wrapper(l));
    let format = first.and_then(|line| FORMATS.iter().find(|f| (f.opens)(line)));
    let found = match format {
        Some(format) => (format.targets)(text)?,
        None => envelope::targets(text)?,
    };
    Ok(merged(found))
}

/// Each file once, in order of its first mention, with every text written to it.
pub fn merged(files: Vec<Written>) -> Vec<Written> {
    let mut out: Vec<Written> = Vec::new();
    for file in files {
        match out.iter_mut().find(|earlier| earlier.path == file.path) {
            Some(earlier) if earlier.text != file.text => earlier.text.push_str(&file.text),
            Some(_) => {}
            None => out.push(file),
        }
    }
    out
}
/// Lines around the patch proper: blanks, the envelope's begin marker and a
/// Markdown code fence.
fn is_wrapper(line: &str) -> bool {
    line.is_empty() || line == "*** Begin Patch" || line.starts_with("```")
}

/// A path written in quotes, as oh-my-pi's hashline and move ops accept it,
/// without them.
fn unquote(path: &str) -> &str {
    for quote in ['"', '\''] {
        if let Some(inner) = path.strip_prefix(quote).and_then(|p| p.strip_suffix(quote)) {
            return inner;
        }
    }
    path
}

#[cfg(test)]
mod tests {
    use super::targets;

    #[test]
    fn the_first_line_picks_the_format() {
        assert_eq!(
            targets("*** Begin Patch\n[src/a.ts#1F2E]\nREM\n*** End Patch").unwrap(),
            ["src/a.ts"]
        );
        assert_eq!(
            targets("```\n*** Begin Patch\n*** Delete File: x\n*** End Patch\n```").unwrap(),
            ["x"]
        );
        assert_eq!(
            targets(
                "<SM:EDIT path=\"a.ts\">\n<SM:FIND>\n[package]\n</SM:FIND>\n<SM:PUT>\n</SM:PUT>"
            )
            .unwrap(),
            ["a.ts"]
        );
    }

    #[test]
    fn a_content_line_of_another_format_is_no_header() {
        // A TOML table in an envelope's context is not a hashline section.
        let patch =
            "*** Begin Patch\n*** Update File: Cargo.toml\n@@\n [package]\n-a\n+b\n*** End Patch";
        assert_eq!(targets(patch).unwrap(), ["Cargo.toml"]);
    }

    #[test]
    fn text_in_no_format_names_nothing() {
        assert!(targets("just prose\nwith [brackets]").unwrap().is_empty());
    }
}
