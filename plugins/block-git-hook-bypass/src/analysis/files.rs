//! Hook files: where they live, and the commands that delete, move, empty or
//! disarm them.

use crate::prelude::*;

use crate::field::{Field, UNKNOWN};
use shell_reader::runners;

/// Client-side hooks git runs, by file name.
pub const HOOK_NAMES: &[&str] = &[
    "pre-commit",
    "prepare-commit-msg",
    "commit-msg",
    "post-commit",
    "pre-merge-commit",
    "pre-push",
    "pre-rebase",
    "post-rewrite",
    "applypatch-msg",
    "pre-applypatch",
    "post-applypatch",
    "post-checkout",
    "post-merge",
    "pre-auto-gc",
    "reference-transaction",
    "push-to-checkout",
    "sendemail-validate",
];

/// Directories that only hold hooks.
const HOOK_DIRS: &[&str] = &[".husky", ".githooks", "githooks", ".git-hooks", "git-hooks"];

/// Sources that turn a hook into a no-op when copied or linked over it.
const NO_OPS: &[&str] = &["/dev/null", "/bin/true", "/usr/bin/true", "true"];

/// The folder a command changed into, as far as hook paths go: a relative
/// path there means what it would under `.git/hooks` or `.git`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Within {
    Elsewhere,
    HooksDir,
    GitDir,
}

/// Whether `path` is a hooks directory or an active hook in one:
/// `.git/hooks`, `.git/hooks/pre-commit`, `.husky/pre-commit`, `.husky/_`,
/// `$GIT_DIR/hooks`, a glob over hooks, or a hook name in a `hooks`
/// directory. Backups and samples (`pre-commit.bak`, `*.sample`) are not
/// active hooks. Case is not told apart: the file systems macOS and
/// Windows use by default take `.GIT/HOOKS` for `.git/hooks`.
pub fn is_hook_path(path: &str, within: Within) -> bool {
    if path.bytes().any(|b| b.is_ascii_uppercase()) {
        return is_hook_path(&path.to_ascii_lowercase(), within);
    }
    let relative = !path.starts_with('/') && !path.starts_with("..") && !path.starts_with('~');
    let first = path
        .split('/')
        .find(|part| !part.is_empty() && *part != ".");
    if within == Within::GitDir && relative && first == Some("hooks") {
        return is_hook_path(&format!(".git/{path}"), Within::Elsewhere);
    }
    let in_hooks_dir = within == Within::HooksDir;
    let path = path.trim_end_matches('/');
    if path.is_empty() || path.ends_with(".sample") {
        return false;
    }
    let mut parent = "";
    let mut last = "";
    let mut after_git_dir = false;
    let mut inside_hooks_dir: Option<usize> = None;
    let mut husky_internals = false;
    // A folder the gate cannot know may be a hooks folder, when a hook's
    // name follows it (what `find . -name pre-commit` prints).
    let mut unknown_folder = false;
    for component in path
        .split('/')
        .filter(|part| !part.is_empty() && *part != ".")
    {
        if let Some(depth) = inside_hooks_dir.as_mut() {
            *depth += 1;
            husky_internals |= component == "_";
        } else if HOOK_DIRS
            .iter()
            .any(|dir| component == *dir || (dir.starts_with('.') && may_be(component, dir)))
            || (may_be(component, "hooks")
                && (after_git_dir || last == "git" || last.contains(UNKNOWN)))
        {
            inside_hooks_dir = Some(0);
        }
        after_git_dir |= may_be(component, ".git") || component.ends_with(".git");
        unknown_folder |= last.contains(UNKNOWN);
        parent = last;
        last = component;
    }
    match inside_hooks_dir {
        Some(0) => true,
        Some(_) => husky_internals || is_active_hook_name(last),
        None => {
            (in_hooks_dir && relative && is_active_hook_name(last))
                || ((parent == "hooks" || unknown_folder) && HOOK_NAMES.contains(&last))
        }
    }
}

/// The effect of a no-op put in place of a program in a project's tool
/// folder ([`is_hook_tool`]).
pub const TOOL_SWAPPED: &str = "swaps a no-op in for a program run by";

/// Whether `path` names a program in a project's tool folder, where the
/// programs hooks run live (`node_modules/.bin/lint-staged`,
/// `vendor/bin/phpcs`, `.venv/bin/ruff`): one swapped for a no-op has
/// the hooks check nothing.
pub fn is_hook_tool(path: &str) -> bool {
    let mut parts = path.trim_end_matches('/').rsplit('/');
    let (Some(program), Some(folder), Some(project)) = (parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    !program.is_empty()
        && matches!(
            (project, folder),
            ("node_modules", ".bin") | ("vendor", "bin") | (".venv" | "venv", "bin")
        )
}

/// Whether `path` names a repository's `.git` folder or a folder that
/// holds only hooks, or is a pattern that may match one (`.g*`, `.[!.]*`):
/// deleting or moving it takes the hooks, and the configuration that points
/// git at others, with it. Case is not told apart, as in [`is_hook_path`].
pub fn holds_hooks(path: &str) -> bool {
    if path.bytes().any(|b| b.is_ascii_uppercase()) {
        return holds_hooks(&path.to_ascii_lowercase());
    }
    let name = path
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or_default();
    if !name.contains(['*', '?', '[']) {
        return name == ".git" || HOOK_DIRS.contains(&name);
    }
    // Only a pattern that spells the leading dot matches a dot-folder.
    if !name.starts_with('.') {
        return false;
    }
    // A bracket expression matches one character: read as `?`, it matches
    // at least what the shell would.
    let mut pattern = String::new();
    let mut in_brackets = false;
    for c in name.chars() {
        match c {
            '[' if !in_brackets => {
                in_brackets = true;
                pattern.push('?');
            }
            ']' if in_brackets => in_brackets = false,
            _ if in_brackets => {}
            c => pattern.push(c),
        }
    }
    core::iter::once(".git")
        .chain(HOOK_DIRS.iter().copied().filter(|dir| dir.starts_with('.')))
        .any(|dir| shell_reader::values::glob_matches(pattern.as_bytes(), dir.as_bytes()))
}

/// A hook's file name, or a pattern that may match one.
/// Whether a path component is `name`, or a pattern the shell may match
/// to it (`hook[s]`, `.g*`): only one that spells a leading dot matches a
/// name with one, as the shell's patterns do.
fn may_be(component: &str, name: &str) -> bool {
    component == name
        || (component.contains(['*', '?', '['])
            && component.starts_with('.') == name.starts_with('.')
            && shell_reader::values::glob_matches(component.as_bytes(), name.as_bytes()))
}

fn is_active_hook_name(name: &str) -> bool {
    HOOK_NAMES.contains(&name) || name.contains(['*', '?', '[', UNKNOWN])
}

/// Whether a hook with this content does nothing: before any command of
/// its own it exits with success (`exit`, `exit 0`, `exec true`), or it
/// holds only a shebang, comments, `true` and `:`.
pub fn is_neutered(content: &str) -> bool {
    for statement in statements(content) {
        match statement.as_slice() {
            [] | ["true"] | [":"] => {}
            words if exits_with_success(words) => return true,
            _ => return false,
        }
    }
    true
}

/// Whether a file sourced before every hook (husky's `init.sh`) ends the
/// hook from anywhere in it, under a condition too: `exit 0` there exits
/// the hook, whose own commands never run.
pub fn ends_hooks(content: &str) -> bool {
    statements(content).any(|words| exits_with_success(&words))
}

fn exits_with_success(words: &[&str]) -> bool {
    matches!(
        words,
        ["exit"] | ["exit", "0"] | ["exec", "true" | ":" | "/bin/true" | "/usr/bin/true"]
    )
}

/// The simple statements of a shell text, as words, comments dropped:
/// split at line ends, `;`, `&&`, `||`, `|`, `&`, parentheses and braces,
/// with `then`, `do`, `else` and `!` before a statement dropped. A reading
/// of words, not of quotes: enough to find an `exit` that stands alone.
fn statements(content: &str) -> impl Iterator<Item = Vec<&str>> {
    content
        .lines()
        .map(|line| match line.find(" #").or_else(|| line.find("\t#")) {
            _ if line.trim_start().starts_with('#') => "",
            Some(at) => line.get(..at).unwrap_or(line),
            None => line,
        })
        .flat_map(|line| line.split([';', '&', '|', '(', ')', '{', '}']))
        .map(|statement| {
            let mut words: Vec<&str> = statement.split_whitespace().collect();
            while words
                .first()
                .is_some_and(|word| matches!(*word, "then" | "do" | "else" | "!"))
            {
                words.remove(0);
            }
            words
        })
}

/// Whether `path` is a file where git keeps a branch or tag, in any
/// repository: `…/refs/heads/…`, `…/refs/tags/…`, `packed-refs`, or a
/// repository's whole `refs` folder (`.git/refs`, `remote.git/refs`).
pub fn is_branch_file(path: &str) -> bool {
    let parts: Vec<&str> = path
        .split('/')
        .filter(|part| !part.is_empty() && *part != ".")
        .collect();
    let named = parts
        .windows(2)
        .any(|pair| pair[0] == "refs" && matches!(pair[1], "heads" | "tags"));
    let refs_folder =
        matches!(parts.as_slice(), [.., repository, "refs"] if repository.ends_with(".git"));
    named || refs_folder || parts.contains(&"packed-refs")
}

/// Whether copying `sources` to `target` writes a branch or tag file:
/// `target` is one, or a source lands as one in it by its own name
/// (`cp -r .git/refs ../remote.git/`).
pub fn copy_writes_branches<'s>(target: &str, mut sources: impl Iterator<Item = &'s str>) -> bool {
    let into_target = |source: &str| {
        let name = source.trim_end_matches('/').rsplit('/').next();
        format!(
            "{}/{}",
            target.trim_end_matches('/'),
            name.unwrap_or_default()
        )
    };
    is_branch_file(target) || sources.any(|source| is_branch_file(&into_target(source)))
}

/// Whether `rsync` writes a branch or tag file (see [`copy_writes_branches`]).
pub fn rsync_writes_branches(args: &[Field<'_>]) -> bool {
    let paths: Vec<&Field<'_>> = operands(args, RSYNC_OPTIONS_WITH_VALUE).collect();
    paths.split_last().is_some_and(|(destination, sources)| {
        copy_writes_branches(
            &destination.text,
            sources.iter().map(|source| &*source.text),
        )
    })
}

/// Whether `path` names a hook manager's configuration: lefthook's,
/// pre-commit's, overcommit's.
pub fn is_hook_configuration(path: &str) -> bool {
    let name = path
        .rsplit('/')
        .next()
        .unwrap_or(path)
        .trim_start_matches('.');
    ["lefthook", "pre-commit-config", "overcommit"]
        .iter()
        .any(|manager| name.starts_with(manager))
}

/// Whether `content`, written to `path`, is a hook manager's configuration
/// that switches its hooks off: lefthook's `skip:` (in `lefthook.yml` or
/// the local override `lefthook-local.yml`, made for it), pre-commit's
/// `stages: [manual]`, `repos: []` and `exclude`/`files` patterns that leave
/// hooks no file, overcommit's `enabled: false`; or a
/// release tool's that commits with them off: npm's `commit-hooks=false`
/// (`.npmrc`, read by `npm version`) or a `script-shell` that is no shell
/// (every npm script a hook runs then does nothing), lerna's `"commitHooks": false`,
/// python-semantic-release's `no_git_verify = true`. Read
/// line by line as `key: value` (`key=value` for npm), which is how such
/// files spell these settings.
pub fn switches_hooks_off(path: &str, content: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let name = name.trim_start_matches('.');
    // JSON, perhaps on one line: `{"command": {"version": {"commitHooks": false}}}`.
    if name == "lerna.json" {
        return content.match_indices("\"commitHooks\"").any(|(at, key)| {
            content.get(at + key.len()..).is_some_and(|rest| {
                rest.trim_start()
                    .strip_prefix(':')
                    .is_some_and(|value| value.trim_start().starts_with("false"))
            })
        });
    }
    if name == "npmrc" {
        return content.lines().any(|line| {
            line.trim_start_matches('+')
                .split_once('=')
                .is_some_and(|(key, value)| {
                    let value = value.trim().trim_matches(['"', '\'']);
                    match key.trim() {
                        "commit-hooks" => crate::hook_env::is_off(value),
                        "script-shell" => !crate::hook_env::is_shell(value),
                        _ => false,
                    }
                })
        });
    }
    let configuration = [".yml", ".yaml", ".json", ".toml"]
        .iter()
        .any(|extension| name.ends_with(extension));
    if !configuration {
        return false;
    }
    // python-semantic-release commits its release with `--no-verify` when its
    // `no_git_verify` is on (`pyproject.toml`, `releaserc.toml`).
    let no_git_verify = content.lines().any(|line| {
        line.trim_start_matches('+')
            .split_once(['=', ':'])
            .is_some_and(|(key, value)| {
                key.trim().trim_matches(['"', '\'']) == "no_git_verify"
                    && value.trim().trim_end_matches(',').trim_matches(['"', '\'']) == "true"
            })
    });
    if no_git_verify {
        return true;
    }
    // lefthook's local override exists to replace or skip what its hooks run.
    if name.starts_with("lefthook-local") {
        return true;
    }
    let switch: fn(&str, &str) -> bool = if name.starts_with("lefthook") {
        |key, value| key == "skip" && !matches!(value, "false" | "[]")
    } else if name.starts_with("pre-commit-config") {
        |key, value| {
            matches!(key, "stages" | "default_stages") && value.contains("manual")
                || key == "repos" && value == "[]"
                // Patterns of the paths hooks run on: one that excludes
                // every path, or files that match none, leaves them nothing.
                || key == "exclude" && matches!(value, ".*" | "." | "^" | "^.*" | ".*$" | "^.*$" | ".+")
                || key == "files" && matches!(value, "^$" | "$^" | "(?!)" | "^(?!)")
        }
    } else if name.starts_with("overcommit") {
        |key, value| (key == "enabled" && value == "false") || key == "skip"
    } else {
        return false;
    };
    content.lines().any(|line| {
        // A patch's added lines start with `+`; a YAML list's items with `- `.
        let line = line
            .trim_start_matches('+')
            .trim_start()
            .trim_start_matches("- ");
        line.split_once(':').is_some_and(|(key, value)| {
            let value = value.trim().trim_matches(['"', '\'']);
            switch(key.trim().trim_matches(['"', '\'']), value)
        })
    })
}

/// What a file written with `content` runs later (`runners::run_later`),
/// and the content of a file with no extension that reads as shell: bash
/// runs such a file as a script (`./run`, `bash /tmp/x`), and the call
/// that runs it cannot see its content. A document (`notes.txt`) is text.
pub fn scripts_run_later(path: &str, content: &str) -> Vec<String> {
    let scripts = shell_reader::runners::run_later(path, content);
    let name = path.rsplit_once('/').map_or(path, |(_, name)| name);
    // git's own files (`.git/COMMIT_EDITMSG`) are read, not run; hooks are read elsewhere.
    let extensionless = !name.is_empty()
        && !name.contains('.')
        && !path.starts_with("/dev/")
        && !path.split('/').any(|folder| folder == ".git");
    if scripts.is_empty() && extensionless && shell_reader::shell::parse(content).is_ok() {
        return vec![content.to_owned()];
    }
    scripts
}

/// Files husky sources before every hook it runs (`~/.config/husky/init.sh`,
/// and `~/.huskyrc` for husky 8): what they set or do applies to every hook.
pub fn is_hook_startup_file(path: &str) -> bool {
    path.ends_with("husky/init.sh") || path.rsplit('/').next() == Some(".huskyrc")
}

/// For a file whose content later git commands run after (a shell's
/// start-up file, husky's `init.sh`), how a refusal names it.
pub fn runs_before_git(path: &str) -> Option<String> {
    if shell_reader::startup::is_startup_name(path) {
        Some(format!(
            "The shell start-up file `{path}`, which later shells run,"
        ))
    } else if is_hook_startup_file(path) {
        Some(format!(
            "The file `{path}`, which husky runs before every hook,"
        ))
    } else {
        None
    }
}

/// Whether `path` is a repository's git directory: `.git`, a bare `repo.git`.
pub fn is_git_dir(path: &str) -> bool {
    let path = path.trim_end_matches('/');
    path.rsplit('/')
        .next()
        .is_some_and(|name| name.ends_with(".git"))
}

/// A path without leading `./`, for matching files written earlier.
pub fn normalize(path: &str) -> &str {
    let mut path = path;
    while let Some(rest) = path.strip_prefix("./") {
        path = rest;
    }
    path
}

/// What a command can do to files, as far as hook files go.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum FileTool {
    /// `rm`, `unlink`, `shred` and kin.
    Deletes,
    /// `mv`.
    Moves,
    /// `cp`, `install`, `ln`.
    Copies,
    Chmod,
    Truncate,
    /// `mount`: what it mounts covers its last operand.
    Mount,
    /// `sed`, `perl`: with `-i`, rewrites the files it names.
    EditsInPlace,
    Dd,
    /// `rsync`: `--delete` in its destination, `--remove-source-files` from
    /// its sources, `--chmod` on what it copies.
    Rsync,
    /// `setfacl`: the owner's entry set without execute.
    Acl,
    /// `gzip`, `xz`, `zstd --rm` and kin: each file compressed is replaced
    /// by one under another name, unless it is kept or written to output.
    Compresses {
        /// `zstd`, `lz4` and `brotli` keep their input unless told `--rm`.
        keeps_input: bool,
    },
    /// `vim`, `ed`, `ex`, `emacs`: edits the files it names when given
    /// commands (`runners::editor_edits`); `ed` and `ex` read them on
    /// their input.
    Editor {
        reads_commands: bool,
    },
}

/// What `tool args` does to hook files, if it deletes, moves, empties or
/// disarms one. `content_of` gives what files written earlier hold.
pub fn tampering<'c>(
    tool: FileTool,
    args: &[Field<'_>],
    within: Within,
    content_of: impl Fn(&str) -> Option<&'c str>,
) -> Option<&'static str> {
    let hook = |field: &Field<'_>| is_hook_path(&field.text, within) || holds_hooks(&field.text);
    let no_op = |field: &Field<'_>| {
        NO_OPS.contains(&&*field.text) || content_of(&field.text).is_some_and(is_neutered)
    };
    match tool {
        FileTool::Deletes => operands(args, &[]).any(hook).then_some("deletes"),
        FileTool::Moves | FileTool::Copies => {
            let (sources, destination) = copy_operands(args)?;
            let to_hooks = match &destination {
                Some(Destination::Operand(operand)) => hook(operand),
                Some(Destination::Folder(folder)) => {
                    holds_hooks(folder) || is_hook_path(folder, within)
                }
                None => false,
            };
            // `install -m 644 x .git/hooks/pre-commit`, `cp
            // --remove-destination x .git/hooks/pre-commit`: the hook is made
            // anew without the execute bit, or with the mode of its source.
            let anew_without_execute = runners::option_values(args, &["-m", "--mode"])
                .iter()
                .any(|mode| !mode_executes(mode))
                || args.iter().any(|arg| arg.text == "--remove-destination");
            if tool == FileTool::Copies && to_hooks && anew_without_execute {
                return Some("makes anew, perhaps without the execute bit,");
            }
            // What lands in a `-t` folder keeps its own name, never a hook's.
            let destination = match destination {
                Some(Destination::Operand(operand)) => Some(operand),
                Some(Destination::Folder(_)) | None => None,
            };
            if tool == FileTool::Moves && sources.iter().any(|source| hook(source)) {
                return Some("moves away");
            }
            // `cp -r ../other/.git .`: another repository's git folder, with
            // none of these hooks, in place of this one's.
            let over_git_dir = destination.is_some_and(|destination| {
                let destination = normalize(destination.text.trim_end_matches('/'));
                destination == ".git"
                    || (matches!(destination, "." | "")
                        && sources.iter().any(|source| {
                            source.text.trim_end_matches('/').rsplit('/').next() == Some(".git")
                        }))
            });
            if over_git_dir {
                return Some("replaces");
            }
            // `cp .git/hooks/post-update.sample .git/hooks/pre-commit`: a
            // sample of another hook checks nothing this one did.
            let last = |path: &str| path.rsplit('/').next().unwrap_or_default().to_owned();
            let other_sample = destination
                .filter(|target| hook(target))
                .is_some_and(|target| {
                    sources.iter().any(|source| {
                        last(&source.text)
                            .strip_suffix(".sample")
                            .is_some_and(|sample| sample != last(&target.text))
                    })
                });
            if other_sample {
                return Some("swaps another hook's sample in for");
            }
            if !sources.iter().any(|source| no_op(source)) {
                return None;
            }
            match destination {
                Some(destination) if hook(destination) => Some("swaps a no-op in for"),
                Some(destination) if is_hook_tool(&destination.text) => Some(TOOL_SWAPPED),
                _ => None,
            }
        }
        // A mode copied from another file (`--reference=FILE`) may lack
        // the execute bit.
        FileTool::Chmod if args.iter().any(|arg| arg.text.starts_with("--reference")) => args
            .iter()
            .filter(|arg| !arg.text.starts_with('-'))
            .any(hook)
            .then_some("takes the execute bit off"),
        FileTool::Chmod => {
            let mode = args.iter().find(|arg| is_mode(&arg.text))?;
            // `chmod -R 644 .`: every file under a folder that may hold the
            // repository, its hooks among them.
            let recursive = recursive(args);
            let reached =
                |arg: &Field<'_>| hook(arg) || (recursive && may_hold_repository(&arg.text));
            (removes_owner_execute(&mode.text)
                && args.iter().any(|arg| {
                    !core::ptr::eq(arg, mode) && !arg.text.starts_with('-') && reached(arg)
                }))
            .then_some("takes the execute bit off")
        }
        FileTool::Truncate => operands(args, &["-s", "--size", "-r", "--reference"])
            .any(hook)
            .then_some("empties"),
        FileTool::EditsInPlace => {
            (edits_in_place(args) && args.iter().any(hook)).then_some("rewrites")
        }
        FileTool::Editor { reads_commands } => {
            (shell_reader::runners::editor_edits(args, reads_commands) && args.iter().any(hook))
                .then_some("edits")
        }
        FileTool::Dd => args
            .iter()
            .filter_map(|arg| arg.text.strip_prefix("of="))
            .any(|path| is_hook_path(path, within))
            .then_some("rewrites"),
        FileTool::Mount => mount_target(args).is_some_and(hook).then_some("covers"),
        FileTool::Compresses { keeps_input } => (removes_input(args, keeps_input)
            && operands(args, COMPRESS_OPTIONS_WITH_VALUE).any(hook))
        .then_some("compresses away"),
        FileTool::Rsync => {
            let paths: Vec<&Field<'_>> = operands(args, RSYNC_OPTIONS_WITH_VALUE).collect();
            let (destination, sources) = paths.split_last()?;
            let has = |option: &str| args.iter().any(|arg| arg.text.starts_with(option));
            if has("--del") && (hook(destination) || here_or_above(&destination.text)) {
                return Some("deletes");
            }
            if has("--remove-source-files") && sources.iter().any(|source| hook(source)) {
                return Some("moves away");
            }
            let modes = runners::option_values(args, &["--chmod"]);
            (modes.iter().any(|mode| {
                mode.split(',')
                    .any(|clause| removes_owner_execute(clause.trim_start_matches(['D', 'F'])))
            }) && hook(destination))
            .then_some("takes the execute bit off")
        }
        FileTool::Acl => {
            let recursive = recursive(args);
            let mut specs = runners::option_values(args, &["--modify", "--set"]);
            specs.extend(acl_modify_specs(args));
            let owner_without_execute = specs.iter().any(|spec| {
                spec.split(',').any(|entry| {
                    let perms = entry
                        .strip_prefix("u::")
                        .or_else(|| entry.strip_prefix("user::"));
                    perms.is_some_and(|perms| !perms.contains(['x', 'X', '7', '5', '3', '1']))
                })
            });
            let targets = operands(args, ACL_OPTIONS_WITH_VALUE);
            (owner_without_execute
                && targets
                    .into_iter()
                    .any(|arg| hook(arg) || (recursive && may_hold_repository(&arg.text))))
            .then_some("takes the execute bit off")
        }
    }
}

/// Options of `rsync` that take their value as the next word.
const RSYNC_OPTIONS_WITH_VALUE: &[&str] = &[
    "-e",
    "--rsh",
    "-f",
    "--filter",
    "--exclude",
    "--include",
    "--exclude-from",
    "--include-from",
    "--files-from",
    "--chmod",
    "--chown",
    "-T",
    "--temp-dir",
    "--backup-dir",
    "--suffix",
    "--partial-dir",
    "--compare-dest",
    "--copy-dest",
    "--link-dest",
    "--log-file",
    "--password-file",
    "--rsync-path",
    "-B",
    "--block-size",
    "--port",
    "--timeout",
    "--bwlimit",
];

/// Options of `setfacl` that take their value as the next word.
const ACL_OPTIONS_WITH_VALUE: &[&str] = &[
    "-m",
    "--modify",
    "-M",
    "--modify-file",
    "-x",
    "--remove",
    "-X",
    "--remove-file",
    "--set",
    "--set-file",
];

/// Whether a mode `install -m` gives lets the owner execute the file:
/// `755`, `u+x`; not `644`, `u=rw`.
fn mode_executes(mode: &str) -> bool {
    match u32::from_str_radix(mode, 8) {
        Ok(bits) => bits & 0o100 != 0,
        Err(_) => mode.contains(['x', 'X']),
    }
}

/// The entries `setfacl -m` sets, also where `m` ends or starts the value of
/// a cluster of short options (`-Rm u::rw-`, `-Rmu::rw-`).
fn acl_modify_specs<'a>(args: &'a [Field<'_>]) -> Vec<&'a str> {
    let mut specs = Vec::new();
    let mut words = args.iter().map(|arg| &*arg.text);
    while let Some(word) = words.next() {
        let Some(cluster) = word.strip_prefix('-').filter(|c| !c.starts_with('-')) else {
            continue;
        };
        // The first letter that takes a value takes the rest of the cluster.
        let Some(at) = cluster.find(['m', 'M', 'x', 'X']) else {
            continue;
        };
        let value = match &cluster[at + 1..] {
            "" => words.next(),
            attached => Some(attached),
        };
        if cluster[at..].starts_with('m') {
            specs.extend(value);
        }
    }
    specs
}

/// Options of the compressors that take their value as the next word.
const COMPRESS_OPTIONS_WITH_VALUE: &[&str] = &["-S", "--suffix", "-o", "-T", "--threads"];

/// Whether `chmod` or `setfacl` is told to work down the folders it names:
/// `-R`, alone or among other short options, or `--recursive`.
fn recursive(args: &[Field<'_>]) -> bool {
    args.iter().any(|arg| {
        arg.text == "--recursive"
            || (arg.text.starts_with('-') && !arg.text.starts_with("--") && arg.text.contains('R'))
    })
}

/// Whether a compressor given `args` deletes the files it compresses: not
/// when it writes to its output (`-c`), keeps them (`-k`), only tests or
/// lists them, or (`keeps_input`) is not told `--rm`.
fn removes_input(args: &[Field<'_>], keeps_input: bool) -> bool {
    let mut removes = !keeps_input;
    for arg in args.iter().map(|arg| &*arg.text) {
        match arg {
            "--" => break,
            "--rm" => removes = true,
            "--keep" | "--stdout" | "--to-stdout" | "--test" | "--list" => return false,
            _ if arg.starts_with("--") => {}
            _ if arg.starts_with('-') && arg.contains(['k', 'c', 't', 'l']) => return false,
            _ => {}
        }
    }
    removes
}

/// Where `mount` mounts: its last operand, past the values of its options.
fn mount_target<'f>(args: &'f [Field<'f>]) -> Option<&'f Field<'f>> {
    operands(
        args,
        &[
            "-t",
            "--types",
            "-o",
            "--options",
            "-L",
            "--label",
            "-U",
            "--uuid",
        ],
    )
    .last()
}

/// What `tool args` does to git's configuration files (`is_config`), if it
/// deletes, moves away, replaces, empties or rewrites one. Whatever the
/// file then holds, the core.hooksPath it held may be gone, and with it
/// the hooks it pointed git at; only `git config` changes it visibly.
pub fn config_tampering(
    tool: FileTool,
    args: &[Field<'_>],
    is_config: impl Fn(&str) -> bool,
) -> Option<&'static str> {
    let config = |field: &&Field<'_>| is_config(&field.text);
    match tool {
        FileTool::Deletes => operands(args, &[]).find(config).map(|_| "deletes"),
        FileTool::Moves | FileTool::Copies => {
            let (sources, destination) = copy_operands(args)?;
            let destination = match destination? {
                Destination::Operand(operand) => &*operand.text,
                Destination::Folder(folder) => folder,
            };
            if tool == FileTool::Moves && sources.iter().any(config) {
                return Some("moves away");
            }
            let destination = destination.trim_end_matches('/');
            // A copy into a directory lands under its own name: `cp x/config .git`.
            let lands_on_config = |source: &&Field<'_>| {
                let name = source.text.trim_end_matches('/').rsplit('/').next();
                is_config(destination)
                    || name.is_some_and(|name| is_config(&format!("{destination}/{name}")))
            };
            sources.iter().any(lands_on_config).then_some("replaces")
        }
        FileTool::Truncate => operands(args, &["-s", "--size", "-r", "--reference"])
            .find(config)
            .map(|_| "empties"),
        FileTool::EditsInPlace => {
            (edits_in_place(args) && args.iter().any(|arg| config(&arg))).then_some("rewrites")
        }
        FileTool::Editor { reads_commands } => {
            (shell_reader::runners::editor_edits(args, reads_commands)
                && args.iter().any(|arg| config(&arg)))
            .then_some("edits")
        }
        FileTool::Dd => args
            .iter()
            .filter_map(|arg| arg.text.strip_prefix("of="))
            .any(is_config)
            .then_some("rewrites"),
        // A file git cannot read stops git, hooks and all.
        FileTool::Mount => mount_target(args)
            .filter(|target| is_config(&target.text))
            .map(|_| "covers"),
        FileTool::Compresses { keeps_input } => (removes_input(args, keeps_input)
            && operands(args, COMPRESS_OPTIONS_WITH_VALUE).any(|arg| config(&arg)))
        .then_some("compresses away"),
        FileTool::Chmod | FileTool::Rsync | FileTool::Acl => None,
    }
}

/// Where `mv`, `cp`, `install` or `ln` puts what it copies.
pub enum Destination<'f> {
    /// Its last operand: a file, or a folder to copy into.
    Operand(&'f Field<'f>),
    /// The folder `-t` names.
    Folder(&'f str),
}

/// What `mv`, `cp`, `install` or `ln` copies, and where to (none for a `-t`
/// that names no folder); `None` when it names nothing.
pub fn copy_operands<'f>(
    args: &'f [Field<'f>],
) -> Option<(Vec<&'f Field<'f>>, Option<Destination<'f>>)> {
    let mut operands: Vec<&Field<'_>> = operands(args, COPY_OPTIONS_WITH_VALUE).collect();
    let mut words = args.iter().map(|arg| &*arg.text);
    while let Some(word) = words.next() {
        if word == "-t" || word == "--target-directory" {
            return Some((operands, words.next().map(Destination::Folder)));
        }
        if let Some(folder) = word.strip_prefix("--target-directory=") {
            return Some((operands, Some(Destination::Folder(folder))));
        }
    }
    let last = operands.pop()?;
    Some((operands, Some(Destination::Operand(last))))
}

/// Whether a folder a command names may hold the repository it runs in:
/// the folder it runs in, one above it, or one named from the root or the
/// home folder, or by a part the gate cannot know.
fn may_hold_repository(folder: &str) -> bool {
    folder.starts_with(['/', '~']) || folder.contains(UNKNOWN) || here_or_above(folder)
}

/// Whether `folder` is the one a command runs in or one above it (`.`,
/// `./`, `..`, `../..`).
fn here_or_above(folder: &str) -> bool {
    folder
        .split('/')
        .all(|part| matches!(part, "" | "." | ".."))
}

/// Whether a program deletes, moves, empties, links or re-modes the files
/// it is handed (`find -exec rm`, `xargs chmod`): what it does to a hook
/// among them takes the hook away.
pub fn takes_files_away(program: &str) -> bool {
    matches!(
        program,
        "rm" | "unlink"
            | "rimraf"
            | "shred"
            | "mv"
            | "chmod"
            | "chattr"
            | "setfacl"
            | "truncate"
            | "ln"
            | "cp"
            | "install"
    )
}

/// Whether `name args` makes links to the files it is given: `ln`, `link`,
/// and `cp -l` or `-s`.
pub fn makes_links(name: &str, args: &[Field<'_>]) -> bool {
    match name {
        "ln" | "link" => true,
        "cp" => args.iter().any(|arg| {
            matches!(&*arg.text, "--link" | "--symbolic-link")
                || (arg.text.starts_with('-')
                    && !arg.text.starts_with("--")
                    && arg.text.contains(['l', 's']))
        }),
        _ => false,
    }
}

/// What `ln`, `link` or `cp -s` links to: every operand but the link's
/// name, or the one operand of `ln TARGET`, which names its link after it.
pub fn link_targets<'f>(args: &'f [Field<'f>]) -> Vec<&'f Field<'f>> {
    match copy_operands(args) {
        Some((targets, _)) if !targets.is_empty() => targets,
        _ => operands(args, COPY_OPTIONS_WITH_VALUE).collect(),
    }
}

/// Options of `mv`, `cp`, `install` and `ln` that take the next word.
const COPY_OPTIONS_WITH_VALUE: &[&str] = &[
    "-t",
    "--target-directory",
    "-S",
    "--suffix",
    "-m",
    "-o",
    "-g",
    "--mode",
];

/// Whether `sed`/`perl` arguments ask for an in-place edit (`-i`, `-pi`, `--in-place`).
fn edits_in_place(args: &[Field<'_>]) -> bool {
    args.iter().any(|arg| {
        let text = &*arg.text;
        text.starts_with("--in-place")
            || (text.starts_with('-') && !text.starts_with("--") && text.contains('i'))
    })
}

/// Arguments that are not options or option values.
pub(super) fn operands<'f>(
    args: &'f [Field<'_>],
    with_value: &'f [&str],
) -> impl Iterator<Item = &'f Field<'f>> {
    let mut skip_next = false;
    let mut options_ended = false;
    args.iter().filter(move |arg| {
        if core::mem::take(&mut skip_next) {
            return false;
        }
        let text = &*arg.text;
        if options_ended || !text.starts_with('-') || text == "-" {
            return true;
        }
        if text == "--" {
            options_ended = true;
            return false;
        }
        skip_next = with_value.contains(&text);
        false
    })
}

/// Whether a `chmod` argument is a mode: octal, or symbolic like `-x`, `a-x`, `u=rw`.
fn is_mode(text: &str) -> bool {
    if text.is_empty() {
        return false;
    }
    if text.bytes().all(|byte| byte.is_ascii_digit()) {
        return true;
    }
    text.bytes().all(|byte| b"ugoa+-=,rwxXst".contains(&byte))
        && text.bytes().any(|byte| b"+-=".contains(&byte))
        && text
            .bytes()
            .any(|byte| b"rwxXst".contains(&byte) || byte == b'=')
}

/// Whether a mode leaves the file's owner unable to execute it.
fn removes_owner_execute(mode: &str) -> bool {
    if mode.bytes().all(|byte| byte.is_ascii_digit()) {
        let owner = mode
            .len()
            .checked_sub(3)
            .and_then(|at| mode.as_bytes().get(at));
        return owner.is_none_or(|digit| (digit - b'0') & 1 == 0);
    }
    mode.split(',').any(|clause| {
        let who_end = clause.find(['+', '-', '=']).unwrap_or(clause.len());
        let who = clause.get(..who_end).unwrap_or("");
        let owner = who.is_empty() || who.contains(['u', 'a']);
        let actions = clause.get(who_end..).unwrap_or("");
        owner && removes_execute(actions)
    })
}

/// Whether `-x`, `=rw` and the like among `actions` drop the execute bit.
fn removes_execute(actions: &str) -> bool {
    let mut operator = b'+';
    let mut permissions = String::new();
    let mut removes = false;
    for byte in actions.bytes().chain(core::iter::once(b'+')) {
        if b"+-=".contains(&byte) {
            let has_x = permissions.contains(['x', 'X']);
            removes |= (operator == b'-' && has_x) || (operator == b'=' && !has_x);
            operator = byte;
            permissions.clear();
        } else {
            permissions.push(char::from(byte));
        }
    }
    removes
}
