//! What `find`'s expression may select among the files it walks, as far as
//! hooks go: the tests that name files (`-name`, `-path`, `-regex`, …), the
//! git folder pruned (`-path ./.git -prune -o …`) or negated, and `-empty`.

use crate::prelude::*;

use super::files::{self, HOOK_NAMES, Within};
use crate::field::{Field, UNKNOWN};

/// How far `find`'s expression reaches hooks under its folders.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Selection {
    /// A test names what may be a hook, its folder or the git folder.
    Hooks,
    /// Nothing narrows the walk: every file under the folders.
    Everything,
    /// Every test that names files names none a hook could be, or the git
    /// folder is pruned: what is selected is no hook.
    NoHooks,
}

/// The tests by which find names a file, with whether each reads the base
/// name only, and whether case is ignored.
const NAME_TESTS: &[(&str, bool, bool)] = &[
    ("-name", true, false),
    ("-iname", true, true),
    ("-path", false, false),
    ("-ipath", false, true),
    ("-wholename", false, false),
    ("-iwholename", false, true),
    ("-regex", false, false),
    ("-iregex", false, true),
];

/// What the expression after `find`'s `folders` may select.
pub fn selection(folders: &[Field<'_>], expression: &[Field<'_>], within: Within) -> Selection {
    let reaches = folders
        .iter()
        .any(|folder| reaches_hooks(&folder.text, within));
    let in_hooks = folders.iter().any(|folder| {
        files::is_hook_path(&folder.text, within) || files::holds_hooks(&folder.text)
    });
    let words: Vec<&str> = expression.iter().map(|word| &*word.text).collect();
    // `-maxdepth 1` with `-not -name .git`: the folder's entries but the git folder.
    let shallow = words
        .windows(2)
        .any(|pair| pair[0] == "-maxdepth" && matches!(pair[1], "0" | "1"));
    let mut pruned_git = false;
    let mut alternatives = false;
    let mut named = false;
    let mut empty_only = false;
    for (at, word) in words.iter().enumerate() {
        match *word {
            "-o" | "-or" if !words[..at].ends_with(&["-prune"]) => alternatives = true,
            "-empty" => empty_only = true,
            _ => {}
        }
        let Some(&(_, base_only, fold)) = NAME_TESTS.iter().find(|(test, ..)| test == word) else {
            continue;
        };
        let Some(pattern) = words.get(at + 1) else {
            continue;
        };
        let negated = at > 0 && matches!(words[at - 1], "!" | "-not");
        let prunes = words.get(at + 2) == Some(&"-prune");
        let names_hooks = may_name_hooks(pattern, base_only, fold);
        // `-path ./.git -prune -o …`, `-not -path './.git/*'`, `-maxdepth 1
        // -not -name .git`: the git folder is left out of what the rest
        // selects. A negated base name leaves out that entry, not what lies
        // under it; a negated test selects what it does not name.
        if prunes || (negated && (shallow || !base_only)) {
            pruned_git |= names_hooks && !in_hooks;
        }
        if prunes || negated {
            continue;
        }
        if names_hooks {
            return Selection::Hooks;
        }
        named = true;
    }
    if !reaches || pruned_git {
        return Selection::NoHooks;
    }
    match (named || empty_only) && !alternatives {
        true => Selection::NoHooks,
        false => Selection::Everything,
    }
}

/// Whether a folder find starts from may hold hooks: a hooks or git
/// folder, or one the repository may lie under (`.`, `..`, `/`, `~`, a
/// folder the gate cannot know).
fn reaches_hooks(folder: &str, within: Within) -> bool {
    let folder = folder.trim_end_matches('/');
    files::is_hook_path(folder, within)
        || files::holds_hooks(folder)
        || files::is_git_dir(folder)
        || within != Within::Elsewhere
        || folder.contains(UNKNOWN)
        || matches!(folder, "" | "." | ".." | "~")
        || folder.starts_with(['/', '~', '$'])
        || folder.starts_with("../")
        || folder
            .split('/')
            .any(|part| part == ".git" || part == ".husky")
}

/// Whether a name test's pattern may match a hook, the hooks folder or the
/// git folder: a glob on the base name is matched against those names; a
/// path pattern or regular expression is read as naming one when it spells
/// part of one, or spells no name at all (`*`, `.*`).
fn may_name_hooks(pattern: &str, base_only: bool, fold: bool) -> bool {
    let pattern = match fold {
        true => pattern.to_ascii_lowercase(),
        false => pattern.to_owned(),
    };
    if pattern.contains(UNKNOWN) {
        return true;
    }
    if base_only {
        return HOOK_NAMES
            .iter()
            .chain(&["hooks", ".git", ".husky", "_", ".githooks", "githooks"])
            .any(|name| shell_reader::values::glob_matches(pattern.as_bytes(), name.as_bytes()));
    }
    let lower = pattern.to_ascii_lowercase();
    !lower.bytes().any(|b| b.is_ascii_alphanumeric())
        || [
            "hook", "git", "husk", "commit", "push", "merge", "rebase", "pre-", "msg",
        ]
        .iter()
        .any(|part| lower.contains(part))
}
