//! Variables through which code of a command's choosing runs inside the
//! programs started with them: libraries the dynamic loader adds, the file
//! bash reads before a script, a JavaScript runtime's options, and the
//! paths interpreters load modules from before a script's own.

/// Libraries the dynamic loader adds to every program, and the file bash
/// reads before a script's commands.
pub const LOADERS: &[&str] = &[
    "LD_PRELOAD",
    "LD_AUDIT",
    "LD_LIBRARY_PATH",
    "DYLD_INSERT_LIBRARIES",
    "DYLD_LIBRARY_PATH",
    "DYLD_FRAMEWORK_PATH",
    "BASH_ENV",
];

/// Variables holding options of a JavaScript runtime (node, bun).
pub const RUNTIME_OPTIONS: &[&str] = &["NODE_OPTIONS", "BUN_OPTIONS"];

/// Runtime options that load code (`--require`, `--import`, a loader,
/// bun's `--preload`), open the process to a debugger that can run code in
/// it (`--inspect`), or set its environment from a file (`--env-file`).
const LOADING_OPTIONS: &[&str] = &[
    "-r",
    "--require",
    "--import",
    "--loader",
    "--experimental-loader",
    "--preload",
    "--inspect",
    "--env-file",
];

/// Where Python, Ruby, Perl and node look for the modules a program
/// imports, or what they load first: a module put there runs in place of
/// the one installed.
pub const MODULE_PATHS: &[&str] = &[
    "PYTHONPATH",
    "PYTHONHOME",
    "PYTHONUSERBASE",
    "RUBYOPT",
    "RUBYLIB",
    "PERL5OPT",
    "PERL5LIB",
    "PERLLIB",
    "NODE_PATH",
];

/// The first of `words` that is a loading runtime option (`--require=x`,
/// `-r`).
pub fn loading_option<'w>(mut words: impl Iterator<Item = &'w str>) -> Option<&'w str> {
    words.find(|word| {
        let option = word.split_once('=').map_or(*word, |(option, _)| option);
        LOADING_OPTIONS
            .iter()
            .any(|loading| option == *loading || (loading.len() > 2 && option.starts_with(loading)))
    })
}
