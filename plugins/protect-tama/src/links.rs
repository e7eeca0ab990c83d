//! Commands that make a protected path reachable under another name, where
//! a later command could change it without naming it: links and mounts.

use crate::prelude::*;

use crate::commands::{each, operands, option_values};
use crate::protected::Change;
use crate::walk::{Result, Walker};

/// `ln [-s] TARGET… [LINK]`: a link to a protected path, or to a folder
/// that holds one (`ln -s ~ /tmp/h`), lets a later write or `rm -r` reach it
/// under another name (`/tmp/h/.tama`), so linking to one counts as
/// changing its whole tree. With one operand the link lands in the working
/// folder.
pub fn link(walker: &Walker<'_>, args: &[String]) -> Result<()> {
    let files = operands(args, &["-S", "--suffix", "-t", "--target-directory"]);
    let into_folder = !option_values(args, &["-t", "--target-directory"]).is_empty();
    let targets = match files.split_last() {
        Some((_, targets)) if !into_folder && !targets.is_empty() => targets,
        _ => &files[..],
    };
    each(walker, targets, Change::Remove, "links to")
}

/// `mount … SOURCE TARGET` (`--bind` too): what is mounted over a protected
/// path replaces it.
pub fn mount(walker: &Walker<'_>, args: &[String]) -> Result<()> {
    let files = operands(args, &["-t", "--types", "-o", "--options", "-L", "-U"]);
    match files.as_slice() {
        [_, .., target] => walker.changes(target, Change::Write, "mounts over"),
        _ => Ok(()),
    }
}
