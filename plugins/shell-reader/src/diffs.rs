//! The files a unified, context or git diff names in its headers, as
//! `git apply`, `git am` and `patch` read them.

use crate::prelude::*;

/// The paths the headers of `diff` name (`diff --git a/x b/x`, `--- a/x`,
/// `+++ b/x`, `Index: x`, `rename to x`), `/dev/null` left out.
pub fn header_paths(diff: &str) -> Vec<String> {
    let mut paths = Vec::new();
    for line in diff.lines() {
        if let Some(rest) = line.strip_prefix("diff --git ") {
            paths.extend(rest.split_whitespace().map(unquoted));
            continue;
        }
        let named = [
            "--- ",
            "+++ ",
            "*** ",
            "Index: ",
            "rename from ",
            "rename to ",
            "copy to ",
        ]
        .iter()
        .find_map(|prefix| line.strip_prefix(prefix));
        if let Some(rest) = named {
            // A timestamp may follow the name after a tab.
            let name = rest.split('\t').next().unwrap_or(rest).trim_end();
            if !name.is_empty() && name != "/dev/null" {
                paths.push(unquoted(name));
            }
        }
    }
    paths
}

fn unquoted(name: &str) -> String {
    name.trim_matches('"').to_owned()
}

/// `path` with its first `count` components taken off, as `-p` does.
pub fn stripped(path: &str, count: usize) -> &str {
    let mut rest = path;
    for _ in 0..count {
        match rest.split_once('/') {
            Some((_, after)) => rest = after.trim_start_matches('/'),
            None => break,
        }
    }
    rest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_name_the_files_a_diff_changes() {
        let diff = "diff --git a/x.rs b/y.rs\nrename from x.rs\nrename to y.rs\n--- a/z\t2024-01-01\n+++ b/z\n@@ -1 +1 @@\n-a\n+b\n--- /dev/null\n+++ \"b/w v\"\n";
        assert_eq!(
            header_paths(diff),
            ["a/x.rs", "b/y.rs", "x.rs", "y.rs", "a/z", "b/z", "b/w v"]
        );
        assert_eq!(stripped("a/b/c", 1), "b/c");
        assert_eq!(stripped("a//b", 1), "b");
        assert_eq!(stripped("c", 3), "c");
    }
}
