//! The shell reader Tama's gates share: [`shell`] parses command text as a
//! shell reads it, [`field`] is the value a word expands to, [`braces`]
//! and [`values`] do what the shell does to a word's known text, [`diffs`]
//! the files a diff's headers name, and
//! [`git_commands`] names where git runs commands of its own, [`git_config`]
//! reads what `git config` and git's configuration files set; [`loaders`]
//! the variables that load code into the programs started with them; [`output`] is
//! what `echo` and `printf` print; [`interpreters`] reads the strings of code
//! handed to python, node, perl, ruby, php, awk, lua, R, julia or AppleScript; [`runners`] what programs
//! such as `tmux`, `at`, `make`, `tar` and editors hand a shell; and
//! [`startup`] names the shells' start-up files, [`tool_inputs`] what a tool other than the shell that runs what it is
//! given is handed; [`disk`] holds the files a command runs that it did not
//! write, read from disk through the host.
//!
//! Built without `std` (only `alloc`), so that a gate built on it imports
//! nothing from WASI.

#![cfg_attr(not(test), no_std)]

extern crate alloc;

pub mod arithmetic;
pub mod braces;
pub mod builtins;
pub mod diffs;
pub mod disk;
pub mod field;
pub mod git_commands;
pub mod git_config;
pub mod interpreters;
pub mod loaders;
pub mod output;
mod prelude;
pub mod runners;
pub mod shell;
pub mod startup;
pub mod tool_inputs;
pub mod values;
