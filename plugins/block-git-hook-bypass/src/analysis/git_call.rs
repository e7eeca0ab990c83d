//! A git command in context: config that moves hooks, options that skip
//! them, hook managers' switches in its environment, and the commands git
//! itself goes on to run (`rebase --exec`, aliases, `submodule foreach`).

use crate::prelude::*;

use super::simple::Env;
use super::{Frame, Result, Walker, files};
use crate::field::{Field, UNKNOWN, shown};
use crate::finding::Finding;
use crate::git::{self, ConfigArg, config, stash};
use crate::hook_env;
use crate::output;
use shell_reader::interpreters::quoted;
use shell_reader::{git_commands, git_config};

/// Refuses an assignment that sets core.hooksPath through the environment
/// (`GIT_CONFIG_KEY_<n>`, `GIT_CONFIG_PARAMETERS`), whether or not git runs
/// in the same command: the variable has no other use.
pub(super) fn check_assignment(name: &str, value: &str) -> Result<()> {
    let includes = (name.starts_with("GIT_CONFIG_KEY_") && config::is_include(value.trim()))
        || (name == "GIT_CONFIG_PARAMETERS" && value.to_ascii_lowercase().contains("include"));
    if includes {
        return Err(Finding::ConfigInclude {
            setting: format!("{name}={}", value.replace(UNKNOWN, "…")),
        });
    }
    let sets_hooks_path = (name.starts_with("GIT_CONFIG_KEY_")
        && config::is_hooks_path(value.trim()))
        || (name == "GIT_CONFIG_PARAMETERS"
            && value.to_ascii_lowercase().contains("core.hookspath"));
    if sets_hooks_path {
        return Err(Finding::HooksPath {
            setting: format!("{name}={}", value.replace(UNKNOWN, "…")),
        });
    }
    Ok(())
}

/// Where the git configuration the environment gives is read from, as a
/// finding names it.
const ENVIRONMENT_CONFIG: &str =
    "The git configuration the environment gives (GIT_CONFIG_KEY_<n>, GIT_CONFIG_PARAMETERS)";

/// `git [globals] <alias> <args>`, with the alias's definition.
struct Call<'c, 'f> {
    alias: &'c str,
    definition: &'c str,
    globals: &'c [Field<'f>],
    args: &'c [Field<'f>],
}

impl Walker {
    /// `git [global options] <subcommand> …`, `args` following `git`.
    pub(super) fn git(
        &mut self,
        frame: &mut Frame<'_>,
        args: &[Field<'_>],
        env: &Env,
    ) -> Result<Option<String>> {
        let globals = git::global_options(args);
        // Each with where it is set, when not on this command line.
        let mut aliases: Vec<(String, String, Option<&str>)> = Vec::new();
        for setting in &globals.config {
            let (key, value, setting) = match setting {
                ConfigArg::Value(field) => {
                    let (key, value) = field.text.split_once('=').unwrap_or((&field.text, "true"));
                    (key, value.to_owned(), format!("git -c {}", field.shown()))
                }
                ConfigArg::FromEnvironment(field) => {
                    // `--config-env=alias.c=X`: the value is variable X's.
                    let spec = field.text.trim_start_matches("--config-env=");
                    let (key, variable) = spec.split_once('=').unwrap_or((spec, ""));
                    let written = if field.text.starts_with("--config-env=") {
                        format!("git {}", field.shown())
                    } else {
                        format!("git --config-env {}", field.shown())
                    };
                    let value = self.environment_value(env, variable).unwrap_or_default();
                    (key, value, written)
                }
            };
            let value = value.as_str();
            if config::is_hooks_path(key) {
                return Err(Finding::HooksPath { setting });
            }
            if config::is_include(key) {
                return Err(Finding::ConfigInclude { setting });
            }
            if git_commands::runs_setting(key) {
                self.git_runs(value.trim_start_matches('!'))?;
            }
            if let Some(alias) = git_config::alias_name(key) {
                self.check_alias(alias, value)?;
                aliases.push((alias.to_owned(), value.to_owned(), None));
            }
        }
        // Most git calls run with no variable the command set.
        if !env.assigned.is_empty() || self.variables.iter().next().is_some() {
            let settings = self.environment_config(env);
            self.check_git_environment(env, &settings)?;
            for (key, value) in settings {
                if let Some(alias) = git_config::alias_name(&key) {
                    aliases.push((alias.to_owned(), value, Some(ENVIRONMENT_CONFIG)));
                }
            }
        }
        let Some(index) = globals.subcommand else {
            return Ok(None);
        };
        let Some(subcommand) = args.get(index).and_then(Field::exact) else {
            return Ok(None);
        };
        let rest = args.get(index + 1..).unwrap_or_default();
        let git_dir = globals.git_dir.as_deref();
        // Aliases' names are read without regard to case, as git reads them.
        let alias = aliases
            .into_iter()
            .rev()
            .find(|(alias, ..)| alias.eq_ignore_ascii_case(subcommand));
        let alias = match alias {
            Some((_, definition, origin)) => Some((definition, origin)),
            None if !git::is_git_command(subcommand) => self
                .configured_alias(subcommand)
                .map(|definition| (definition, None)),
            None => None,
        };
        if let Some((definition, origin)) = alias {
            let call = Call {
                alias: subcommand,
                definition: &definition,
                globals: args.get(..index).unwrap_or_default(),
                args: rest,
            };
            return self.alias_call(&call).map_err(|finding| match origin {
                Some(origin) => finding.in_code(origin.to_owned()),
                None => finding,
            });
        }
        let globals_given = args.get(..index).unwrap_or_default();
        let mut work_trees = shell_reader::runners::option_values(globals_given, &["--work-tree"]);
        work_trees.extend(
            self.environment(env)
                .filter(|(name, _)| *name == "GIT_WORK_TREE")
                .map(|(_, value)| value),
        );
        let work_tree = work_trees
            .iter()
            .any(|folder| !matches!(files::normalize(folder), "." | ""));
        if work_tree && git::runs_hooks(subcommand) && self.husky_installed(false) {
            return Err(husky_left_behind(format!("git {subcommand}")));
        }
        let elsewhere =
            git_dir.is_some() || work_tree || args[..index].iter().any(|arg| arg.text == "-C");
        // The repository's folder when the command names it: `--git-dir`
        // (kept as written: `--git-dir=DIR`, `--git-dir DIR`), else the
        // `-C` folders, each from the one before.
        let repository = git_dir
            .map(|written| {
                let folder = written.trim_start_matches("--git-dir");
                folder.trim_start_matches(['=', ' ']).to_owned()
            })
            .or_else(|| {
                shell_reader::runners::option_values(globals_given, &["-C"])
                    .into_iter()
                    .map(str::to_owned)
                    .reduce(|at, next| match next.starts_with(['/', '~']) {
                        true => next,
                        false => format!("{at}/{next}"),
                    })
            });
        let place = (git_dir, repository.as_deref(), elsewhere);
        self.git_subcommand(frame, subcommand, rest, env, place)
    }

    /// `git <subcommand> <args>`, given `--git-dir` (as written) when it
    /// names another folder than `.git`, the repository's folder when the
    /// command names it, and whether git works in another folder than the
    /// shell's (`-C`, `--work-tree`, `--git-dir`).
    fn git_subcommand(
        &mut self,
        frame: &mut Frame<'_>,
        subcommand: &str,
        args: &[Field<'_>],
        env: &Env,
        (git_dir, repository, elsewhere): (Option<&str>, Option<&str>, bool),
    ) -> Result<Option<String>> {
        for command in git_commands::option_commands(subcommand, args) {
            self.child_source_if_shell(&command)?;
        }
        if subcommand == "remote" {
            self.local_remotes.extend(local_remote_added(args));
        }
        if stash::lands(subcommand, args) {
            return Err(Finding::StashCommit {
                command: format!("git {subcommand} {}", shown(args)),
            });
        }
        if git::runs_hooks(subcommand) {
            self.check_hook_environment(subcommand, env)?;
            let options = git::hook_options(subcommand, args);
            let skip = |written, canonical, hooks| Finding::SkipOption {
                command: format!("git {subcommand}"),
                written,
                canonical,
                hooks,
            };
            if let Some(written) = options.no_verify {
                return Err(skip(
                    written,
                    "--no-verify",
                    git::verified_hooks(subcommand),
                ));
            }
            if let Some(written) = options.no_post_rewrite {
                return Err(skip(written, "--no-post-rewrite", "post-rewrite hook"));
            }
            if let Some(word) = options.unread {
                return Err(Finding::UnreadOption {
                    command: format!("git {subcommand} {}", shown(args)),
                    word,
                    hooks: git::verified_hooks(subcommand),
                });
            }
            self.check_config_location(subcommand, env, git_dir)?;
            self.check_hook_programs(subcommand, env)?;
            for script in &options.exec {
                self.child_source(script, None)?;
            }
            return Ok(None);
        }
        match subcommand {
            "config" => self.git_config(args),
            "commit-tree" => Err(Finding::Plumbing {
                subcommand: "commit-tree",
            }),
            "fast-import" => Err(Finding::Plumbing {
                subcommand: "fast-import",
            }),
            "quiltimport" => Err(Finding::Plumbing {
                subcommand: "quiltimport",
            }),
            // `git replace --edit HEAD`: a commit object written by hand.
            "replace" if replace_writes(args) => Err(Finding::Plumbing {
                subcommand: "replace",
            }),
            "hash-object" if writes_commit_object(args) => Err(Finding::Plumbing {
                subcommand: "hash-object",
            }),
            "filter-branch" | "filter-repo" if rewrites_content(args) => Err(Finding::Rewrite {
                command: format!("git {subcommand} {}", shown(args)),
            }),
            "send-pack" => Err(Finding::Plumbing {
                subcommand: "send-pack",
            }),
            "http-push" => Err(Finding::Plumbing {
                subcommand: "http-push",
            }),
            // `git clone . /tmp/x`: a clone gets none of the hooks, so what
            // is committed there and pulled back skipped them.
            "clone" if clones_this_repository(args) => Err(Finding::CommitsUnverified {
                command: format!("git clone {}", shown(args)),
                how: "copies this repository without its hooks, for commits made in the copy to \
                      be brought back"
                    .to_owned(),
                fix: "Commit in this repository, where the hooks run",
            }),
            // `git -C ../remote.git fetch "$PWD" main:main`: the remote takes
            // the branch itself, and no pre-push hook runs here.
            "fetch" | "pull"
                if (elsewhere || self.moved_out())
                    && pulls_from_a_folder(subcommand, args, |remote| {
                        self.remote_is_local(repository, remote)
                    }) =>
            {
                Err(Finding::CommitsUnverified {
                    command: format!("git {subcommand} {}", shown(args)),
                    how: "has another repository take a branch from a folder on this machine, \
                          a push without the pre-push hook"
                        .to_owned(),
                    fix: "Push with `git push` and fix what the hooks report",
                })
            }
            "clean" if clean_removes_husky(args) && self.husky_installed(elsewhere) => {
                Err(Finding::HookFiles {
                    command: format!("git clean {}", shown(args)),
                    effect: "removes ignored files, husky's .husky/_ among them (`-e .husky` keeps \
                         it), and with them",
                })
            }
            "stash" if args.first().is_some_and(|arg| arg.text == "create") => {
                Ok(Some(format!("{}\n", stash::CREATED)))
            }
            // `git stash --all` puts ignored files away too, `.husky/_` among them.
            "stash"
                if args.iter().any(|arg| {
                    arg.text == "--all"
                        || (arg.text.starts_with('-')
                            && !arg.text.starts_with("--")
                            && arg.text.contains('a'))
                }) && self.husky_installed(elsewhere) =>
            {
                Err(Finding::HookFiles {
                    command: format!("git stash {}", shown(args)),
                    effect: "puts ignored files away, husky's .husky/_ among them, and with them",
                })
            }
            // `git restore --source=<commit> .husky`, `git checkout <commit>
            // -- .husky/pre-commit`: another commit's hooks, or none.
            "restore" | "checkout" if restores_from_elsewhere(subcommand, args) => {
                let hooks = args.iter().any(|arg| {
                    !arg.text.starts_with('-')
                        && (files::is_hook_path(&arg.text, self.within())
                            || files::holds_hooks(&arg.text)
                            || files::is_hook_configuration(&arg.text))
                });
                if hooks {
                    return Err(self.hook_files(
                        format!("git {subcommand} {}", shown(args)),
                        "puts another commit's version (or none) in place of",
                    ));
                }
                Ok(None)
            }
            // `git -C ../remote.git update-ref refs/heads/main <commit>`: a
            // push the remote takes without the pre-push hook.
            "update-ref" if elsewhere || self.moved_out() => Err(Finding::CommitsUnverified {
                command: format!("git update-ref {}", shown(args)),
                how: "sets a branch in another repository, a push without the pre-push hook"
                    .to_owned(),
                fix: "Push with `git push` and fix what the hooks report",
            }),
            // `git sparse-checkout set src` leaves `.husky`, and husky's
            // hooks with it, out of the working tree.
            "sparse-checkout"
                if args.first().is_some_and(|arg| {
                    matches!(&*arg.text, "set" | "add" | "init" | "reapply")
                }) && self.husky_installed(elsewhere) =>
            {
                Err(Finding::HookFiles {
                    command: format!("git sparse-checkout {}", shown(args)),
                    effect: "may leave husky's .husky folder out of the working tree, and with it",
                })
            }
            // Changes to a hook or a hook manager's configuration kept from
            // `git status` and `git diff`.
            "update-index"
                if args
                    .iter()
                    .any(|arg| matches!(&*arg.text, "--assume-unchanged" | "--skip-worktree"))
                    && args.iter().any(|arg| {
                        files::is_hook_path(&arg.text, self.within())
                            || files::is_hook_configuration(&arg.text)
                    }) =>
            {
                Err(self.hook_files(
                    format!("git update-index {}", shown(args)),
                    "hides changes to",
                ))
            }
            "rm" | "mv" => {
                let cached = args.iter().any(|arg| arg.text == "--cached");
                let paths: Vec<&Field<'_>> = args
                    .iter()
                    .filter(|arg| !arg.text.starts_with('-'))
                    .collect();
                let sources = if subcommand == "mv" {
                    paths.split_last().map_or(&[][..], |(_, sources)| sources)
                } else {
                    &paths[..]
                };
                if !cached
                    && sources
                        .iter()
                        .any(|path| files::is_hook_path(&path.text, self.within()))
                {
                    let effect = if subcommand == "rm" {
                        "deletes"
                    } else {
                        "moves away"
                    };
                    return Err(
                        self.hook_files(format!("git {subcommand} {}", shown(args)), effect)
                    );
                }
                Ok(None)
            }
            "submodule" => match args.iter().position(|arg| arg.text == "foreach") {
                Some(at) => {
                    let script: Vec<Field<'_>> = args
                        .iter()
                        .skip(at + 1)
                        .skip_while(|arg| arg.text.starts_with('-'))
                        .cloned()
                        .collect();
                    self.child_source(&output::joined(&script), None)
                }
                None => Ok(None),
            },
            "bisect" if args.first().is_some_and(|arg| arg.text == "run") => {
                self.run(frame, args.get(1..).unwrap_or_default(), env, None)
            }
            "rev-parse" => Ok(rev_parse_output(args)),
            "branch" | "symbolic-ref" => Ok(branch_name_output(subcommand, args)),
            // An alias or add-on (`git ci`, `git cz`) given git's own spelling
            // of the option passes it on to the commit it makes.
            _ if args.iter().any(|arg| arg.text == "--no-verify")
                && !git::is_git_command(subcommand) =>
            {
                Err(Finding::SkipOption {
                    command: format!("git {subcommand}"),
                    written: "--no-verify".to_owned(),
                    canonical: "--no-verify",
                    hooks: "client-side hooks",
                })
            }

            _ => Ok(None),
        }
    }

    /// The definition of `name`, no git command, in the repository's or
    /// the user's configuration on disk (`cnv`, defined as `commit
    /// --no-verify` before the session; `ci`, defined as `commit`), or as
    /// the command set it earlier (`git config alias.c commit; git c -n`).
    fn configured_alias(&mut self, name: &str) -> Option<String> {
        /// Folders above the working one where the repository may start.
        const MOST_LEVELS: usize = 8;
        let repository = (0..MOST_LEVELS).map(|up| format!("{}.git/config", "../".repeat(up)));
        let user = ["~/.gitconfig", "~/.config/git/config", "/etc/gitconfig"];
        repository.chain(user.map(str::to_owned)).find_map(|file| {
            git_config::entries(self.file_text(&file)?)?
                .into_iter()
                .find(|entry| {
                    git_config::alias_name(&entry.key)
                        .is_some_and(|alias| alias.eq_ignore_ascii_case(name))
                })
                .map(|entry| entry.value)
        })
    }

    /// `git [globals] <alias> <args>`: the alias's definition run with the
    /// arguments git adds to it, read as where the alias is defined. A git
    /// alias runs as `git [globals] <definition> <args>`; a `!` alias as git
    /// runs it, `sh -c '<definition> "$@"'` given the arguments.
    fn alias_call(&mut self, call: &Call<'_, '_>) -> Result<Option<String>> {
        let walked = match call.definition.strip_prefix('!') {
            Some(shell) => self.child_source(
                &format!("{shell} \"$@\""),
                Some(crate::field::owned(call.args)),
            ),
            None => {
                let words = |fields: &[Field<'_>]| -> Vec<String> {
                    fields.iter().map(|field| quoted(&field.text)).collect()
                };
                let text = format!(
                    "git {} {} {}",
                    output::joined(&words(call.globals)),
                    call.definition,
                    output::joined(&words(call.args))
                );
                self.child_source(&text, None)
            }
        };
        match walked {
            Err(Finding::Unreadable { syntax: true, .. }) => Ok(None),
            Err(inner) => Err(Finding::InAlias {
                alias: call.alias.to_owned(),
                inner: Box::new(inner),
            }),
            Ok(output) => Ok(output),
        }
    }

    fn git_config(&mut self, args: &[Field<'_>]) -> Result<Option<String>> {
        // `git config --edit` hands the file to an editor; without a terminal
        // only an editor that is a command runs, and it may change anything.
        let edits = args.first().is_some_and(|arg| arg.text == "edit")
            || args
                .iter()
                .any(|arg| arg.text == "--edit" || arg.text == "-e");
        if edits {
            return Err(Finding::ConfigFiles {
                command: format!("git config {}", shown(args)),
                effect: "hands an editor",
            });
        }
        let Some(write) = config::config_write(args) else {
            if config::removes_hooks_path(args) {
                return Err(Finding::HooksPathRemoved {
                    setting: format!("git config {}", shown(args)),
                });
            }
            let reads_hooks_path = args.iter().any(|arg| config::is_hooks_path(&arg.text));
            return Ok(reads_hooks_path.then(|| ".git/hooks".to_owned()));
        };
        let Some(key) = write.key.exact() else {
            return Ok(None);
        };
        if config::is_hooks_path(key) {
            return Err(Finding::HooksPath {
                setting: format!("git config {}", shown(args)),
            });
        }
        if config::is_include(key) {
            return Err(Finding::ConfigInclude {
                setting: format!("git config {}", shown(args)),
            });
        }
        if key.eq_ignore_ascii_case("core.worktree") && self.husky_installed(false) {
            return Err(husky_left_behind(format!("git config {}", shown(args))));
        }
        if let Some(alias) = git_config::alias_name(key)
            && let Some(value) = write.value.and_then(Field::exact)
        {
            self.check_alias(alias, value)?;
            self.record_alias(args, alias, value);
        }
        // A command stored for git to run later (`core.pager`, a filter).
        if git_commands::runs_setting(key)
            && let Some(value) = write.value
        {
            self.git_runs(value.text.trim_start_matches('!'))?;
        }
        Ok(None)
    }

    /// Keeps an alias `git config` set where git keeps it, the repository's
    /// or the user's configuration, for a later `git <alias> <args>` of the
    /// command (`git config alias.c commit; git c -n`).
    fn record_alias(&mut self, args: &[Field<'_>], alias: &str, definition: &str) {
        let file = if args.iter().any(|arg| arg.text == "--global") {
            "~/.gitconfig"
        } else {
            ".git/config"
        };
        let before = self.file_text(file).unwrap_or_default();
        let quoted = definition.replace('\\', "\\\\").replace('"', "\\\"");
        let config = format!("{before}\n[alias]\n\t{alias} = \"{quoted}\"\n");
        self.record_written(file.to_owned(), false, Some(&config));
    }

    /// Walks a command git runs (a pager, an editor), and the commands an
    /// editor of a rebase's todo list may write into it for git to run.
    fn git_runs(&mut self, command: &str) -> Result<()> {
        self.child_source_if_shell(command)?;
        for todo in git_commands::todo_commands(command) {
            self.child_source_in(&todo, || {
                "The `exec` line an editor writes into a rebase's todo list".to_owned()
            })?;
        }
        Ok(())
    }

    /// What the command set in git's environment: a global or system
    /// configuration it wrote with core.hooksPath, the `settings` the
    /// environment gives (`environment_config`), and commands git runs.
    fn check_git_environment(&mut self, env: &Env, settings: &[(String, String)]) -> Result<()> {
        // Another configuration file git reads in place of the user's.
        let mut files = Vec::new();
        for name in ["GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM"] {
            files.extend(self.environment_value(env, name).map(|file| (name, file)));
        }
        if let Some(home) = self.environment_value(env, "HOME") {
            files.push(("HOME", format!("{home}/.gitconfig")));
            files.push(("HOME", format!("{home}/.config/git/config")));
        }
        if let Some(config) = self.environment_value(env, "XDG_CONFIG_HOME") {
            files.push(("XDG_CONFIG_HOME", format!("{config}/git/config")));
        }
        for (name, file) in files {
            let Some(content) = self.file_text(&file).map(str::to_owned) else {
                continue;
            };
            if content.to_ascii_lowercase().contains("hookspath") {
                return Err(Finding::HooksPath {
                    setting: format!("{name}={file}"),
                });
            }
            // Its aliases and the commands its settings run.
            if let Some(commands) = git_config::commands(&content) {
                self.child_source_in(&commands, || {
                    format!("The git configuration `{file}` that {name} names")
                })?;
            }
        }
        if !settings.is_empty() {
            self.child_source_in(&git_config::setting_commands(settings), || {
                ENVIRONMENT_CONFIG.to_owned()
            })?;
        }
        for name in git_commands::VARIABLES {
            if let Some(command) = self.environment_value(env, name) {
                self.git_runs(&command)?;
            }
        }
        Ok(())
    }

    /// The settings git takes from the command's environment
    /// ([`git_config::environment_settings`]).
    fn environment_config(&self, env: &Env) -> Vec<(String, String)> {
        git_config::environment_settings(|name| self.environment_value(env, name))
    }

    /// A variable as git sees it: assigned for this command, else set earlier.
    pub(super) fn environment_value(&self, env: &Env, name: &str) -> Option<String> {
        let assigned = env
            .assigned
            .iter()
            .rev()
            .find(|(assigned, _)| assigned == name);
        assigned
            .map(|(_, value)| value.clone())
            .or_else(|| self.variable(name).map(str::to_owned))
    }

    /// A git alias whose definition holds a bypass is refused where it is defined.
    fn check_alias(&mut self, alias: &str, definition: &str) -> Result<()> {
        let script = match definition.strip_prefix('!') {
            Some(shell) => shell.to_owned(),
            None => format!("git {definition}"),
        };
        self.child_source_if_shell(&script)
            .map_err(|inner| Finding::InAlias {
                alias: alias.to_owned(),
                inner: Box::new(inner),
            })
    }

    /// The variables a command runs with that the command set: those `env`
    /// assigns, then the shell's own that it passes on.
    fn environment<'a>(&'a self, env: &'a Env) -> impl Iterator<Item = (&'a str, &'a str)> {
        let assigned = env
            .assigned
            .iter()
            .map(|(name, value)| (name.as_str(), value.as_str()));
        let inherited = self
            .variables
            .iter()
            .filter(|_| !env.cleared)
            .filter(|variable| !env.unset.contains(&variable.name))
            .filter(|variable| !env.assigned.iter().any(|(name, _)| *name == variable.name))
            .map(|variable| (variable.name.as_str(), variable.value.as_str()));
        assigned.chain(inherited)
    }

    /// A hook-running git command told to read another user or system
    /// configuration, which drops a core.hooksPath set there, or to use
    /// another repository folder (`git_dir`, `GIT_DIR`, `GIT_COMMON_DIR`),
    /// where git looks for the hooks.
    fn check_config_location(
        &self,
        subcommand: &str,
        env: &Env,
        git_dir: Option<&str>,
    ) -> Result<()> {
        let command = || format!("git {subcommand}");
        if env.cleared {
            return Err(Finding::ConfigSwapped {
                change: "env -i".to_owned(),
                command: command(),
            });
        }
        if let Some(name) = env.unset.iter().find(|name| locates_config(name)) {
            return Err(Finding::ConfigSwapped {
                change: format!("env -u {name}"),
                command: command(),
            });
        }
        if let Some((name, value)) = self.environment(env).find(|(name, _)| locates_config(name)) {
            return Err(Finding::ConfigSwapped {
                change: format!("{name}={}", value.replace(UNKNOWN, "…")),
                command: command(),
            });
        }
        let elsewhere = |(name, value): &(&str, &str)| {
            *name == "GIT_COMMON_DIR" || (*name == "GIT_DIR" && !git::is_dot_git(value))
        };
        let change = git_dir.map(str::to_owned).or_else(|| {
            self.environment(env)
                .find(elsewhere)
                .map(|(name, value)| format!("{name}={value}"))
        });
        match change {
            Some(change) => Err(Finding::RepositorySwapped {
                change: change.replace(UNKNOWN, "…"),
                command: command(),
            }),
            None => Ok(()),
        }
    }

    /// Refuses a hook manager's off switch in the environment of a git
    /// command that runs hooks. Plain shell variables count as well as
    /// exported ones: assigning to a variable the environment already
    /// exports changes what the hook sees.
    fn check_hook_environment(&self, subcommand: &str, env: &Env) -> Result<()> {
        for (name, value) in self.environment(env) {
            if let Some(manager) = hook_env::switched_off_by(name, value) {
                return Err(Finding::HookVariable {
                    assignment: format!("{name}={}", value.replace(UNKNOWN, "…")),
                    manager,
                    command: format!("git {subcommand}"),
                });
            }
        }
        Ok(())
    }
}

impl Walker {
    /// Refuses a change to the programs the hooks of a git command run
    /// (`PATH=/tmp/f:$PATH git commit`, `export -f npx`), made by the
    /// command itself: a start-up file's `PATH` is what every later shell
    /// runs with. A `BASH_ENV` file this command wrote is let be when it
    /// can neither end a hook early nor stand in for what the hook runs.
    fn check_hook_programs(&self, subcommand: &str, env: &Env) -> Result<()> {
        if self.in_startup_file > 0 {
            return Ok(());
        }
        for (name, value) in self.environment(env) {
            let Some(changed) = hook_env::changes_hook_programs(name, value) else {
                continue;
            };
            let inert = name == "BASH_ENV"
                && self
                    .file_content(value)
                    .is_some_and(|text| !hook_env::may_change_a_hook(text));
            let function = name
                .strip_prefix("BASH_FUNC_")
                .and_then(|rest| rest.strip_suffix("%%"));
            if !inert {
                return Err(Finding::HookPrograms {
                    assignment: match function {
                        Some(function) => format!("export -f {function}"),
                        None => format!("{name}={}", value.replace(UNKNOWN, "…")),
                    },
                    changed,
                    command: format!("git {subcommand}"),
                });
            }
        }
        Ok(())
    }
}

/// Whether `git restore` or `git checkout` puts files from another commit
/// than the index in place: `--source`, or a commit before `--`.
fn restores_from_elsewhere(subcommand: &str, args: &[Field<'_>]) -> bool {
    if subcommand == "restore" {
        return args.iter().any(|arg| {
            matches!(&*arg.text, "-s" | "--source")
                || arg.text.starts_with("--source=")
                || (arg.text.starts_with("-s") && !arg.text.starts_with("--"))
        });
    }
    let mut before_paths = args.iter().take_while(|arg| arg.text != "--");
    args.iter().any(|arg| arg.text == "--") && before_paths.any(|arg| !arg.text.starts_with('-'))
}

/// A command that has git work in another working tree than the
/// repository's: husky's core.hooksPath, `.husky/_`, is read there, where
/// nothing installed the hooks.
fn husky_left_behind(command: String) -> Finding {
    Finding::CommitsUnverified {
        command,
        how: "has git work in another working tree, where husky's `.husky/_` (core.hooksPath, \
              read relative to the working tree) is not installed"
            .to_owned(),
        fix: "Run git in the repository's own working tree",
    }
}

/// Whether `git clean ARGS` removes ignored files (`-x`, `-X`) where husky
/// keeps the hooks core.hooksPath points at: `.husky/_` ignores all it
/// holds. It does unless it is a dry run, `-e` keeps `.husky`, or every
/// path it is given is a plain folder other than `.husky`.
fn clean_removes_husky(args: &[Field<'_>]) -> bool {
    let mut flags = String::new();
    let mut paths = Vec::new();
    let mut keeps_husky = false;
    let mut index = 0;
    while let Some(arg) = args.get(index) {
        index += 1;
        let text = &*arg.text;
        let excluded = match text {
            "-e" | "--exclude" => {
                index += 1;
                args.get(index - 1).map(|value| &*value.text)
            }
            _ => text
                .strip_prefix("--exclude=")
                .or_else(|| text.strip_prefix("-e").filter(|value| !value.is_empty())),
        };
        if let Some(pattern) = excluded {
            keeps_husky |= pattern.trim_start_matches("./").starts_with(".husky");
        } else if let Some(short) = text.strip_prefix('-').filter(|rest| !rest.starts_with('-')) {
            flags.push_str(short);
        } else if matches!(text, "--force" | "--dry-run" | "--interactive") {
            flags.push(match text {
                "--force" => 'f',
                "--dry-run" => 'n',
                _ => 'i',
            });
        } else if !text.starts_with('-') {
            paths.push(text);
        }
    }
    let plain_folder = |path: &&str| {
        !path.starts_with(['.', ':', '/']) && !path.contains(['*', '?', '[', UNKNOWN])
    };
    // `-i` cleans what is typed into its menu (`c`, in Codex's terminal).
    flags.contains(['f', 'i'])
        && flags.contains(['x', 'X'])
        && !flags.contains('n')
        && !keeps_husky
        && (paths.is_empty() || !paths.iter().all(plain_folder))
}

impl Walker {
    /// Checks an assignment: [`check_assignment`], and the command its
    /// value holds when programs run it (`PAGER='git commit -n' man ls`).
    pub(super) fn check_assignment(&mut self, name: &str, value: &str) -> Result<()> {
        check_assignment(name, value)?;
        match shell_reader::runners::command_in_variable(name, value) {
            Some(command) => self.child_source_in(command, || format!("`{name}`")),
            None => Ok(()),
        }
    }

    /// Whether husky's hooks may be installed in the folder git works in:
    /// `.husky/_` holds one of husky's files there, or the gate cannot look
    /// (it reads no files, does not know the folder, or git works
    /// `elsewhere`). Ignored files that git removes or stashes are husky's
    /// hooks only then.
    fn husky_installed(&self, elsewhere: bool) -> bool {
        const HUSKY_FILES: [&str; 3] = [".husky/_/h", ".husky/_/husky.sh", ".husky/_/.gitignore"];
        !self.reads_disk
            || elsewhere
            || HUSKY_FILES.iter().any(|file| {
                self.file_text(file).is_some() || self.disk.unlocated(self.folder.as_deref(), file)
            })
    }

    /// Whether `remote` is a remote whose URL is a folder on this machine:
    /// one the command added so, or one the configuration of the
    /// `repository` (the shell's folder when none) gives so on disk.
    fn remote_is_local(&mut self, repository: Option<&str>, remote: &str) -> bool {
        if self.local_remotes.iter().any(|added| added == remote) {
            return true;
        }
        let key = format!("remote.{remote}.url");
        let folder = repository.map_or_else(String::new, |folder| format!("{folder}/"));
        ["config", ".git/config"].iter().any(|file| {
            let entries = self
                .file_text(&format!("{folder}{file}"))
                .and_then(git_config::entries);
            entries
                .into_iter()
                .flatten()
                .any(|entry| entry.key == key && names_a_folder(&entry.value))
        })
    }

    /// Whether a `cd` took the shell out of the folder the command started
    /// in, or somewhere the gate cannot tell (`cd ../remote.git`): a
    /// repository there is another one.
    fn moved_out(&self) -> bool {
        self.folder
            .as_deref()
            .is_none_or(|folder| folder.starts_with(['/', '~']) || folder.starts_with(".."))
    }
}

/// Whether `git fetch` or `git pull`, run in another repository, takes
/// from a folder on this machine (a path, `file://`, or one the gate cannot
/// know, as `"$PWD"`) into a branch: `pull` always, `fetch` for a refspec
/// with a destination outside `refs/remotes/` and `refs/tags/`.
fn pulls_from_a_folder(
    subcommand: &str,
    args: &[Field<'_>],
    mut remote_is_local: impl FnMut(&str) -> bool,
) -> bool {
    let mut operands = args
        .iter()
        .map(|arg| &*arg.text)
        .filter(|word| !word.starts_with('-'));
    let Some(source) = operands.next() else {
        return false;
    };
    (names_a_folder(source) || remote_is_local(source))
        && (subcommand == "pull"
            || operands.any(|refspec| {
                refspec.split_once(':').is_some_and(|(from, to)| {
                    !from.is_empty()
                        && !to.is_empty()
                        && !to.starts_with("refs/remotes/")
                        && !to.starts_with("refs/tags/")
                })
            }))
}

/// Whether a repository's URL is a folder on this machine: a path,
/// `file://`, or one the gate cannot know (`"$PWD"`).
fn names_a_folder(url: &str) -> bool {
    url.starts_with(['/', '.', '~']) || url.starts_with("file://") || url.contains(UNKNOWN)
}

/// The remote `git remote add NAME URL` (or `set-url`) gives a folder on
/// this machine as its URL.
fn local_remote_added(args: &[Field<'_>]) -> Option<String> {
    let (action, rest) = args.split_first()?;
    if !matches!(&*action.text, "add" | "set-url") {
        return None;
    }
    let mut operands = files::operands(rest, &["-t", "-m", "--track", "--master"]);
    let (name, url) = (operands.next()?, operands.next()?);
    names_a_folder(&url.text).then(|| name.text.to_string())
}

/// Whether `git clone`'s source is the repository it runs in (`.`, `./.git`,
/// `file://.`).
fn clones_this_repository(args: &[Field<'_>]) -> bool {
    const VALUED: &[&str] = &[
        "-b",
        "--branch",
        "-o",
        "--origin",
        "-c",
        "--config",
        "--depth",
        "--template",
        "--reference",
        "--separate-git-dir",
        "-u",
        "--upload-pack",
        "-j",
        "--jobs",
        "--filter",
        "--shallow-since",
        "--shallow-exclude",
        "--server-option",
        "--bundle-uri",
    ];
    let mut words = args.iter().map(|arg| &*arg.text);
    while let Some(word) = words.next() {
        if VALUED.contains(&word) {
            words.next();
        } else if !word.starts_with('-') {
            let source = word.strip_prefix("file://").unwrap_or(word);
            let source = source.trim_end_matches('/');
            let source = source.strip_suffix("/.git").unwrap_or(source);
            return matches!(source, "." | "" | ".git" | "./.git");
        }
    }
    false
}

/// Whether `git replace args` writes a replacement object: `--edit`,
/// `--graft`, `--convert-graft-file`, or an object and its replacement
/// (not `--list`, `--delete`, or no operands, which list).
fn replace_writes(args: &[Field<'_>]) -> bool {
    let words: Vec<&str> = args.iter().map(|arg| &*arg.text).collect();
    if words
        .iter()
        .any(|word| matches!(*word, "-d" | "--delete" | "-l" | "--list"))
    {
        return false;
    }
    words.iter().any(|word| {
        matches!(
            *word,
            "-e" | "--edit" | "-g" | "--graft" | "--convert-graft-file"
        )
    }) || words.iter().filter(|word| !word.starts_with('-')).count() >= 2
}

/// Whether `git hash-object` writes a commit object (`-t commit -w`), as
/// `git commit-tree` does, for `git reset --soft` or `update-ref` to put on
/// a branch.
fn writes_commit_object(args: &[Field<'_>]) -> bool {
    let texts: Vec<&str> = args.iter().map(|arg| &*arg.text).collect();
    let typed_commit = texts.windows(2).any(|pair| pair == ["-t", "commit"])
        || texts
            .iter()
            .any(|text| matches!(*text, "-tcommit" | "--type=commit"));
    typed_commit && texts.contains(&"-w")
}

/// Whether `git filter-branch` or `git filter-repo` is given a filter or
/// callback that changes files or messages: a tree, index, message, commit
/// or parent filter, a callback, text replacement. Author changes
/// (`--env-filter`, name and email callbacks), renames and paths kept or
/// dropped pass.
fn rewrites_content(args: &[Field<'_>]) -> bool {
    const REWRITING: &[&str] = &[
        "--tree-filter",
        "--index-filter",
        "--msg-filter",
        "--commit-filter",
        "--parent-filter",
        "--replace-text",
        "--replace-message",
    ];
    args.iter().any(|arg| {
        let option = arg.text.split('=').next().unwrap_or_default();
        let renames = matches!(
            option,
            "--name-callback" | "--email-callback" | "--refname-callback"
        );
        REWRITING.contains(&option)
            || (option.starts_with("--") && option.ends_with("-callback") && !renames)
    })
}

/// Variables that tell git which user and system configuration to read,
/// where core.hooksPath may be set.
fn locates_config(name: &str) -> bool {
    matches!(
        name,
        "HOME"
            | "XDG_CONFIG_HOME"
            | "GIT_CONFIG_GLOBAL"
            | "GIT_CONFIG_SYSTEM"
            | "GIT_CONFIG_NOSYSTEM"
    )
}

/// What `git rev-parse` prints, so that `rm -rf "$(git rev-parse
/// --git-dir)/hooks"` is read as `.git/hooks` and `git push origin "$(git
/// rev-parse --abbrev-ref HEAD)"` as a push of `HEAD`. A revision prints as
/// the name it was given, which git reads as the same commit or branch.
/// None, an output the gate cannot know, for a word it cannot read or an
/// option it does not model: rev-parse prints some options back.
fn rev_parse_output(args: &[Field<'_>]) -> Option<String> {
    let mut out = String::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let line = match word.exact()? {
            "--git-dir" | "--git-common-dir" | "--absolute-git-dir" => ".git".to_owned(),
            "--git-path" => format!(".git/{}", words.next().map_or("", |path| &*path.text)),
            "--show-toplevel" => ".".to_owned(),
            option if prints_revision_as(option) => continue,
            revision if !revision.starts_with('-') => revision.to_owned(),
            _ => return None,
        };
        out.push_str(&line);
        out.push('\n');
    }
    (!out.is_empty()).then_some(out)
}

/// What `git symbolic-ref [--short] HEAD` and `git branch --show-current`
/// print, as the name git reads as the same branch: `HEAD`.
fn branch_name_output(subcommand: &str, args: &[Field<'_>]) -> Option<String> {
    let mut words = args.iter().map(Field::exact);
    let shows_branch = match subcommand {
        "branch" => words.eq([Some("--show-current")]),
        _ => words.all(|word| {
            matches!(
                word,
                Some("HEAD" | "--short" | "-q" | "--quiet" | "--no-recurse")
            )
        }),
    };
    shows_branch.then(|| "HEAD\n".to_owned())
}

/// `git rev-parse` options that change only how a revision is printed.
fn prints_revision_as(option: &str) -> bool {
    matches!(
        option,
        "--verify" | "-q" | "--quiet" | "--abbrev-ref" | "--symbolic" | "--symbolic-full-name"
    ) || option == "--short"
        || option.starts_with("--short=")
}
