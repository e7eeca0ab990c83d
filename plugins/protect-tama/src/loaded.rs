//! Code of the command's choosing run in a harness or in the hooks it
//! runs: libraries and files its start loads (`LD_PRELOAD`, `NODE_OPTIONS=
//! --require …`, `BASH_ENV`), the program its hooks are handed to (Claude
//! Code's `CLAUDE_CODE_SHELL_PREFIX`, Codex's `SHELL`), and the programs it
//! and its hooks run through replaced where they are found (`node`, `sh`
//! in a `bin` folder).

use crate::prelude::*;

use crate::commands::basename;
use crate::harnesses::{Harness, is_harness};
use crate::walk::{Result, Walker, shown};
use shell_reader::loaders::{LOADERS, RUNTIME_OPTIONS, loading_option};

/// Whether lower-cased shell text (a start-up file's line) names a
/// variable that loads code into a harness started from that shell
/// ([`LOADERS`], `NODE_OPTIONS` with a loading option) or that its hooks
/// run through (`CLAUDE_CODE_SHELL_PREFIX`).
pub fn named_in(lowercase: &str) -> bool {
    let names = |variable: &&str| lowercase.contains(&variable.to_ascii_lowercase());
    LOADERS.iter().any(names)
        || names(&"CLAUDE_CODE_SHELL_PREFIX")
        || (RUNTIME_OPTIONS.iter().any(names)
            && loading_option(lowercase.split(|c: char| c.is_whitespace() || c == '=')).is_some())
}

/// Shells a harness hands a hook command to: Claude Code's `sh -c`, and
/// Codex's `$SHELL -lc`, whichever shell the user's is.
pub const SHELLS: &[&str] = &[
    "sh", "bash", "dash", "zsh", "fish", "ksh", "mksh", "tcsh", "csh",
];

/// How the command puts code of its own into the harness it starts or into
/// the hooks that harness runs, if it does: a variable of [`LOADERS`], a
/// loading option of the runtime (`options` given to node or bun before
/// the harness's script, or in `NODE_OPTIONS`); for Claude Code, which
/// hands each hook's command to it, a `CLAUDE_CODE_SHELL_PREFIX`; or, for
/// Codex, which runs each hook as `$SHELL -lc …`, a `SHELL` that is no
/// installed shell, or zsh's or fish's start-up files moved elsewhere.
pub fn into_harness(walker: &Walker<'_>, harness: Harness, options: &[String]) -> Option<String> {
    let loads = "loads code of the command's choosing into it and into every hook it runs, where that code can answer in Tama's place";
    if let Some((variable, value)) = LOADERS
        .iter()
        .find_map(|variable| Some((variable, walker.assigned(variable)?)))
    {
        return Some(format!("`{variable}={}` {loads}", shown(value)));
    }
    let set_options = RUNTIME_OPTIONS.iter().find_map(|variable| {
        let value = walker.assigned(variable)?;
        let option = loading_option(value.split_whitespace())?;
        Some(format!("`{variable}` holds `{option}`, which"))
    });
    let given = || {
        let option = loading_option(options.iter().map(String::as_str))?;
        Some(format!("`{option}`"))
    };
    if let Some(how) = set_options.or_else(given) {
        return Some(format!("{how} {loads}"));
    }
    // Claude Code 2.1 runs each hook command through this program, as
    // it does its shell tool's commands.
    if let (Harness::Claude, Some(prefix)) = (harness, walker.assigned("CLAUDE_CODE_SHELL_PREFIX"))
    {
        return Some(format!(
            "`CLAUDE_CODE_SHELL_PREFIX={}` is a program Claude Code hands each hook's command to, which decides whether Tama's hooks run",
            shown(prefix)
        ));
    }
    let Harness::Codex = harness else {
        return None;
    };
    if let Some(shell) = walker
        .assigned("SHELL")
        .filter(|shell| !installed_shell(shell))
    {
        return Some(format!(
            "`SHELL={}` is the program Codex runs each hook through (`$SHELL -lc`), which decides whether Tama's hooks run",
            shown(shell)
        ));
    }
    ["ZDOTDIR", "XDG_CONFIG_HOME"].iter().find_map(|variable| {
        let value = walker.assigned(variable)?;
        Some(format!(
            "`{variable}={}` has the login shell Codex runs each hook through read start-up files of the command's choosing first, which can end it before Tama runs",
            shown(value)
        ))
    })
}

/// Whether `path` is a shell installed where the system keeps programs.
fn installed_shell(path: &str) -> bool {
    let (folder, name) = path.rsplit_once('/').unwrap_or(("", path));
    let system = ["/bin", "/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"];
    system.contains(&folder) && SHELLS.contains(&name)
}

/// The runtimes a harness's program starts with (`#!/usr/bin/env node`).
const RUNTIMES: &[&str] = &["node", "nodejs", "bun", "env"];

/// Whether `path` is a harness's program, one of the [`RUNTIMES`] it runs
/// on or one of the [`SHELLS`] its hooks run through, where a shell finds
/// programs, in a `bin` folder.
pub fn is_program_path(path: &str) -> bool {
    let (folder, name) = path.rsplit_once('/').unwrap_or(("", path));
    matches!(basename(folder), "bin" | ".bin")
        && (is_harness(name) || RUNTIMES.contains(&name) || SHELLS.contains(&name))
}

/// Refuses writing `path` (`resolved`) when it is a harness's program or
/// its runtime ([`is_program_path`]): a later session would start what
/// the command put there in its place. A copy of that same program
/// (`cp "$(which claude)" ~/bin/`), another of `sources`, passes.
pub fn replaced(path: &str, resolved: &str, sources: &[String], verb: &str) -> Result<()> {
    if !is_program_path(resolved) {
        return Ok(());
    }
    let name = basename(resolved);
    let copies_itself = sources
        .iter()
        .any(|source| basename(source) == name && source != path && source != resolved);
    if copies_itself {
        return Ok(());
    }
    Err(format!(
        "the tool call {verb} `{}`, a program a harness is started by or that it or its hooks run through (`#!/usr/bin/env node`, `sh -c`): a later session would run what is put there in its place, without Tama's hooks. Start it as it is configured",
        shown(path)
    ))
}
