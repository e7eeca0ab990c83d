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
    let (targets, link) = match files.split_last() {
        Some((link, targets)) if !into_folder && !targets.is_empty() => (targets, Some(link)),
        _ => (&files[..], None),
    };
    each(walker, targets, Change::Remove, "links to")?;
    // A symbolic link's relative target is read from the link's folder:
    // `ln -s ../../home sub/h` links to `home` two folders above `sub`.
    let symbolic = args.iter().any(|arg| {
        arg == "--symbolic" || crate::commands::short_flags(arg).is_some_and(|f| f.contains('s'))
    });
    if !symbolic {
        return Ok(());
    }
    let folders: Vec<String> = match link {
        // The link's folder, or the link itself when it names a folder.
        Some(link) => {
            let link = link.trim_end_matches('/');
            let parent = link.rsplit_once('/').map_or(".", |(parent, _)| parent);
            vec![parent.to_owned(), link.to_owned()]
        }
        None => option_values(args, &["-t", "--target-directory"]),
    };
    let relative = targets
        .iter()
        .filter(|target| !target.starts_with(['/', '~']));
    let read: Vec<String> = relative
        .flat_map(|target| {
            folders
                .iter()
                .map(move |folder| format!("{folder}/{target}"))
        })
        .collect();
    each(walker, &read, Change::Remove, "links to")
}

/// `mount … SOURCE TARGET`: what is mounted over a protected path replaces
/// it; and a bind mount (`--bind`, `--rbind`, `-o bind`) of a folder that
/// holds one makes it reachable under the target, as a link does, unless
/// it is read-only.
pub fn mount(walker: &Walker<'_>, args: &[String]) -> Result<()> {
    let files = operands(args, &["-t", "--types", "-o", "--options", "-L", "-U"]);
    let options = option_values(args, &["-o", "--options"]);
    let options = || options.iter().flat_map(|options| options.split(','));
    let binds = args
        .iter()
        .any(|arg| matches!(arg.as_str(), "--bind" | "--rbind" | "-B" | "-R"))
        || options().any(|option| matches!(option, "bind" | "rbind"));
    let binds = binds && !read_only(options()) && !args.iter().any(|arg| arg == "-r");
    match files.as_slice() {
        [source, .., target] => {
            walker.changes(target, Change::Write, "mounts over")?;
            if binds {
                walker.changes(source, Change::Remove, "bind-mounts")?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// `docker run -v SOURCE:TARGET` and `--mount type=bind,source=SOURCE,…`
/// (podman, nerdctl): a folder bound into a container can be changed there
/// under another name, as through a link, unless it is bound read-only.
/// `bwrap --bind SOURCE TARGET` likewise.
pub fn container_binds(walker: &Walker<'_>, name: &str, args: &[String]) -> Result<()> {
    let mut sources = Vec::new();
    if name == "bwrap" {
        for (at, arg) in args.iter().enumerate() {
            if matches!(
                arg.as_str(),
                "--bind" | "--bind-try" | "--dev-bind" | "--dev-bind-try"
            ) {
                sources.extend(args.get(at + 1).cloned());
            }
        }
    }
    for volume in option_values(args, &["-v", "--volume"]) {
        let mut fields = volume.split(':');
        let source = fields.next().unwrap_or_default();
        let options = fields.nth(1).unwrap_or_default();
        let named_volume = !source.contains(['/', '~']) && source.is_ascii();
        if !named_volume && !read_only(options.split(',')) {
            sources.push(source.to_owned());
        }
    }
    for mount in option_values(args, &["--mount"]) {
        let source = mount.split(',').find_map(|field| {
            let (key, value) = field.split_once('=')?;
            matches!(key, "source" | "src").then_some(value)
        });
        if let Some(source) = source.filter(|_| !read_only(mount.split(','))) {
            sources.push(source.to_owned());
        }
    }
    each(walker, &sources, Change::Remove, "binds into a container")
}

/// Whether a bind's options make it read-only (`ro`, `readonly`,
/// `readonly=true`).
fn read_only<'a>(mut options: impl Iterator<Item = &'a str>) -> bool {
    options.any(|option| match option.split_once('=') {
        Some(("ro" | "readonly", value)) => !matches!(value, "false" | "0"),
        Some(_) => false,
        None => matches!(option, "ro" | "readonly"),
    })
}
