//! git configuration that moves or disables hooks: core.hooksPath, and
//! aliases whose definitions may hold a bypass.

use shell_reader::git_config;

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
    let (key, value) = git_config::written(args, Field::exact)?;
    Some(ConfigWrite {
        key: args.get(key)?,
        value: value.and_then(|value| args.get(value)),
    })
}
