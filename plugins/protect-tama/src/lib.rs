//! Tama's `protect-tama` gate: refuses a tool call by which the agent would
//! change Tama's policy or state, and lets ordinary work through.
//!
//! It protects the paths the host hands it (`tama:gate/host-paths`): Tama's
//! home with its session records, overrides, capabilities, peers folder and
//! log; the registry in use and its components; the compile cache; the
//! `tama` binary; everything under `~/.shared-hooks/`; the hook
//! configurations `tama setup` writes for Claude Code, Codex and oh-my-pi
//! (and a project's `.claude/settings*.json`); the harnesses' installed
//! code (their npm packages, Claude Code's versions); the code oh-my-pi imports
//! into its process at start (its hooks, plugins and profiles, and the
//! hooks it reads from Claude Code's and Codex's folders); and the Oko
//! state.
//!
//! Where the rules take a position:
//!
//! - A write tool (any harness: whole-file writes, edits, patches, notebooks)
//!   is refused when one of its targets is protected; so is a tool the
//!   declaration does not know whose name says it changes files (an MCP
//!   server's `write_file`) when a path among its input's strings is. One
//!   whose name says it runs what it is given (`run_command`, `run_cell`)
//!   has its input's strings and word lists read as shell and as code.
//! - A shell command is read as a shell reads it (the shared shell reader)
//!   and walked in order, with the variables it assigns and the folders it
//!   changes into: redirections, `tee`, `cp`, `mv`, `install`, `ln`,
//!   `rsync`, `dd of=`, `rm`, `unlink`, `shred`, `truncate`, `sed -i`,
//!   `perl -pi`, `chmod`, `chown`, `find -delete`, archive extraction and
//!   downloads name what they change; `sh -c`, `eval`, substitutions, text
//!   piped into a shell, scripts the command wrote, `trap` actions, aliases,
//!   `find -exec` and the commands git runs (pager, editor, `!` aliases) are
//!   walked too. Deleting, moving or recursively re-moding a folder that
//!   holds a protected path counts.
//! - Interpreter one-liners (`python -c`, `node -e`, `perl -e`, `ruby -e`),
//!   and source a compiler is handed on its input or after the command
//!   wrote it (`gcc -x c -`, `go run`), are refused when the code both changes files and spells a protected
//!   path, since what code does cannot be known without running it.
//! - Words expand as the shell expands them: parameters with their
//!   operators, unquoted expansions split on `IFS`, brace lists.
//! - A link to a protected path or a folder holding one, a mount over one
//!   and `git clean -f` in or of a folder holding one count as changing it. A write to a shell start-up
//!   file is refused when the command names Tama (`TAMA_REGISTRY=…`).
//! - A substitution is what its command prints where the gate can tell:
//!   `echo`, `printf`, `cat` and decoding filters, `realpath` and `readlink
//!   -f` of a path (the path), and `which`, `command -v`, `type -P` or
//!   `whereis` of `tama` (the `tama` running now, whose path `tama setup`
//!   wrote into the harnesses' settings): `cp /bin/true "$(which tama)"`;
//!   of a harness, its name in a `bin` folder the gate cannot know.
//! - A value the gate cannot know (an unset variable, another command's
//!   output) matches where the known rest of the path spells a protected one, or
//!   where a word the command spells, put in its place, lies inside one.
//!   A command whose name the gate cannot know may be any command: its
//!   operands count as deleted, and a shell script it is given is walked.
//!   A program the gate does not model (`valgrind`, `systemd-run`,
//!   `hyperfine`) may run what its arguments spell: each word that is not
//!   an option starts a command, and a word of several words is shell text,
//!   where a command the gate models counts (`commands::arguments_as_commands`).
//! - A harness started from the shell without Tama's hooks is refused
//!   (`harnesses`): `claude --bare`, settings that turn every hook off or
//!   leave out the user's, `codex --disable hooks` or `-c
//!   features.hooks=false`, `omp --no-extensions` or `--profile`, and any of
//!   them pointed at another configuration (`HOME`, `CLAUDE_CONFIG_DIR`,
//!   `CODEX_HOME`, `PI_CODING_AGENT_DIR`) or run as another user (`sudo`,
//!   `su -c`, `runuser`, or a shell started so: `sudo -u u sh -c '…'`),
//!   directly or by `npx`, or with code loaded into it and its hooks
//!   (`LD_PRELOAD`, `NODE_OPTIONS=--require …`, Codex's `SHELL`); so is one
//!   put under a name no harness has (`cp "$(which claude)" /tmp/x`).
//! - A signal to the processes a hook runs in (`pkill -f run-hook`, `kill
//!   $(pgrep tama)`) is refused (`signals`): a harness goes on when a hook
//!   dies.
//! - A program started to read its commands from the terminal is refused
//!   (`terminal`, `containers`): Codex types into a command it left
//!   running with `write_stdin`, for which it runs no hook. A shell, a
//!   prompt, an editor or pager with a shell escape, a shell in a container
//!   or development environment, and code that runs what it reads; so is
//!   text that comes later (typed, sent to a port, appended to a followed
//!   file) run by a shell, and a shell handed to a peer (`nc -e`).
//! - Reading passes, except the control key (`TAMA_HOME/control.key`),
//!   which no tool call may name, nor read by reading a whole folder that
//!   holds it: a recursive copy, archive or search (ripgrep skips hidden
//!   folders only below the folders it is given), or interpreter code that
//!   lists a folder and reads what it lists. `tama` commands pass, except the
//!   operator's: `tama sessions override`, `tama sessions grant` and
//!   `tama setup … --remove` and `tama setup` for a registry the command
//!   names (`--registry`, `TAMA_REGISTRY=…`).
//! - A command that is not valid shell is refused as unreadable.

#![cfg_attr(target_arch = "wasm32", no_std)]

extern crate alloc;

mod archives;
mod cmake;
mod commands;
mod containers;
mod diffs;
mod downloads;
mod expand;
mod file_writers;
mod git;
mod harnesses;
mod interpreters;
mod key_reads;
mod links;
mod loaded;
mod output;
mod paths;
mod prelude;
mod protected;
mod remote_copies;
mod signals;
mod sqlite;
mod startup;
mod terminal;
mod walk;
#[cfg(target_arch = "wasm32")]
#[path = "../../block-git-hook-bypass/src/wasm_runtime.rs"]
mod wasm_runtime;

wit_bindgen::generate!({ path: "../../wit", world: "gate" });

pub use protected::{HostPaths, Protected};
pub use walk::Cwd;

use prelude::*;
use protected::Change;
use shell_reader::disk::{Disk, MOST_ROUNDS, ReadFile};
use shell_reader::field::UNKNOWN_TEXT;
use shell_reader::tool_inputs;
use tama::gate::declaration::{ToolKind, WriteTarget, classify};

/// Why `command`, run in `cwd`, is refused, or `None` when it leaves Tama alone.
pub fn shell_refusal(protected: &Protected, cwd: &Cwd<'_>, command: &str) -> Option<String> {
    let mut walker = walk::Walker::new(protected, cwd, command, host_variables(protected));
    walker.source(command).err()
}

/// [`shell_refusal`], with the scripts the command runs but did not write
/// (`bash notes.txt`, `./run`, `source env.sh`, `cat x | sh`) read from disk
/// with `read`: the command is walked again with each file it wanted.
pub fn shell_refusal_on_disk(
    protected: &Protected,
    cwd: &Cwd<'_>,
    command: &str,
    read: ReadFile,
) -> Option<String> {
    let mut disk = Disk::default();
    let mut rounds = 0;
    loop {
        let walker = walk::Walker::new(protected, cwd, command, host_variables(protected));
        let mut walker = walker.reading_disk(disk);
        let refusal = walker.source(command).err();
        disk = walker.into_disk();
        // Paths are resolved, so no relative one asks for a start folder.
        if refusal.is_some() || rounds == MOST_ROUNDS || !disk.read_wanted(|| None, read) {
            return refusal;
        }
        rounds += 1;
    }
}

/// Why writing `targets` from `cwd`, by a tool given `tool_input`, is
/// refused, if it is.
pub fn write_refusal(
    protected: &Protected,
    cwd: &Cwd<'_>,
    targets: &[WriteTarget],
    tool_input: &str,
) -> Option<String> {
    let walker = walk::Walker::new(protected, cwd, tool_input, Vec::new());
    let files = || {
        targets
            .iter()
            .filter(|target| target.device_action.is_none())
    };
    files()
        .find_map(|target| walker.changes(&target.path, Change::Write, "writes").err())
        .or_else(|| files().find_map(|target| script_refusal(protected, cwd, target)))
}

/// Why a script (or makefile, or git configuration) a write puts into
/// `target` is refused: what it would run later, read as the shell tool's
/// command is, when it reads as shell.
fn script_refusal(protected: &Protected, cwd: &Cwd<'_>, target: &WriteTarget) -> Option<String> {
    let path = &target.path;
    walk::run_later(path, target.text.as_deref()?)
        .iter()
        .find_map(|(written, script)| {
            let mut walker = walk::Walker::new(protected, cwd, script, host_variables(protected));
            let why = walker.source_if_shell(script).err()?;
            Some(format!("{written} `{path}` would, when run: {why}"))
        })
}

/// Words in a tool's name that say it changes files.
const CHANGING_TOOL_WORDS: &[&str] = &[
    "write", "edit", "create", "delete", "remove", "move", "rename", "copy", "patch", "put",
    "upload", "append", "mkdir", "save", "update", "set", "replace", "insert", "truncate", "chmod",
];

/// A tool the declaration does not know (an MCP server's `write_file`,
/// say): when its name says it changes files, every path among its input's
/// strings counts as written.
pub fn other_tool_refusal(
    protected: &Protected,
    cwd: &Cwd<'_>,
    tool_name: &str,
    tool_input: &str,
) -> Option<String> {
    let name = tool_name.to_ascii_lowercase();
    if !CHANGING_TOOL_WORDS.iter().any(|word| name.contains(word)) {
        return None;
    }
    let mut paths: Vec<String> = tool_inputs::input_strings(tool_input)?
        .into_iter()
        .filter_map(|text| {
            let path = text.strip_prefix("file://").unwrap_or(&text);
            (path.starts_with(['/', '~']) && !path.contains('\n')).then(|| path.to_owned())
        })
        .collect();
    // Relative paths under the keys that name files (Serena's
    // `relative_path`), and a folder and a file given apart.
    let value: serde_json::Value = serde_json::from_str(tool_input).ok()?;
    tool_inputs::named_paths(&value, &mut paths);
    let walker = walk::Walker::new(protected, cwd, "", Vec::new());
    paths
        .iter()
        .find_map(|path| walker.changes(path, Change::Write, "may change").err())
}

/// A tool the declaration does not know whose name says it runs what it is
/// given (an MCP server's `run_command`, `execute_code`, `run_cell`): each
/// string of its input is walked as shell (a command the gate models
/// counts, prose passes), with the lines a notebook runs in the shell
/// (`!rm …`), and read as interpreter code; a list of words is walked as a
/// command line (`{"command": ["rm", "-rf", "~/.tama"]}`).
pub fn running_tool_refusal(
    protected: &Protected,
    cwd: &Cwd<'_>,
    tool_name: &str,
    tool_input: &str,
) -> Option<String> {
    if !tool_inputs::runs_what_it_is_given(tool_name) {
        return None;
    }
    let value: serde_json::Value = serde_json::from_str(tool_input).ok()?;
    let mut texts = Vec::new();
    tool_inputs::strings(&value, &mut texts);
    tool_inputs::command_lines(&value, &mut texts);
    let mut walker = walk::Walker::new(protected, cwd, tool_input, host_variables(protected));
    let refused = texts.iter().find_map(|text| {
        core::iter::once(text.as_str())
            .chain(tool_inputs::notebook_shell_lines(text))
            .find_map(|shell| walker.probe_text(shell).err())
            .or_else(|| interpreters::check(&walker, text).err())
    })?;
    Some(format!("`{tool_name}` runs what it is given: {refused}"))
}

/// Why a tool input naming the control key anywhere is refused, if it does.
pub fn key_refusal(protected: &Protected, cwd: &Cwd<'_>, tool_input: &str) -> Option<String> {
    if !protected::spells_key(tool_input) && !tool_input.contains('*') {
        return None;
    }
    let walker = walk::Walker::new(protected, cwd, "", Vec::new());
    tool_inputs::input_strings(tool_input)?
        .iter()
        .filter(|text| !text.contains(' ') && !text.contains('\n'))
        .map(|text| {
            text.strip_prefix("file://")
                .map_or_else(|| text.clone(), str::to_owned)
        })
        .find_map(|text| walker.check_key(core::slice::from_ref(&text)).err())
}

/// Why a search tool (Claude Code's `Grep`, oh-my-pi's `grep` and
/// `ast_grep`) run over a folder that holds the control key is refused:
/// what it prints, matching lines or the names of the files a pattern
/// matches, reads the key's text.
pub fn search_refusal(
    protected: &Protected,
    cwd: &Cwd<'_>,
    tool_name: &str,
    tool_input: &str,
) -> Option<String> {
    if !tool_name.to_ascii_lowercase().contains("grep") {
        return None;
    }
    let value: serde_json::Value = serde_json::from_str(tool_input).ok()?;
    let folder = ["path", "cwd", "directory", "dir"]
        .iter()
        .find_map(|key| value.get(key)?.as_str())
        .unwrap_or(".");
    let walker = walk::Walker::new(protected, cwd, "", Vec::new());
    key_reads::refuse_if_key_under(&walker, "reads", tool_name, &[folder.to_owned()]).err()
}

/// The variables a shell started by the harness would hold for Tama's paths,
/// and a `SHELL` that names a shell.
fn host_variables(protected: &Protected) -> Vec<(String, String)> {
    let mut variables = vec![
        ("HOME".to_owned(), protected.home.clone()),
        ("TAMA_HOME".to_owned(), protected.tama_home.clone()),
        // Whatever the user's shell is, `$SHELL` runs a shell (`exec $SHELL -l`).
        ("SHELL".to_owned(), "/bin/sh".to_owned()),
    ];
    variables.retain(|(_, value)| !value.is_empty());
    variables
}

/// The one field of the payload the gate reads; the others are skipped
/// unread, never built.
#[derive(serde::Deserialize)]
struct PayloadCwd<'a> {
    #[serde(borrow, default)]
    cwd: Option<Cow<'a, str>>,
}

/// The working folder the payload names, or unknown (also when the payload
/// names it twice).
pub fn payload_cwd(payload: &str) -> String {
    let cwd = serde_json::from_str::<PayloadCwd<'_>>(payload)
        .ok()
        .and_then(|payload| payload.cwd);
    match cwd {
        Some(cwd) if cwd.starts_with('/') => paths::normalize(&cwd),
        _ => UNKNOWN_TEXT.to_owned(),
    }
}

/// Checks the gate's configuration: it takes none.
pub fn check_config(config: &str) -> Result<(), String> {
    match config.trim() {
        "" | "null" | "{}" => Ok(()),
        _ => match serde_json::from_str::<serde_json::Value>(config) {
            Ok(serde_json::Value::Object(map)) if map.is_empty() => Ok(()),
            _ => Err("protect-tama takes no configuration; give `{}` or nothing".to_owned()),
        },
    }
}

#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
struct Gate;

impl Guest for Gate {
    fn validate_config(config: String) -> Result<(), String> {
        check_config(&config)
    }

    fn evaluate(event: Event, config: String) -> Result<Verdict, GateError> {
        check_config(&config).map_err(GateError::InvalidConfig)?;
        let (Some(tool_name), Some(tool_input)) = (event.tool_name, event.tool_input) else {
            return Ok(Verdict::Pass);
        };
        let protected = instance::protected(host_protected);
        let cwd = Cwd::of_payload(&event.payload);
        let call = classify(&tool_name, &tool_input).map_err(GateError::InvalidInput)?;
        let refusal = match call.kind {
            ToolKind::Shell => {
                let command = call.command.ok_or_else(|| {
                    GateError::InvalidInput(format!(
                        "the shell tool call `{tool_name}` has no command"
                    ))
                })?;
                shell_refusal_on_disk(&protected, &cwd, &command, tama::gate::files::read)
            }
            ToolKind::Write => write_refusal(&protected, &cwd, &call.targets, &tool_input),
            ToolKind::Other => other_tool_refusal(&protected, &cwd, &tool_name, &tool_input)
                .or_else(|| running_tool_refusal(&protected, &cwd, &tool_name, &tool_input)),
            ToolKind::Lookup => None,
        };
        let refusal = refusal
            .or_else(|| key_refusal(&protected, &cwd, &tool_input))
            .or_else(|| search_refusal(&protected, &cwd, &tool_name, &tool_input));
        Ok(refusal.map_or(Verdict::Pass, Verdict::Refuse))
    }
}

/// The protected paths of the paths the host hands the gate.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
fn host_protected() -> Protected {
    let host = tama::gate::host_paths::get();
    Protected::new(&HostPaths {
        home: host.home,
        tama_home: host.tama_home,
        registry: host.registry,
        registry_components: host.registry_components,
        cache_dir: host.cache_dir,
        tama_binary: host.tama_binary,
        oko_home: host.oko_home,
    })
    .following_links(tama::gate::files::follow)
}

/// The protected paths, built on the instance's first evaluation: the host
/// hands one instance the same paths on every call (`wit/gate.wit`), and may
/// keep an instance of a built-in gate for later events.
#[cfg(target_arch = "wasm32")]
mod instance {
    use alloc::rc::Rc;
    use core::cell::UnsafeCell;

    use crate::Protected;

    struct Built(UnsafeCell<Option<Rc<Protected>>>);

    // SAFETY: a component instance runs on one thread.
    unsafe impl Sync for Built {}

    static BUILT: Built = Built(UnsafeCell::new(None));

    pub fn protected(build: fn() -> Protected) -> Rc<Protected> {
        // SAFETY: one thread, and the reference ends with this call; `build`
        // asks the host for its paths, which cannot reach `BUILT` again.
        let built = unsafe { &mut *BUILT.0.get() };
        built.get_or_insert_with(|| Rc::new(build())).clone()
    }
}

/// A native build (the tests') has no instance to keep anything in, and
/// no export that calls this.
#[cfg(not(target_arch = "wasm32"))]
mod instance {
    use alloc::rc::Rc;

    use crate::Protected;

    #[allow(dead_code)]
    pub fn protected(build: fn() -> Protected) -> Rc<Protected> {
        Rc::new(build())
    }
}

// Exported only in the component: a native build (for the tests) has
// no component-model symbol names to export.
#[cfg(target_arch = "wasm32")]
export!(Gate);

/// A panic's message goes to Tama's log (see `wasm_runtime`).
#[cfg(target_arch = "wasm32")]
fn on_panic(message: &str) {
    tama::gate::log::log(tama::gate::log::Level::Error, message);
}
