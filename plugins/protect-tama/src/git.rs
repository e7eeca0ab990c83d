//! What git does beyond its own files: the commands its settings,
//! variables and options have it run, and the files a subcommand writes,
//! cleans or removes.

use crate::prelude::*;

use shell_reader::{git_commands, git_config};

use crate::commands::{each, operands, option_values, run_as, short_flags};
use crate::diffs;
use crate::protected::Change;
use crate::walk::{Call, Result, Walker};

/// What git runs: the commands its settings, variables and subcommands name
/// (`-c core.pager='…'`, `-c alias.x='!…'`, `GIT_EDITOR=…`, `rebase -x`,
/// `bisect run`) are walked;
/// `git clone` writes its destination; `git clean -f` deletes the
/// untracked files of the work tree it runs in, the working folder or `-C`'s,
/// or of the pathspecs it is given; `git apply` and `git am` write what their
/// diffs name.
pub fn git(walker: &mut Walker<'_>, args: &[String], stdin: Option<&str>) -> Result<()> {
    let mut commands: Vec<String> = Vec::new();
    // Most git calls give no `-c` and run with no variable the command set.
    let settings = if args.iter().any(|arg| arg.starts_with("-c")) {
        option_values(args, &["-c"])
    } else {
        Vec::new()
    };
    let mut settings: Vec<(String, String)> = settings
        .iter()
        .filter_map(|setting| setting.split_once('='))
        .map(|(key, value)| (key.to_owned(), value.to_owned()))
        .collect();
    if walker.assigns_variables() {
        for name in git_commands::VARIABLES {
            commands.extend(walker.known(name));
        }
        settings.extend(git_config::environment_settings(|name| walker.known(name)));
    }
    for (key, value) in &settings {
        commands.extend(git_config::runs(key, value));
        work_tree_setting(walker, key, value)?;
    }
    let valued = [
        "-C",
        "-c",
        "--git-dir",
        "--work-tree",
        "-b",
        "--branch",
        "--depth",
        "-o",
        "--origin",
        "-e",
        "--exclude",
    ];
    let operands = operands(args, &valued);
    // The words after the subcommand, its own options among them.
    let subcommand_args = operands
        .first()
        .and_then(|subcommand| args.iter().position(|arg| arg == subcommand))
        .map_or(args, |at| &args[at + 1..]);
    let subcommand = operands.first().map_or("", String::as_str);
    commands.extend(git_commands::option_commands(subcommand, args));
    commands.extend(subcommand_commands(subcommand, subcommand_args));
    let argv = command_words(subcommand, subcommand_args);
    if let [_, _, ..] = argv {
        walker.step()?;
        let call = Call {
            argv,
            stdin: None,
            terminal_input: false,
        };
        walker.in_child(|walker| run_as(walker, &call, false))?;
    }
    // A command stored for git to run later (`git config core.pager …`,
    // `git config alias.x '!…'`).
    if subcommand == "config"
        && let Some((key, value)) = git_config::written(subcommand_args, |arg| Some(arg.as_str()))
    {
        if let Some(value) = value {
            commands.extend(git_config::runs(
                &subcommand_args[key],
                &subcommand_args[value],
            ));
            work_tree_setting(walker, &subcommand_args[key], &subcommand_args[value])?;
        }
        // `git config --file FILE key value` writes FILE, whatever it is.
        let files = option_values(subcommand_args, &["-f", "--file"]);
        each(walker, &files, Change::Write, "writes git settings into")?;
    }
    // An editor may write `exec` lines into a rebase's todo list.
    let todo: Vec<String> = commands
        .iter()
        .flat_map(|command| git_commands::todo_commands(command))
        .collect();
    for command in commands.iter().chain(&todo) {
        walker.child_source_if_shell(command)?;
    }
    // Paths are git's from the folder `-C` or `--work-tree` (or
    // `GIT_WORK_TREE`) puts it in: `git -C ~/.claude checkout
    // settings.json` rewrites that file there.
    let mut work_tree = option_values(args, &["-C", "--work-tree"]);
    if walker.assigns_variables() {
        work_tree.extend(walker.assigned("GIT_WORK_TREE").map(str::to_owned));
    }
    let folder = work_tree.last().map_or(".", String::as_str);
    let in_folder = |path: &String| match path.starts_with(['/', '~']) {
        true => path.clone(),
        false => format!("{folder}/{path}"),
    };
    let in_folder_all = |paths: &[String]| paths.iter().map(in_folder).collect::<Vec<String>>();
    let written = written_files(walker, subcommand, subcommand_args);
    each(
        walker,
        &in_folder_all(&written),
        Change::Write,
        "has git write",
    )?;
    if rewrites_work_tree(subcommand, subcommand_args) {
        walker.changes(
            folder,
            Change::Remove,
            "has git rewrite the tracked files of",
        )?;
    }
    match operands.as_slice() {
        [clone, _source, destination, ..] if clone == "clone" => {
            walker.changes(&in_folder(destination), Change::Remove, "clones into")
        }
        // Without a destination, into a folder named after the source.
        [clone, source] if clone == "clone" => walker.changes(
            &in_folder(&clone_folder(source)),
            Change::Remove,
            "clones into",
        ),
        // `git worktree add PATH` checks the branch's files out into PATH.
        [worktree, add, path, ..] if worktree == "worktree" && add == "add" => {
            walker.changes(&in_folder(path), Change::Remove, "checks files out into")
        }
        // `git init DIR` writes a repository into the folder, or the working one.
        [init, rest @ ..] if init == "init" => {
            let target = rest.first().map_or_else(|| folder.to_owned(), in_folder);
            walker.changes(&target, Change::Write, "makes a repository in")
        }
        [apply, ..] if matches!(apply.as_str(), "apply" | "am") => {
            diffs::git_apply(walker, folder, subcommand_args, stdin)
        }
        // `git add` copies what it adds into the repository's objects, where
        // a later `git show` prints it without naming it: its pathspecs, or
        // the whole folder (`git add -A`, `git add .`).
        [add, ..] if add == "add" => {
            let pathspecs = crate::commands::operands(subcommand_args, &[]);
            let added = match pathspecs.is_empty() {
                true => vec![folder.to_owned()],
                false => in_folder_all(&pathspecs),
            };
            crate::key_reads::refuse_if_key_under(walker, "adds to the repository", "git", &added)
        }
        // Files git writes back from its history or removes.
        [subcommand, paths @ ..]
            if matches!(
                subcommand.as_str(),
                "checkout" | "restore" | "rm" | "mv" | "checkout-index"
            ) =>
        {
            each(
                walker,
                &in_folder_all(paths),
                Change::Write,
                "has git rewrite",
            )
        }
        // `--cacheinfo MODE,OBJECT,PATH` (or as three words) stages any
        // content as PATH, which a later checkout of the tree writes.
        [update, entries @ ..]
            if update == "update-index" && args.iter().any(|arg| arg == "--cacheinfo") =>
        {
            let paths: Vec<String> = entries
                .iter()
                .map(|entry| entry.splitn(3, ',').nth(2).unwrap_or(entry))
                .map(|path| in_folder(&path.to_owned()))
                .collect();
            each(walker, &paths, Change::Write, "stages content for")
        }
        [subcommand, pathspecs @ ..] => {
            let has = |long: &[&str], short: &[char]| {
                args.iter().any(|a| {
                    long.contains(&a.as_str())
                        || short_flags(a).is_some_and(|flags| flags.contains(short))
                })
            };
            // `git stash -u` (or `--all`) takes untracked files away with the changes.
            let verb = match subcommand.as_str() {
                "clean" if has(&["--force"], &['f']) => "cleans untracked files out of",
                "stash" if has(&["--include-untracked", "--all"], &['u', 'a']) => {
                    "stashes untracked files out of"
                }
                _ => return Ok(()),
            };
            walker.changes(folder, Change::Remove, verb)?;
            // Pathspecs name what to clean: `git clean -fdx ~` in a home
            // that is a repository cleans all of it.
            each(walker, &in_folder_all(pathspecs), Change::Remove, verb)
        }
        _ => Ok(()),
    }
}

/// The files (or folders) a subcommand writes by its options or operands:
/// `--output` (`diff`, `log`, `show`, `format-patch`), `archive -o`,
/// `format-patch -o`, `clone --separate-git-dir`, `checkout-index
/// --prefix`, `bundle create FILE`, `merge-file`'s first file, and the
/// configuration file `git config` writes where the command's variables
/// put it (`GIT_CONFIG`, `GIT_CONFIG_GLOBAL`, `HOME` for `--global`).
fn written_files(walker: &Walker<'_>, subcommand: &str, args: &[String]) -> Vec<String> {
    let mut written = option_values(
        args,
        &["--output", "--output-directory", "--separate-git-dir"],
    );
    match subcommand {
        "archive" | "format-patch" => written.extend(option_values(args, &["-o"])),
        "checkout-index" => written.extend(option_values(args, &["--prefix"])),
        "bundle" => {
            let operands = operands(args, &[]);
            if let [create, file, ..] = operands.as_slice()
                && create == "create"
            {
                written.push(file.clone());
            }
        }
        "merge-file" if !args.iter().any(|arg| arg == "-p" || arg == "--stdout") => {
            written.extend(operands(args, &["-L"]).into_iter().take(1));
        }
        "config" if walker.assigns_variables() => {
            written.extend(walker.assigned("GIT_CONFIG").map(str::to_owned));
            if args.iter().any(|arg| arg == "--global") {
                match walker.assigned("GIT_CONFIG_GLOBAL") {
                    Some(file) => written.push(file.to_owned()),
                    None => written.extend(
                        walker
                            .assigned("HOME")
                            .map(|home| format!("{home}/.gitconfig")),
                    ),
                }
            }
        }
        _ => {}
    }
    written
}

/// The shell text a subcommand's own words have git run: `rebase -x`'s,
/// the one word of `submodule foreach` or `bisect run`.
fn subcommand_commands(subcommand: &str, args: &[String]) -> Vec<String> {
    match subcommand {
        "rebase" => option_values(args, &["-x", "--exec"]),
        _ => match command_words(subcommand, args) {
            [text] => vec![text.clone()],
            _ => Vec::new(),
        },
    }
}

/// The words of the command `git submodule foreach` or `git bisect run`
/// runs: one word is shell text, several a program and its arguments.
fn command_words<'a>(subcommand: &str, args: &'a [String]) -> &'a [String] {
    let words = match subcommand {
        "submodule" => match args.iter().position(|arg| arg == "foreach") {
            Some(at) => &args[at + 1..],
            None => return &[],
        },
        "bisect" if args.first().is_some_and(|arg| arg == "run") => &args[1..],
        _ => return &[],
    };
    let options = words
        .iter()
        .take_while(|word| word.starts_with('-'))
        .count();
    &words[options..]
}

/// Whether `git <subcommand>` may rewrite any tracked file of the work
/// tree: switching branches, resetting hard, merging, replaying commits,
/// putting stashed changes back or setting them aside.
fn rewrites_work_tree(subcommand: &str, args: &[String]) -> bool {
    let has = |options: &[&str]| args.iter().any(|arg| options.contains(&arg.as_str()));
    match subcommand {
        "checkout" | "switch" | "merge" | "pull" | "rebase" | "cherry-pick" | "revert" => true,
        "reset" => has(&["--hard", "--merge", "--keep"]),
        "read-tree" => has(&["-u"]),
        "checkout-index" => has(&["-a", "--all"]),
        "stash" => !matches!(
            args.first().map(String::as_str),
            Some("list" | "show" | "drop" | "clear" | "create" | "store")
        ),
        _ => false,
    }
}

/// `core.worktree` set to a folder that holds a protected path (`git config
/// core.worktree ~`): git's checkouts and resets write there from then on.
fn work_tree_setting(walker: &Walker<'_>, key: &str, value: &str) -> Result<()> {
    if !key.eq_ignore_ascii_case("core.worktree") {
        return Ok(());
    }
    walker.changes(
        value,
        Change::Remove,
        "makes git's work tree, where checkouts write,",
    )
}

/// The folder a clone of `source` lands in when no destination is named:
/// the source's last `/` or `:` part, without `.git` (as git, `gh repo
/// clone` and `svn checkout` name it).
pub fn clone_folder(source: &str) -> String {
    let source = source.trim_end_matches('/');
    let last = source.rsplit(['/', ':']).next().unwrap_or(source);
    last.strip_suffix(".git").unwrap_or(last).to_owned()
}
