//! git configuration that moves or disables hooks: core.hooksPath, and
//! aliases whose definitions may hold a bypass.

use crate::prelude::*;

use crate::field::Field;

/// Config keys compare case-insensitively in their section and name.
pub fn is_hooks_path(key: &str) -> bool {
    key.eq_ignore_ascii_case("core.hooksPath")
}

/// Whether a key makes git read more configuration from a file:
/// `include.path`, `includeIf.<condition>.path`.
pub fn is_include(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    key == "include.path" || (key.starts_with("includeif.") && key.ends_with(".path"))
}

/// The alias a key defines: `alias.ci` defines `ci`.
pub fn alias_name(key: &str) -> Option<&str> {
    let section = key.get(..6)?;
    section
        .eq_ignore_ascii_case("alias.")
        .then(|| key.get(6..))
        .flatten()
}

/// A value `git config` would write.
pub struct ConfigWrite<'f> {
    pub key: &'f Field<'f>,
    pub value: Option<&'f Field<'f>>,
}

/// Whether `git config ARGS` removes core.hooksPath: `--unset`, `unset`,
/// or the whole `core` section removed or renamed. A repository whose hooks
/// live where core.hooksPath points (husky's `.husky/_`) then has git look
/// in `.git/hooks`, where there are none.
pub fn removes_hooks_path(args: &[Field<'_>]) -> bool {
    let mut removes = false;
    let mut names = false;
    for arg in args {
        let text = &*arg.text;
        removes |= matches!(
            text,
            "--unset"
                | "--unset-all"
                | "unset"
                | "--remove-section"
                | "remove-section"
                | "--rename-section"
                | "rename-section"
        );
        names |= is_hooks_path(text) || text.eq_ignore_ascii_case("core");
    }
    removes && names
}

/// What `git config ARGS` writes, if it writes a value; reads, `--unset`
/// and the like write nothing a hook depends on.
pub fn config_write<'f>(args: &'f [Field<'f>]) -> Option<ConfigWrite<'f>> {
    let mut rest = args;
    let mut writes = None;
    if let Some(subcommand) = rest.first().and_then(Field::exact)
        && matches!(
            subcommand,
            "set" | "get" | "list" | "unset" | "rename-section" | "remove-section" | "edit"
        )
    {
        writes = Some(subcommand == "set");
        rest = rest.get(1..).unwrap_or_default();
    }
    let mut positional = Vec::new();
    let mut index = 0;
    while let Some(field) = rest.get(index) {
        index += 1;
        let Some(text) = field.exact() else {
            positional.push(field);
            continue;
        };
        if text == "--" {
            positional.extend(rest.get(index..).unwrap_or_default());
            break;
        }
        let Some(option) = text.strip_prefix('-') else {
            positional.push(field);
            continue;
        };
        let (name, attached) = option
            .split_once('=')
            .map_or((option, false), |(name, _)| (name, true));
        match name {
            "-file" | "-blob" | "-type" | "-default" | "-comment" | "-value" | "-url" | "f"
                if !attached =>
            {
                index += 1;
            }
            "-add" | "-replace-all" => writes = writes.or(Some(true)),
            "-get" | "-get-all" | "-get-regexp" | "-get-urlmatch" | "-get-color"
            | "-get-colorbool" | "-list" | "l" | "-unset" | "-unset-all" | "-rename-section"
            | "-remove-section" | "-edit" | "e" => writes = Some(false),
            _ => {}
        }
    }
    let writes = writes.unwrap_or(positional.len() >= 2);
    let key = positional.first().copied()?;
    writes.then(|| ConfigWrite {
        key,
        value: positional.get(1).copied(),
    })
}
