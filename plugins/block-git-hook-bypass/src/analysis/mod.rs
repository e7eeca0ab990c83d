//! Walks a parsed command in the order the shell would run it, tracking what
//! later commands depend on: variables, functions, files written, the
//! directory, and what each command prints; scripts it runs but did not
//! write are read from disk (`shell_reader::disk`).

use crate::prelude::*;

mod commands;
mod committers;
mod execs;
mod expand;
pub(crate) mod files;
mod find_selects;
mod git_call;
mod interpreters;
mod run;
mod simple;
mod variables;
mod wrappers;

use crate::field::{Field, UNKNOWN, shown};
use crate::finding::Finding;
use crate::shell::{self, Command, Compound, List, Pipeline, Program};
use shell_reader::disk::{self, Disk, ReadFile};
use shell_reader::git_config;
use variables::Variables;

type Result<T> = core::result::Result<T, Finding>;

/// How deep strings re-read as shell (`sh -c`, `eval`, backquotes, aliases)
/// and function calls may nest before the gate stops following them.
const MAX_DEPTH: u32 = 12;

/// How many values of a `for` list are walked one by one.
const MAX_LOOP_VALUES: usize = 4;

/// How many commands one analysis walks before it gives up: loops and
/// function calls can multiply a short text into exponentially many.
const MAX_STEPS: u32 = 20_000;
/// Commands each line of a script read from disk adds to [`MAX_STEPS`]:
/// enough for a long installer that calls its functions from many places
/// (`n`, 1,700 lines, needs 16), and still bounded.
pub(crate) const SCRIPT_LINE_STEPS: u32 = 32;

/// How deep commands may nest across substitutions, compound commands and
/// strings read again as shell, so that the walk stays within the stack.
const MAX_NESTING: u32 = 96;

/// The first bypass in `command`, if there is one, reading no file on disk.
///
/// A command whose reading met values the gate cannot know is read a second
/// time with those values empty, as an unset variable is: `--no-verify$x`
/// then reads as the `--no-verify` it runs as.
pub fn find_bypass(command: &str) -> Option<Finding> {
    first_bypass(command, 0, None)
}

/// [`find_bypass`] for a command run in a shell that starts in `start`'s
/// folder, whose scripts on disk (`bash notes.txt`, `./run`, `source
/// env.sh`, `python3 tool.py`) are read with `read` as the commands they run.
pub fn find_bypass_on_disk(
    command: &str,
    start: impl FnOnce() -> Option<String>,
    read: ReadFile,
) -> Option<Finding> {
    first_bypass(command, 0, Some((Box::new(start), read)))
}

/// The first bypass a later shell's `git commit` meets after the start-up
/// file `text` (a shell's, husky's `init.sh`) ran.
pub fn find_bypass_after_startup(text: &str) -> Option<Finding> {
    first_bypass(&format!("{text}\ngit commit"), 1, None)
}

/// Where a command starts, asked only when a relative script path needs it,
/// and how its scripts are read.
type OnDisk<'s> = (Box<dyn FnOnce() -> Option<String> + 's>, ReadFile);

fn first_bypass(
    command: &str,
    in_startup_file: u32,
    on_disk: Option<OnDisk<'_>>,
) -> Option<Finding> {
    let (mut start, read) = match on_disk {
        Some((start, read)) => (Some(start), Some(read)),
        None => (None, None),
    };
    let walker = |disk, unknown_is_empty| Walker {
        in_startup_file,
        unknown_is_empty,
        reads_disk: read.is_some(),
        // The folder the command starts in, in `disk::locate`'s form.
        folder: Some(String::new()),
        disk,
        ..Walker::default()
    };
    // The start folder, asked once, when a relative script path first needs it.
    let mut start_folder = None;
    let mut start_folder = || {
        start_folder
            .get_or_insert_with(|| start.take().and_then(|start| start()))
            .clone()
    };
    let mut first = walker(Disk::default(), false);
    let mut rounds = 0;
    let finding = loop {
        let finding = first.source(command).err();
        let Some(read) = read.filter(|_| finding.is_none() && rounds < disk::MOST_ROUNDS) else {
            break finding;
        };
        if !first.disk.read_wanted(&mut start_folder, read) {
            break None;
        }
        rounds += 1;
        first = walker(core::mem::take(&mut first.disk), false);
    };
    if finding.is_some() || !first.met_unknown {
        return finding;
    }
    let mut empty = walker(first.disk, true);
    let finding = empty.source(command).err()?;
    Some(Finding::WithUnknownEmpty(Box::new(finding)))
}

#[derive(Default)]
struct Walker {
    variables: Variables,
    /// `$1`, `$2`, … when known.
    positional: Option<Vec<Field<'static>>>,
    /// `$0` when known: the name `sh -c 'script' name …` gives the script.
    arg0: Option<String>,
    /// Shell aliases defined so far, name and value, in definition order.
    aliases: Vec<(String, String)>,
    /// What a group or loop reads on standard input (`… | { read x; }`,
    /// `while read x; do …; done <<< …`), for the first `read` inside it.
    group_stdin: Option<String>,
    /// Function bodies being walked, one inside another.
    in_function: u32,
    /// Files this command writes, with what it writes to them.
    written_files: Vec<(String, String)>,
    /// Scripts the command runs that it did not write are read from disk.
    reads_disk: bool,
    /// Where the shell is, in `disk::locate`'s form, when the gate can tell.
    folder: Option<String>,
    /// Scripts on disk the command runs.
    disk: Disk,
    /// Scripts read from disk being walked, one inside another (located).
    disk_scripts: Vec<String>,
    /// The strings of interpreter code are being walked as commands: a
    /// string taken for a script's path may be prose or an option list, so
    /// one the host cannot read is let be rather than refused.
    in_code_strings: bool,
    /// Commands the walk may take past [`MAX_STEPS`]: a script on disk is
    /// long by nature, and calls its functions from many places, so each of
    /// its lines adds [`SCRIPT_LINE_STEPS`].
    script_steps: u32,
    /// The hooks or git directory the command has changed into, if it has.
    dir: Option<Dir>,
    /// The hooks or git directory a `cd` of the and-or list being walked
    /// left: the shell is still there when that `cd` failed or did not run
    /// (`false && cd /tmp; rm pre-commit`), which only the pipelines after
    /// `&&` rule out.
    left_dir: Option<Dir>,
    depth: u32,
    /// Commands being walked, one inside another.
    nesting: u32,
    /// Commands walked so far.
    steps: u32,
    /// Set just before [`Walker::run`] for a command whose output nothing
    /// reads, and taken by it at once.
    output_unread: bool,
    /// An expansion met a value the gate cannot know.
    met_unknown: bool,
    /// Values the gate cannot know expand to nothing (the second reading).
    unknown_is_empty: bool,
    /// Start-up files being read as the git commands of later shells see
    /// them, which set `PATH` and the like for every later program by design.
    in_startup_file: u32,
    /// A `umask` set earlier takes the execute bit off the files made after
    /// it (`umask 777`): a hook copied or moved into place then does not run.
    umask_strips_execute: bool,
    /// Remotes the command added with a folder on this machine as their
    /// URL (`git remote add src "$PWD"`).
    local_remotes: Vec<String>,
}

/// Shell state a subshell gets a copy of and the parent keeps.
struct Snapshot {
    mark: usize,
    positional: Option<Vec<Field<'static>>>,
    arg0: Option<String>,
    dir: Option<Dir>,
    left_dir: Option<Dir>,
    folder: Option<String>,
}

/// A directory changed into that gives relative paths a meaning for the
/// gate: `cd .husky && rm pre-commit`, `cd .git && rm config`.
#[derive(Clone)]
struct Dir {
    /// As the command wrote it, for the refusal.
    shown: String,
    /// A `.git` directory, else a hooks directory.
    git: bool,
}

/// What one parsed program holds for the commands inside it.
struct Frame<'p> {
    program: &'p Program<'p>,
    functions: Vec<FunctionEntry<'p>>,
    /// Emptied argument vectors, reused so that each command does not allocate one.
    spare_argv: Vec<Vec<Field<'p>>>,
}

struct FunctionEntry<'p> {
    name: &'p str,
    body: &'p Command<'p>,
    called: bool,
    running: bool,
}

impl Walker {
    /// Reads `text` as shell and walks it; returns what it prints when known.
    fn source(&mut self, text: &str) -> Result<Option<String>> {
        if let Some((path, why)) = disk::unread_in(text) {
            return Err(Finding::InputUnread {
                path: path.to_owned(),
                why: why.to_owned(),
            });
        }
        self.depth += 1;
        let result = if self.depth > MAX_DEPTH {
            Err(unreadable(
                "shells and substitutions nest too deep to follow",
            ))
        } else {
            match shell::parse(text) {
                Ok(program) => self.program(&program),
                // A script on disk builds strings the gate cannot always
                // read back (see [`Walker::script_source`]).
                Err(_) if !self.disk_scripts.is_empty() => Ok(None),
                Err(error) => Err(Finding::Unreadable {
                    problem: error.to_string(),
                    syntax: true,
                }),
            }
        };
        self.depth -= 1;
        result
    }

    /// Walks `text` in a child shell, which leaves this one's state alone.
    fn child_source(
        &mut self,
        text: &str,
        positional: Option<Vec<Field<'static>>>,
    ) -> Result<Option<String>> {
        self.in_child(positional, |walker| walker.source(text))
    }

    /// Runs `walk` as a child shell given `positional` (else this shell's),
    /// which leaves this one's state alone.
    fn in_child<T>(
        &mut self,
        positional: Option<Vec<Field<'static>>>,
        walk: impl FnOnce(&mut Self) -> T,
    ) -> T {
        let saved = self.snapshot();
        if positional.is_some() {
            self.positional = positional;
        }
        let output = walk(self);
        self.restore(saved);
        output
    }

    /// Walks `text` in a child shell when it reads as shell: text that may
    /// be something else (a string in python code, a pager setting, what
    /// tmux is handed) runs nothing the gate can follow. Past the gate's
    /// limits it is refused all the same.
    fn child_source_if_shell(&mut self, text: &str) -> Result<()> {
        match self.child_source(text, None) {
            Ok(_) | Err(Finding::Unreadable { syntax: true, .. }) => Ok(()),
            Err(finding) => Err(finding),
        }
    }

    /// [`Walker::child_source_if_shell`], a finding named as what `code`
    /// runs (`The script written to …`).
    fn child_source_in(&mut self, text: &str, code: impl FnOnce() -> String) -> Result<()> {
        self.child_source_if_shell(text)
            .map_err(|inner| inner.in_code(code()))
    }

    fn program<'p>(&mut self, program: &'p Program<'p>) -> Result<Option<String>> {
        let mut frame = Frame {
            program,
            functions: Vec::new(),
            spare_argv: Vec::new(),
        };
        let output = self.list(&mut frame, program.list)?;
        // A function defined and never called may be called later from the
        // same shell session: its body counts.
        let mut index = 0;
        while index < frame.functions.len() {
            if !frame.functions.get(index).is_some_and(|entry| entry.called) {
                self.call_function(&mut frame, index, None)?;
            }
            index += 1;
        }
        Ok(output)
    }

    fn list<'p>(&mut self, frame: &mut Frame<'p>, list: List) -> Result<Option<String>> {
        let pipelines = frame.program.pipelines(list);
        let mut output = None;
        for (index, pipeline) in pipelines.iter().enumerate() {
            if pipeline.joined != shell::Joined::And {
                self.back_where_a_cd_failed();
            }
            // A list's output is its last pipeline's: what the others print
            // is never read.
            let unread = index + 1 < pipelines.len();
            output = self.pipeline(frame, pipeline, unread)?;
        }
        self.back_where_a_cd_failed();
        Ok(output)
    }

    /// Walks a pipeline; `unread` when nothing reads what it prints.
    fn pipeline<'p>(
        &mut self,
        frame: &mut Frame<'p>,
        pipeline: &'p Pipeline<'p>,
        unread: bool,
    ) -> Result<Option<String>> {
        // Most pipelines are one command, with nothing piped in.
        if let [command] = &*pipeline.commands {
            return self.command(frame, command, None, unread);
        }
        let mut piped = None;
        let last = pipeline.commands.len().saturating_sub(1);
        for (index, command) in pipeline.commands.iter().enumerate() {
            if index < last {
                // Each command of a pipeline but the last runs in a subshell.
                let saved = self.snapshot();
                let output = self.command(frame, command, piped.as_deref(), false);
                self.restore(saved);
                piped = output?;
            } else {
                // bash runs the last one in a subshell too, zsh in the shell
                // itself: the hooks directory either left counts.
                let before = self.dir.clone();
                piped = self.command(frame, command, piped.as_deref(), unread)?;
                if self.dir.is_none() {
                    self.dir = before;
                }
            }
        }
        Ok(piped)
    }

    fn command<'p>(
        &mut self,
        frame: &mut Frame<'p>,
        command: &'p Command<'p>,
        input: Option<&str>,
        unread: bool,
    ) -> Result<Option<String>> {
        self.steps += 1;
        if self.steps > MAX_STEPS.saturating_add(self.script_steps) {
            return Err(unreadable("it runs more commands than the gate follows"));
        }
        if self.nesting >= MAX_NESTING {
            return Err(unreadable("commands nest too deep to follow"));
        }
        self.nesting += 1;
        let output = self.command_inner(frame, command, input, unread);
        self.nesting -= 1;
        output
    }

    fn command_inner<'p>(
        &mut self,
        frame: &mut Frame<'p>,
        command: &'p Command<'p>,
        input: Option<&str>,
        unread: bool,
    ) -> Result<Option<String>> {
        match command {
            Command::Simple(simple) => self.simple(frame, simple, input, unread),
            Command::Compound(compound) => {
                let stdin = self.stdin(frame, &compound.redirects, input)?;
                let outer = core::mem::replace(&mut self.group_stdin, stdin);
                let output = self.compound(frame, compound);
                self.group_stdin = outer;
                output
            }
            Command::Function(function) => {
                frame.functions.push(FunctionEntry {
                    name: &function.name,
                    body: &function.body,
                    called: false,
                    running: false,
                });
                Ok(Some(String::new()))
            }
        }
    }

    fn compound<'p>(
        &mut self,
        frame: &mut Frame<'p>,
        compound: &'p Compound<'p>,
    ) -> Result<Option<String>> {
        let saved = compound.subshell.then(|| self.snapshot());
        let mut values = Vec::new();
        for word in frame.program.words(compound.words) {
            self.expand_into(frame, word, &mut values)?;
        }
        let mut output = None;
        match compound.loop_variable {
            Some(name) if (1..=MAX_LOOP_VALUES).contains(&values.len()) => {
                for value in values {
                    self.set_variable(name, value.text.into_owned());
                    output = self.lists(frame, &compound.lists)?;
                }
            }
            Some(name) => {
                self.set_variable(name, UNKNOWN.to_string());
                output = self.lists(frame, &compound.lists)?;
            }
            None => output = self.lists(frame, &compound.lists)?,
        }
        self.redirects(frame, &compound.redirects, output.as_deref(), &[])?;
        if let Some(saved) = saved {
            self.restore(saved);
        }
        Ok(output)
    }

    fn lists(&mut self, frame: &mut Frame<'_>, lists: &[List]) -> Result<Option<String>> {
        let mut output = None;
        for list in lists {
            output = self.list(frame, *list)?;
        }
        Ok(output)
    }

    /// Runs a function's body with `args` as its positional parameters; a
    /// function already running is not entered again.
    fn call_function(
        &mut self,
        frame: &mut Frame<'_>,
        index: usize,
        args: Option<Vec<Field<'static>>>,
    ) -> Result<Option<String>> {
        let Some(entry) = frame.functions.get_mut(index) else {
            return Ok(None);
        };
        if entry.running || self.depth >= MAX_DEPTH {
            return Ok(None);
        }
        entry.called = true;
        entry.running = true;
        let body = entry.body;
        let saved = core::mem::replace(&mut self.positional, args);
        self.depth += 1;
        self.in_function += 1;
        let output = self.command(frame, body, None, false);
        self.in_function -= 1;
        self.depth -= 1;
        self.positional = saved;
        if let Some(entry) = frame.functions.get_mut(index) {
            entry.running = false;
        }
        output
    }

    fn snapshot(&mut self) -> Snapshot {
        Snapshot {
            mark: self.variables.open(),
            positional: self.positional.clone(),
            arg0: self.arg0.clone(),
            dir: self.dir.clone(),
            left_dir: self.left_dir.clone(),
            folder: self.folder.clone(),
        }
    }

    fn restore(&mut self, saved: Snapshot) {
        self.variables.close(saved.mark);
        self.positional = saved.positional;
        self.arg0 = saved.arg0;
        self.dir = saved.dir;
        self.left_dir = saved.left_dir;
        self.folder = saved.folder;
    }

    /// Where a failed `cd` left the shell, once no `&&` rules it out.
    fn back_where_a_cd_failed(&mut self) {
        if let Some(left) = self.left_dir.take() {
            self.dir = Some(left);
        }
    }

    /// The folders `cd DIR` may enter: DIR, and for a name that does not
    /// start with `/`, `.` or `..`, DIR under each of `CDPATH`'s folders
    /// (`cdpath` when the command sets it), which `cd` tries first.
    fn folders_entered<'d>(
        &self,
        dir: &'d str,
        cdpath: Option<&str>,
    ) -> impl Iterator<Item = String> + 'd {
        let searched = !dir.starts_with(['/', '~'])
            && !matches!(dir, "." | "..")
            && !dir.starts_with("./")
            && !dir.starts_with("../");
        let cdpath = cdpath
            .or_else(|| self.variable("CDPATH"))
            .filter(|_| searched)
            .unwrap_or_default();
        let under_cdpath: Vec<String> = cdpath
            .split(':')
            .filter(|folder| !folder.is_empty())
            .map(|folder| format!("{}/{dir}", folder.trim_end_matches('/')))
            .collect();
        under_cdpath
            .into_iter()
            .chain(core::iter::once(dir.to_owned()))
    }

    fn within(&self) -> files::Within {
        match &self.dir {
            Some(Dir { git: true, .. }) => files::Within::GitDir,
            Some(_) => files::Within::HooksDir,
            None => files::Within::Elsewhere,
        }
    }

    /// What `patch`, `git apply` or `git am` does to hooks when it is
    /// handed a diff (on its standard input, or in a file the command wrote)
    /// whose headers name a hook, a hook manager's file or git's
    /// configuration (read as given and with `a/`/`b/` taken off), or a hook
    /// manager's configuration its added lines switch off.
    fn patches_hooks(
        &self,
        name: &str,
        argv: &[Field<'_>],
        stdin: Option<&str>,
    ) -> Option<Finding> {
        let args = argv.get(1..).unwrap_or_default();
        let applies = name == "patch"
            || (name == "git" && args.iter().any(|arg| matches!(&*arg.text, "apply" | "am")));
        if !applies {
            return None;
        }
        let within = self.within();
        // `patch FILE`: the file patched, whatever the diff's headers name.
        if name == "patch"
            && let Some(file) = files::operands(args, PATCH_OPTIONS_WITH_VALUE).next()
            && files::is_hook_path(&file.text, within)
        {
            return Some(self.hook_files(shown(argv), "patches"));
        }
        // `patch -d DIR`, `git apply --directory=DIR`: the headers' paths
        // under DIR.
        let folder = shell_reader::runners::option_values(args, &["-d", "--directory"])
            .first()
            .copied();
        if folder
            .is_some_and(|folder| files::is_hook_path(folder, within) || files::holds_hooks(folder))
        {
            return Some(self.hook_files(shown(argv), "patches"));
        }
        let files = args.iter().filter_map(|arg| self.file_content(&arg.text));
        for diff in stdin.into_iter().chain(files) {
            for named in shell_reader::diffs::header_paths(diff) {
                let under = folder.map(|folder| format!("{folder}/{named}"));
                let under_stripped = folder
                    .map(|folder| format!("{folder}/{}", shell_reader::diffs::stripped(&named, 1)));
                for path in [named.as_str(), shell_reader::diffs::stripped(&named, 1)]
                    .into_iter()
                    .chain(under.as_deref())
                    .chain(under_stripped.as_deref())
                {
                    let command = format!("{} (a diff of {path})", shown(argv));
                    if self.is_config_file(path) {
                        return Some(self.config_files(command, "patches"));
                    }
                    if files::is_hook_path(path, within)
                        || files::holds_hooks(path)
                        || files::switches_hooks_off(path, diff)
                    {
                        return Some(self.hook_files(command, "patches"));
                    }
                }
            }
        }
        None
    }

    /// Whether `path` is one of git's configuration files, `config` itself
    /// when the command changed into a `.git` directory.
    fn is_config_file(&self, path: &str) -> bool {
        git_config::is_file(path)
            || self.dir.as_ref().is_some_and(|dir| {
                dir.git && matches!(files::normalize(path), "config" | "config.worktree")
            })
    }

    /// The command as run, after the `cd` that gives its relative paths
    /// their meaning.
    fn in_dir(&self, command: String) -> String {
        match &self.dir {
            Some(dir) => format!("cd {} && {command}", dir.shown),
            None => command,
        }
    }

    /// A hook-file finding, naming the hooks directory a relative path is in.
    fn hook_files(&self, command: String, effect: &'static str) -> Finding {
        Finding::HookFiles {
            command: self.in_dir(command),
            effect,
        }
    }

    /// A finding for a change to git's configuration files.
    fn config_files(&self, command: String, effect: &'static str) -> Finding {
        Finding::ConfigFiles {
            command: self.in_dir(command),
            effect,
        }
    }

    fn variable(&self, name: &str) -> Option<&str> {
        self.variables.get(name)
    }

    fn set_variable(&mut self, name: &str, value: String) {
        self.variables.set(name, value);
    }

    fn unset_variable(&mut self, name: &str) {
        self.variables.unset(name);
    }
}

/// Options of `patch` that take their value as the next word.
const PATCH_OPTIONS_WITH_VALUE: &[&str] = &[
    "-i",
    "--input",
    "-o",
    "--output",
    "-d",
    "--directory",
    "-p",
    "-D",
    "--ifdef",
    "-r",
    "--reject-file",
    "-B",
    "--prefix",
    "-F",
    "--fuzz",
    "-z",
    "--suffix",
    "-V",
    "--version-control",
];

/// A command past the gate's limits.
fn unreadable(problem: &str) -> Finding {
    Finding::Unreadable {
        problem: problem.to_owned(),
        syntax: false,
    }
}

#[cfg(test)]
mod tests;
