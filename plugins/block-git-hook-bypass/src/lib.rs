//! Tama's `block-git-hook-bypass` gate: refuses a shell tool call that would
//! let git commit, push, merge, rebase or am run without the repository's
//! client-side hooks, a write tool call that disarms a hook file or points
//! git's configuration away from the hooks (`writes`), and another tool
//! that runs git (an MCP server's `git_commit`) asked to skip the hooks
//! (`git_tools`), and names the bypass in the refusal.
//!
//! The analysis is plain Rust ([`refusal_reason`]); this file only binds it
//! to the gate world of `wit/gate.wit`. The command is read as a shell reads
//! it (`shell`), walked in the order it would run with the state later
//! commands depend on (`analysis`), and git's own command lines are read as
//! git's option parser reads them (`git`).
//!
//! Where the rules take a position:
//!
//! - Options follow git 2.47: unique prefixes, `--no-`/`--no-no-` forms, the
//!   last of `--no-verify`/`--verify` wins, and option values are not options.
//!   A spelling git rejects (`git commit --no-ver`, ambiguous) passes, since
//!   nothing runs. `cherry-pick` and `revert` reject `--no-verify` but are
//!   refused with it as an attempt; so is an alias or add-on (`git ci`,
//!   `git cz`) given `--no-verify`. `git commit --no-post-rewrite` is refused.
//!   So is a word where git reads options that the shell may expand to
//!   one: a file name pattern (`git commit *` matches a file named
//!   `--no-verify`), or a value the command computes and the gate cannot
//!   know (`$(git config --get x)`, `read`, `xargs`). After `--` nothing is
//!   an option. A variable the command never set expands as the harness's
//!   environment gives it, which the agent does not choose, and passes; the
//!   branch names git prints (`git branch --show-current`, `git rev-parse
//!   --abbrev-ref HEAD`) read as `HEAD`.
//! - Setting core.hooksPath to any value is refused (`-c`, `--config-env`,
//!   `git config`, `GIT_CONFIG_KEY_<n>`, `GIT_CONFIG_PARAMETERS`, writing it
//!   into a config file, `sed -i` or an interpreter editing one with it);
//!   so is removing it (`--unset`, `unset`, the `core` section removed):
//!   hooks installed where it points (husky's `.husky/_`) would then be
//!   skipped for an empty `.git/hooks`. Reading it passes. Setting `include.path` or
//!   `includeIf.*.path` is refused too: the file it names, which the gate
//!   cannot see, may set core.hooksPath. A core.hooksPath written into any
//!   file is refused, since a later call can have git read that file, and
//!   so are the aliases and command settings a text in git's configuration
//!   syntax holds, read as git reads them (`shell_reader::git_config`: a variable on
//!   its section's line, values continued over lines, quotes, comments).
//!   What a shell start-up file sets is read as later shells' git commands
//!   would see it (`export HUSKY=0` in `~/.bashrc`).
//! - Git's configuration files (a repository's `config` and
//!   `config.worktree`, `~/.gitconfig`, `~/.config/git/config`,
//!   `/etc/gitconfig`) deleted, moved away, replaced, emptied or edited by
//!   anything but `git config` are refused: the gate cannot see the file,
//!   and the change may drop core.hooksPath without naming it (`[core]`
//!   renamed, its value edited). Appending to one and copying one elsewhere
//!   pass. So is a hook-running git command told to read another user or
//!   system configuration (`HOME=…`, `XDG_CONFIG_HOME`, `GIT_CONFIG_GLOBAL`,
//!   `GIT_CONFIG_SYSTEM`, `GIT_CONFIG_NOSYSTEM`, `env -i`, `env -u HOME`),
//!   which drops a core.hooksPath set there, or pointed at another
//!   repository folder than `.git` (`GIT_COMMON_DIR`, `GIT_DIR`,
//!   `--git-dir`), where git looks for the hooks: one sharing the
//!   repository's objects and refs commits to it past them. Any git
//!   command reads the aliases and command settings of the configuration
//!   the environment gives it: `GIT_CONFIG_KEY_<n>`/`GIT_CONFIG_VALUE_<n>`,
//!   `GIT_CONFIG_PARAMETERS`, and the file `GIT_CONFIG_GLOBAL`,
//!   `GIT_CONFIG_SYSTEM`, `HOME` or `XDG_CONFIG_HOME` names, as it lies on
//!   disk (`GIT_CONFIG_GLOBAL=notes.cfg git ci`). A subcommand that is no
//!   git command runs the alias the repository's or the user's
//!   configuration on disk defines, read as where it is defined.
//! - A command git runs from a setting or variable (`-c core.pager=…`,
//!   `GIT_EDITOR=…`), or another program from a variable wherever it is set
//!   (`PAGER`, `EDITOR`, `CC`, `LESSOPEN`, `RUSTC_WRAPPER`:
//!   `shell_reader::runners::command_in_variable`), a script of the
//!   `package.json` on disk with the words a package manager puts after it
//!   (`npm run commit -- -n`, `yarn commit -n`; the script as it stands is
//!   the repository's own and passes), with the `exec` lines an editor of it may write into
//!   a rebase's todo list (`GIT_SEQUENCE_EDITOR="sed -i '1i exec …'"`),
//!   a `trap` action, a process substitution sourced or
//!   run (`source <(…)`), and text decoded or reversed into a shell
//!   (`base64 -d`, `xxd -r -p`, `rev`, `tr`) are read as the commands they
//!   run; so is what other programs hand a shell (`shell_reader::runners`):
//!   `tmux`, `at`, `crontab`, `make`, `watch`, a terminal's `-e`, `su -c`,
//!   `npx -c`, `man -P`, `tar --to-command`, `rsync -e`, `ssh -o
//!   ProxyCommand`, `socat`, `nc -e`, and the shell escapes of vim and ex
//!   (`:!`, `:r !`, `system()`), `ed`, `sed` (`e`, `s///e`), `dc`, `m4`,
//!   Emacs Lisp and Tcl.
//! - Code for python, node, perl, ruby, php, awk, lua, R, julia or
//!   AppleScript (given in an option, in a script this command wrote, or on
//!   standard input) that calls out to programs has each of its strings,
//!   joined, decoded (escapes, base64, hex) and filled in from plain
//!   assignments, and each run of strings an `exec` takes as arguments, read
//!   as a command, with the hook switches the code sets in its environment
//!   set first, and, when the code reads its environment, the values the
//!   command put there after it. Strings that are code themselves
//!   (`exec("…")`) are read again. What such code prints is taken as each
//!   string it spells (`python3 -c 'print("…")' | sh`, `git commit
//!   $(node -p '…')`).
//! - A child shell (`bash -c`, `$(…)`, `( … )`, a pipeline's commands but
//!   the last) keeps its `cd` and its assignments to itself.
//! - A hook manager's switch (`HUSKY=0`, `SKIP=…`, `LEFTHOOK=0`, …) counts
//!   when a git command that runs hooks runs with it in the same command
//!   text, set before it by prefix, `export`, `env`, `sudo` or plain
//!   assignment (which changes a variable the environment may export).
//!   `HUSKY=0 npm ci` passes.
//! - A shell script (told by its name or its `#!` line, or a file with no
//!   extension whose text reads as shell), a makefile, or a
//!   script in another language (`tool.py`, `ship.mjs`, `#!/usr/bin/env
//!   ruby`, read as its interpreter's code is) that a command or a write
//!   tool writes is read as what it runs later: one
//!   that skips hooks is refused as it is written, since the call that runs
//!   it cannot see its content. A script the command runs but did not
//!   write is read as it lies on disk (a shell script, or an interpreter's
//!   code but for an installed package's under `node_modules` or
//!   `site-packages`).
//! - The `.git` folder deleted, moved away or replaced (`rm -rf .git`,
//!   `rm -rf .[!.]*`, `cp -r ../other/.git .`) takes the hooks and
//!   core.hooksPath with it, and is refused as deleting hooks is; so is
//!   `git clean -fdx` (or `-idx`, whose menu cleans what is typed) over the
//!   whole tree, which removes husky's ignored
//!   `.husky/_` (`-e .husky` keeps it), and `git stash --all`, where husky's
//!   files are there (or the gate cannot look: git run in another folder).
//! - A no-op put in place of a program in a project's tool folder, where
//!   the programs hooks run live (`node_modules/.bin/lint-staged`,
//!   `vendor/bin`, `.venv/bin`), is refused: the hook then checks nothing.
//! - Hook files deleted (found by `find` or `ls` and handed on too, or
//!   archived away by `tar --remove-files` or `zip -m`; `find`'s name, path
//!   and regex tests are read for what they select, the git folder pruned
//!   or negated left out, `-name '*.sample'` selecting no hook), moved away,
//!   given a second name by a link (`ln -s .git/hooks h`, a hard link),
//!   overwritten with a program's output the gate cannot read or a listing
//!   (`ls /nonexistent > …`, which prints nothing; a download still
//!   installs one), compressed away (`gzip`, `xz`, `zstd --rm`), deleted or
//!   moved by `rsync` (`--delete` into the hooks folder or the working one,
//!   `--remove-source-files`), patched (`patch -d .git/hooks`, `patch
//!   HOOK`, `git apply --directory`), copied over by a folder of no-ops, emptied,
//!   covered by a mount, replaced by a no-op (one that exits with success
//!   before a command of its own), made non-executable (`chmod
//!   --reference` too, `chmod -R 644` of a folder that may hold the
//!   repository, `setfacl`, `rsync --chmod`, or put in place under a `umask` without the
//!   execute bit) or edited in place (`sed -i`, an editor given
//!   commands) are refused, as is an `exit 0` or a hook manager's switch
//!   written into the file husky sources before every hook
//!   (`~/.config/husky/init.sh`, husky 8's `~/.huskyrc`), or a hook
//!   manager's configuration written to switch its hooks off (lefthook's
//!   `skip:`, pre-commit's `stages: [manual]`, overcommit's `enabled:
//!   false`, anything in lefthook's local override `lefthook-local.yml`, an
//!   `.npmrc` whose `script-shell` is no shell), by interpreter code too when it changes files
//!   and names a hook in its strings or its arguments (unless it writes one with a `#!` line and commands),
//!   as are hook managers' uninstall commands, `install -m 644` or `cp
//!   --remove-destination` onto a hook, another commit's hooks restored
//!   over them (`git restore --source=…`, `git checkout <commit> -- .husky`)
//!   and changes to them hidden (`git update-index --assume-unchanged`,
//!   `--skip-worktree`); installing or restoring
//!   hooks, samples and backups pass.
//! - Where husky's hooks are installed, git pointed at another working tree
//!   (`--work-tree`, `GIT_WORK_TREE`, `git config core.worktree`) and a
//!   sparse checkout (`git sparse-checkout set`) are refused: core.hooksPath,
//!   `.husky/_`, is read relative to the working tree.
//! - What a hook runs, changed by the command for a git command that runs
//!   hooks (`hook_env::changes_hook_programs`): `PATH` set (a folder put on
//!   it may hold a no-op `npx` or `lint-staged`), `SHELLOPTS` and
//!   `BASHOPTS` (`noexec`), `BASH_ENV` (but a file the
//!   command wrote that can neither end a hook nor stand in for what it
//!   runs), `LD_PRELOAD` and the loader's other variables, a function
//!   exported to bash (`export -f`, `declare -fx`), node's loading options,
//!   the interpreters' module paths (`PYTHONPATH`), lefthook's
//!   `LEFTHOOK_BIN`. A start-up file's `PATH` passes: every later shell
//!   runs with it.
//! - A program that commits by itself with the hooks skipped is refused
//!   when started so (`analysis::committers`): aider without
//!   `--git-commit-verify`, which it needs to run them; the release tools
//!   asked to skip them (`npm version --no-commit-hooks`, `lerna version
//!   --no-commit-hooks`, `standard-version -n`, release-it's and
//!   bump-my-version's git arguments holding `--no-verify`, commitizen and
//!   Graphite handed `--no-verify`), and their configuration turning them
//!   off (`commit-hooks=false` in an `.npmrc`, `npm config set`, lerna's
//!   `"commitHooks": false`, python-semantic-release's `no_git_verify`).
//! - `git commit-tree`, `git hash-object -t commit -w`, `git replace` that
//!   writes an object, `git fast-import`
//!   and `git quiltimport` are refused on their own: they write commits
//!   without hooks, and the ref update that publishes them
//!   may come in a later call; so are `git send-pack` and `git http-push`,
//!   which push without the pre-push hook, as is a fetch run in another
//!   repository that takes a branch from a folder here (`git -C
//!   ../remote.git fetch "$PWD" main:main`), and a clone of this repository
//!   (`git clone . DIR`, `git clone "$(pwd)" DIR`), which gets none of its
//!   hooks, and a branch or tag set by writing git's files (`…/refs/heads/…`,
//!   `packed-refs`) or by `git update-ref` in another repository. History rewritten with changed
//!   files or messages is refused for the same reason: `git filter-branch`
//!   with a tree, index, message, commit or parent filter, `git
//!   filter-repo` with a content callback or text replacement.
//! - A commit `git stash` wrote (without hooks) put on a branch or ref is
//!   refused: `git cherry-pick -m 1 stash@{0}`, `git merge stash`, `git
//!   reset --hard stash@{0}`, `git checkout -B main stash@{0}`, a tag or
//!   branch made at it, `git stash create`'s commit by substitution,
//!   variable or `xargs`. Applying, reading, restoring files from and
//!   dropping a stash pass.
//! - A value the gate cannot know (an unset variable, the output of a command
//!   it does not model) is not guessed at: where git reads options, one the
//!   command computes is refused and an unset variable passes (see above),
//!   while an unknown command name followed by a hook-running git subcommand is read
//!   as git. A command holding such values is read a second time with them
//!   empty, as an unset variable expands: `--no-verify$x` is refused.
//! - A variable is followed through `${!name}` and through names declared
//!   with `declare -n`, `typeset -n` or `local -n`. The substitutions a
//!   variable's value holds are walked, as bash runs them where it evaluates
//!   the text again (`x='a[$(…)]'; (( x ))`, `${x@P}`, `PS4`), and those in
//!   what `printf -v`, `read`, `declare`, `let` and `test` evaluate; so is
//!   `mapfile -C`'s callback. `cd` follows `CDPATH`, and in a folder it
//!   cannot know takes a hook's name for a hook.
//! - Unquoted expansions split on IFS: blank, tab and newline, which shells
//!   set at start-up, or what the command assigns it.
//! - Text that never runs passes: messages, `echo` arguments, comments,
//!   here-documents written to files, unless the file is run later in the
//!   same command or is a shell startup file.
//! - A command that is not valid shell, or that nests or multiplies beyond
//!   the gate's limits, is refused as unreadable.

#![cfg_attr(target_arch = "wasm32", no_std)]

extern crate alloc;

mod analysis;
mod finding;
mod git;
mod git_tools;
mod hook_env;
mod prelude;
#[cfg(target_arch = "wasm32")]
mod wasm_runtime;
mod writes;

// The shell reader is shared with the other gates that read commands.
use shell_reader::{braces, field, output, shell, values};

wit_bindgen::generate!({ path: "../../wit", world: "gate" });

pub use analysis::{find_bypass, find_bypass_on_disk};
pub use finding::Finding;
pub use git_tools::git_tool_bypass;
pub use tama::gate::declaration::WriteTarget;
pub use writes::write_bypass;

use core::fmt::Write as _;

use prelude::*;
use tama::gate::declaration::{ToolKind, classify};

/// Why `command` is refused, or `None` when it leaves the hooks alone.
pub fn refusal_reason(command: &str) -> Option<String> {
    find_bypass(command).map(reason)
}

/// The refusal that tells `finding`.
fn reason(finding: Finding) -> String {
    // Room for a usual reason up front (a longer one still grows): grown
    // from empty, the text was copied again at each doubling.
    let mut reason = String::with_capacity(512);
    let _ = write!(reason, "{finding}");
    reason
}

/// Checks the gate's configuration, JSON text: the gate takes none, so only
/// nothing, `null` and `{}` are accepted.
pub fn check_config(config: &str) -> Result<(), String> {
    let config = config.trim();
    // The spellings a registry gives (`{}`, or none), accepted without a
    // parse, which every evaluation would pay.
    if matches!(config, "" | "null" | "{}") {
        return Ok(());
    }
    match serde_json::from_str::<serde_json::Value>(config) {
        Ok(serde_json::Value::Null) => Ok(()),
        Ok(serde_json::Value::Object(map)) if map.is_empty() => Ok(()),
        Ok(serde_json::Value::Object(map)) => {
            let keys: Vec<String> = map.keys().map(|key| format!("`{key}`")).collect();
            Err(format!(
                "block-git-hook-bypass takes no configuration; remove {}",
                keys.join(", ")
            ))
        }
        Ok(_) => {
            Err("block-git-hook-bypass takes no configuration; give `{}` or nothing".to_owned())
        }
        Err(error) => Err(format!(
            "block-git-hook-bypass: the configuration is not JSON: {error}"
        )),
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
        let call = classify(&tool_name, &tool_input).map_err(GateError::InvalidInput)?;
        if matches!(call.kind, ToolKind::Write) {
            let finding = writes::write_bypass(&call.name, &call.targets, &tool_input);
            return Ok(finding.map_or(Verdict::Pass, |finding| {
                Verdict::Refuse(finding.to_string())
            }));
        }
        if !matches!(call.kind, ToolKind::Shell) {
            let finding = git_tool_bypass(&tool_name, &tool_input);
            return Ok(finding.map_or(Verdict::Pass, Verdict::Refuse));
        }
        let command = call.command.ok_or_else(|| {
            GateError::InvalidInput(format!("the shell tool call `{tool_name}` has no command"))
        })?;
        // Scripts the command runs are read from disk, relative ones under
        // the folder the payload names.
        let start = || shell_reader::disk::payload_cwd(&event.payload);
        let finding = analysis::find_bypass_on_disk(&command, start, tama::gate::files::read);
        Ok(finding.map(reason).map_or(Verdict::Pass, Verdict::Refuse))
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
