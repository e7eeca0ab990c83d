//! Walks a shell command in the order it runs, tracking what later words
//! depend on (variables, the working folder), and hands every command with
//! its expanded words to [`crate::commands`].

use crate::prelude::*;

use shell_reader::disk::Disk;
use shell_reader::field::{UNKNOWN, UNKNOWN_TEXT};
use shell_reader::shell::{
    self, AssignedValue, Command, Compound, Joined, List, Program, RedirectKind,
};
use shell_reader::{git_config, runners};

use core::cell::OnceCell;

use crate::paths::resolve;
use crate::protected::{Change, Protected};
use crate::startup;

/// How deep strings read again as shell (`sh -c`, `eval`, substitutions) may nest.
pub(crate) const MAX_DEPTH: u32 = 12;
/// How many commands one call walks before it is refused as too large.
const MAX_STEPS: u32 = 20_000;
/// Commands each line of a script read from disk adds to [`MAX_STEPS`]:
/// enough for a long installer that calls its functions from many places
/// (`n`, 1,700 lines, needs 16), and still bounded.
pub(crate) const SCRIPT_LINE_STEPS: u32 = 32;
/// How many values of a `for` list are walked one by one.
const MAX_LOOP_VALUES: usize = 8;
/// How deep function calls are followed into functions.
const MOST_FUNCTION_DEPTH: u32 = 4;

/// A refusal's reason.
pub type Refusal = String;
pub type Result<T> = core::result::Result<T, Refusal>;

/// The folder a tool call runs in. The payload's `cwd` is read only when a
/// walk first needs it (most commands name no path that must be resolved,
/// and reading it means reading the whole payload), and then once for every
/// walk of the call.
pub struct Cwd<'p> {
    payload: &'p str,
    folder: OnceCell<String>,
}

impl<'p> Cwd<'p> {
    /// The `cwd` of `payload`, the event's payload as JSON.
    pub fn of_payload(payload: &'p str) -> Self {
        Cwd {
            payload,
            folder: OnceCell::new(),
        }
    }

    /// `folder`, or unknown when it is empty.
    pub fn known(folder: &str) -> Self {
        let folder = if folder.is_empty() {
            UNKNOWN_TEXT.to_owned()
        } else {
            folder.to_owned()
        };
        Cwd {
            payload: "",
            folder: OnceCell::from(folder),
        }
    }

    pub fn get(&self) -> &str {
        self.folder.get_or_init(|| crate::payload_cwd(self.payload))
    }
}

pub struct Walker<'h> {
    pub protected: &'h Protected,
    /// The folder the call started in.
    start: &'h Cwd<'h>,
    /// The command text (a write tool's input), whose words a value the
    /// gate cannot know may be.
    command: &'h str,
    /// Where `cd` has moved the walk since, if it has.
    moved: Option<String>,
    /// Folders the shell may still be in besides [`Walker::cwd`]: a `cd`
    /// may fail or sit in a branch that does not run (`false && cd /tmp`),
    /// and the commands after it then run where the shell was.
    earlier_cwds: Vec<String>,
    /// Folders the last `cd` may have gone to instead (`CDPATH`'s).
    cd_candidates: Vec<String>,
    /// Words of the command running now that name a harness's program or
    /// its runtime in a `bin` folder: what a copy of that program reads.
    program_sources: Vec<String>,
    /// The first of [`Walker::earlier_cwds`] the command being walked
    /// cannot be in: it follows `&&` after the `cd`s that put them there.
    certain_from: usize,
    /// The command just walked was `exit`: the shell goes no further.
    pub(crate) exited: bool,
    /// An unknown program's arguments are being read as commands it may
    /// run (`commands::arguments_as_commands`): a file among them that
    /// holds NUL bytes is data it works on (an archive, an image), not a
    /// script it runs.
    pub(crate) guessing_commands: bool,
    /// The host's variables first, then those the command assigns.
    variables: Vec<(String, String)>,
    /// How many of `variables` the host gave.
    host_variables: usize,
    /// The first of `variables` the shell being walked set itself, not the
    /// shell that started it (see [`Walker::in_child`]).
    scope_start: usize,
    /// Names declared with `declare -n`, each with the name it stands for.
    references: Vec<(String, String)>,
    /// Words of the earlier commands of the pipeline being walked that may
    /// be paths: what `xargs` further down may be fed.
    pub piped: Vec<String>,
    /// An earlier command of the pipeline being walked may print names
    /// relative to the working folder: it names a folder that way, or none
    /// (`find`, `ls`).
    pub piped_relative: bool,
    /// What the previous command of the pipeline printed, when known: the
    /// next one reads it.
    pub(crate) pipe_input: Option<String>,
    /// What a group or loop reads on its standard input (`cat f | { read
    /// l; $l; }`, `while read l; do …; done < f`), for the first `read` or
    /// `mapfile` inside it.
    group_input: Option<String>,
    /// The command being walked reads a pipe: it is not the first of its
    /// pipeline, or runs inside one that is not.
    in_pipe: bool,
    /// The pipe carries what is typed into the terminal: the pipeline's
    /// first command copies its terminal input down it (`cat | bash`), or
    /// the pipeline runs inside one that carries it (`cat | { bash; }`).
    pipe_from_terminal: bool,
    /// The command about to be walked is the first of its pipeline: what it
    /// prints is what the pipe carries.
    pipeline_head: bool,
    /// The commands being walked are text another program runs (`rsync -e`,
    /// ssh's `ProxyCommand`, a script written for later), whose standard
    /// input is that program's, not the terminal.
    pub(crate) program_input: bool,
    /// Something reads what the command being walked prints: a later
    /// command of its pipeline, or a process substitution's reader.
    pub(crate) output_read: bool,
    /// The command being walked runs as another user, switched to by this
    /// program (`su -c '…'`, `sudo -u u sh -c '…'`): whose configuration
    /// Tama's set-up did not touch.
    pub(crate) other_user: Option<&'static str>,
    /// The command being walked runs under `env -i`, or inside one that
    /// does (`env -i bash -c 'git log'`): the environment it was started
    /// with, Codex's pagers and editors among it, is gone.
    pub(crate) environment_cleared: bool,
    /// Files the command has written, resolved, with what it wrote to them
    /// (unknown parts as [`UNKNOWN_TEXT`]): a script written, then run.
    written: Vec<(String, String)>,
    /// Shell aliases defined so far, name and value.
    aliases: Vec<(String, String)>,
    pub(crate) depth: u32,
    /// The depth whose commands are text in another program's arguments
    /// that it may run (`hyperfine '…'`): there a program the gate does
    /// not model is read no further.
    probe_depth: Option<u32>,
    /// Function calls being followed, one inside another.
    functions_entered: u32,
    steps: u32,
    /// Scripts the command runs that it did not write are read from disk.
    reads_disk: bool,
    /// Scripts and files on disk the command reads, by resolved path.
    disk: Disk,
    /// Scripts read from disk being walked, one inside another.
    disk_scripts: Vec<String>,
    /// Commands the walk may take past [`MAX_STEPS`]: a script on disk is
    /// long by nature, and calls its functions from many places, so each of
    /// its lines adds [`SCRIPT_LINE_STEPS`].
    script_steps: u32,
}

/// A file a redirection writes, resolved, and whether it is appended to.
type Written = (String, bool);

/// A command's expanded words and what its standard input holds, when known.
pub struct Call<'c> {
    pub argv: &'c [String],
    pub stdin: Option<&'c str>,
    /// Nothing the command gives it feeds its standard input (no pipe, no
    /// redirection): it reads the terminal.
    pub terminal_input: bool,
}

impl<'h> Walker<'h> {
    /// A walker of `command` (empty for a call that is not a shell command).
    pub fn new(
        protected: &'h Protected,
        start: &'h Cwd<'h>,
        command: &'h str,
        host_variables: Vec<(String, String)>,
    ) -> Self {
        Walker {
            protected,
            start,
            command,
            moved: None,
            earlier_cwds: Vec::new(),
            cd_candidates: Vec::new(),
            program_sources: Vec::new(),
            certain_from: usize::MAX,
            exited: false,
            guessing_commands: false,
            host_variables: host_variables.len(),
            scope_start: 0,
            variables: host_variables,
            references: Vec::new(),
            piped: Vec::new(),
            piped_relative: false,
            pipe_input: None,
            group_input: None,
            in_pipe: false,
            pipe_from_terminal: false,
            pipeline_head: false,
            program_input: false,
            output_read: false,
            other_user: None,
            environment_cleared: false,
            written: Vec::new(),
            aliases: Vec::new(),
            depth: 0,
            probe_depth: None,
            functions_entered: 0,
            steps: 0,
            reads_disk: false,
            disk: Disk::default(),
            disk_scripts: Vec::new(),
            script_steps: 0,
        }
    }

    /// This walker, reading the scripts the command runs but did not write
    /// from disk, as far as `disk` holds them (see `shell_reader::disk`).
    pub fn reading_disk(mut self, disk: Disk) -> Self {
        self.reads_disk = true;
        self.disk = disk;
        self
    }

    /// The files on disk this walk read, and those it wanted.
    pub fn into_disk(self) -> Disk {
        self.disk
    }

    /// Reads `text` as shell and walks it.
    pub fn source(&mut self, text: &str) -> Result<()> {
        crate::terminal::refuse_typed(text)?;
        if self.depth >= MAX_DEPTH {
            return Err("the command nests shells too deep to follow".to_owned());
        }
        let program = match shell::parse(text) {
            Ok(program) => program,
            // A script on disk builds strings the gate cannot always read
            // back (see [`Walker::script_source`]).
            Err(_) if !self.disk_scripts.is_empty() => return Ok(()),
            Err(error) => return Err(format!("the command cannot be read as shell ({error})")),
        };
        self.walk_nested(&program, program.list)
    }

    /// What the shell script at `path`, which the command runs, holds: what
    /// this command wrote to it, else its text on disk when the walk reads
    /// scripts there and the file runs as shell (a program in another
    /// language, or no script at all, is none). A script on disk that cannot
    /// be read is refused: the gate cannot tell what it runs.
    pub fn script_text(&self, path: &str) -> Result<Option<String>> {
        if let Some(text) = self.written(path) {
            return Ok(Some(text.to_owned()));
        }
        let resolved = self.resolve(path);
        // A script that runs itself again (`exec "$0"`) is walked once.
        if !self.reads_disk || self.disk_scripts.contains(&resolved) {
            return Ok(None);
        }
        match self.disk.text(None, &resolved) {
            Ok(text) => Ok(text
                .filter(|text| runners::runs_as_shell(text))
                .filter(|text| !(self.guessing_commands && text.contains('\0')))
                // bash drops a script's NUL bytes as it reads it.
                .map(|text| text.replace('\0', ""))),
            Err(why) => Err(format!(
                "the tool call runs the script `{resolved}`, which protect-tama could not read \
                 ({why}), so it cannot tell what the script changes; run its commands one by one"
            )),
        }
    }

    /// A script on disk is being walked: a value the gate cannot know there
    /// is the script's own (its folder, a program's output), not a word the
    /// agent chose to hide a path behind, so it stands for no protected path
    /// and an unknown program's arguments (the script's own functions) are
    /// not read as commands. What the script does to a path it names is
    /// still refused.
    pub(crate) fn trusts_unknowns(&self) -> bool {
        !self.disk_scripts.is_empty()
    }

    /// What the file at `path`, which the command reads, holds: what this
    /// command wrote to it, else its text on disk when the walk reads files
    /// there (a file it could not read, such as a named pipe, gives a mark
    /// that is refused where it runs: `terminal::refuse_typed`).
    pub fn file_text(&self, path: &str) -> Option<&str> {
        match self.written(path) {
            Some(text) => Some(text),
            None if self.reads_disk => self.disk.input(None, &self.resolve(path)),
            None => None,
        }
    }

    /// Walks `text`, the script at `path` the command runs or sources, in
    /// the shell the walk is in (a caller that runs it in a new shell walks
    /// it in a child). A script read from disk is named in the refusal (the command
    /// alone does not show it) and read as bash runs it: the commands before
    /// a syntax error run (each line that reads alone is walked), and a
    /// string it builds that does not read as shell is let be.
    pub fn script_source(&mut self, path: &str, text: &str) -> Result<()> {
        if !self.reads_disk || self.written(path).is_some() {
            return self.source(text);
        }
        let resolved = self.resolve(path);
        self.disk_scripts.push(resolved.clone());
        let lines = u32::try_from(text.lines().count()).unwrap_or(u32::MAX);
        self.script_steps = self
            .script_steps
            .saturating_add(lines.saturating_mul(SCRIPT_LINE_STEPS));
        let walked = match shell::parse(text) {
            Ok(_) => self.source(text),
            Err(_) => text.lines().try_for_each(|line| self.source(line)),
        };
        self.disk_scripts.pop();
        walked.map_err(|why| format!("the script `{resolved}`, as it is on disk, would run: {why}"))
    }

    /// Walks commands another program runs, reading its input, not the
    /// terminal (see [`Walker::program_input`]).
    pub fn as_program_input(&mut self, walk: impl FnOnce(&mut Self) -> Result<()>) -> Result<()> {
        let before = core::mem::replace(&mut self.program_input, true);
        let walked = walk(self);
        self.program_input = before;
        walked
    }

    /// Walks as a child process runs: the folder it `cd`s to and the
    /// variables it assigns stay in it (`bash -c 'cd /tmp'`, `$(cd /tmp)`,
    /// `( … )`), as they do for the shell that started it.
    pub fn in_child(&mut self, walk: impl FnOnce(&mut Self) -> Result<()>) -> Result<()> {
        let (moved, exited) = (self.moved.clone(), self.exited);
        let cd_candidates = self.cd_candidates.clone();
        let earlier_cwds = self.earlier_cwds.len();
        let variables = self.variables.len();
        let scope = core::mem::replace(&mut self.scope_start, variables);
        let references = self.references.len();
        let walked = walk(self);
        self.moved = moved;
        self.earlier_cwds.truncate(earlier_cwds);
        self.exited = exited;
        self.cd_candidates = cd_candidates;
        self.variables.truncate(variables);
        self.scope_start = scope;
        self.references.truncate(references);
        walked
    }

    /// [`Walker::source_if_shell`] as a child process runs it: a shell
    /// another program starts (`git`'s pager, `tmux`, `python`'s
    /// `os.system`).
    pub fn child_source_if_shell(&mut self, text: &str) -> Result<()> {
        self.in_child(|walker| walker.source_if_shell(text))
    }

    /// [`Walker::child_source_if_shell`] for text that may be a command a
    /// program runs or only text it is given (`hyperfine 'make test'`,
    /// `gh pr create --body '…'`): a command of it that the gate does not
    /// model is read no further.
    pub(crate) fn probe_text(&mut self, text: &str) -> Result<()> {
        let outer = self.probe_depth.replace(self.depth + 1);
        let walked = self.child_source_if_shell(text);
        self.probe_depth = outer;
        walked
    }

    /// Walks `text` when it reads as shell; other text (code for another
    /// interpreter, a pager's options) runs nothing the gate can follow.
    pub fn source_if_shell(&mut self, text: &str) -> Result<()> {
        crate::terminal::refuse_typed(text)?;
        match shell::parse(text) {
            Ok(_) if self.depth >= MAX_DEPTH => {
                Err("the command nests shells too deep to follow".to_owned())
            }
            Ok(program) => self.walk_nested(&program, program.list),
            Err(_) => Ok(()),
        }
    }

    /// Walks `list` one level deeper: a string read again as shell, or a
    /// substitution. Refused past [`MAX_DEPTH`].
    pub(crate) fn walk_nested(&mut self, program: &Program<'_>, list: List) -> Result<()> {
        self.depth += 1;
        let walked = if self.depth > MAX_DEPTH {
            Err("the command nests substitutions too deep to follow".to_owned())
        } else {
            self.list(program, list)
        };
        self.depth -= 1;
        walked
    }

    pub(crate) fn list(&mut self, program: &Program<'_>, list: List) -> Result<()> {
        // Whatever reads this list's output reads its commands' too.
        let read_after = self.output_read;
        let outer_in_pipe = self.in_pipe;
        let outer_from_terminal = self.pipe_from_terminal;
        // `{ cat; echo; } | bash`, `"$(cat; echo)"`: what is typed, printed
        // by any pipeline of the list, is in what the list prints.
        let mut printed_typed = false;
        let outer_certain_from = self.certain_from;
        let (mut chain_start, mut all_and) = (self.earlier_cwds.len(), true);
        for pipeline in program.pipelines(list) {
            // `cd /tmp && rm x`: a pipeline after `&&` runs only when the
            // ones before it in its and-or list did, so not where a failed
            // `cd` among them would have left the shell.
            self.certain_from = match pipeline.joined {
                Joined::And => outer_certain_from.min(chain_start),
                Joined::Or => outer_certain_from,
                Joined::First => {
                    (chain_start, all_and) = (self.earlier_cwds.len(), true);
                    outer_certain_from
                }
            };
            self.exited = false;
            self.piped.clear();
            self.piped_relative = false;
            self.pipe_input = None;
            self.pipe_from_terminal = outer_in_pipe && outer_from_terminal;
            let last = pipeline.commands.len().saturating_sub(1);
            for (index, command) in pipeline.commands.iter().enumerate() {
                self.output_read = index < last || read_after;
                self.in_pipe = outer_in_pipe || index > 0;
                self.pipeline_head = index == 0;
                if index < last {
                    // Each command of a pipeline but the last runs in a subshell.
                    self.in_child(|walker| walker.command(program, command))?;
                } else if last > 0 {
                    // bash runs the last one in a subshell too, zsh in the
                    // shell itself: after a `cd` there, the folder is unknown.
                    let before = self.moved.clone();
                    self.command(program, command)?;
                    if self.moved != before {
                        self.moved = Some(UNKNOWN_TEXT.to_owned());
                    }
                } else {
                    self.command(program, command)?;
                }
            }
            if pipeline.joined == Joined::Or {
                // `cd /tmp && make || exit`: where a failed `cd` of the list
                // left the shell, it ends.
                if all_and && self.exited {
                    self.earlier_cwds.truncate(chain_start);
                }
                all_and = false;
            }
            printed_typed |= self.pipe_from_terminal
                || self
                    .pipe_input
                    .as_ref()
                    .is_some_and(|output| output.contains(crate::terminal::TYPED));
        }
        if printed_typed && read_after {
            let last = self.pipe_input.take().unwrap_or_default();
            self.pipe_input = Some(if last.contains(crate::terminal::TYPED) {
                last
            } else {
                crate::terminal::typed_line() + &last
            });
        }
        self.output_read = read_after;
        self.in_pipe = outer_in_pipe;
        // Inside a pipe (`cat | bash $(echo)`), the pipe read after the list
        // is the outer one; at a pipeline's head, the list's output.
        self.pipe_from_terminal = if outer_in_pipe {
            outer_from_terminal
        } else {
            printed_typed
        };
        self.certain_from = outer_certain_from;
        Ok(())
    }

    /// Counts one command walked, or one read in another's arguments;
    /// refused past [`MAX_STEPS`].
    pub(crate) fn step(&mut self) -> Result<()> {
        self.steps += 1;
        if self.steps > MAX_STEPS.saturating_add(self.script_steps) {
            return Err("the command is too large to follow".to_owned());
        }
        Ok(())
    }

    fn command(&mut self, program: &Program<'_>, command: &Command<'_>) -> Result<()> {
        self.step()?;
        match command {
            Command::Simple(simple) => {
                let pipeline_head = core::mem::take(&mut self.pipeline_head);
                for assignment in &simple.assignments {
                    let value = match &assignment.value {
                        AssignedValue::Scalar(word) => self.expand(program, word)?,
                        AssignedValue::Array(words) => {
                            for word in words {
                                self.expand(program, word)?;
                            }
                            UNKNOWN_TEXT.to_owned()
                        }
                    };
                    let value = if assignment.append {
                        format!("{}{value}", self.variable(assignment.name))
                    } else {
                        value
                    };
                    // An entry of bash's table of programs found
                    // (`BASH_CMDS[x]=/bin/rm`) or of aliases
                    // (`BASH_ALIASES[x]='rm -rf …'`) runs as an alias does.
                    if let Some(name) = assignment.index
                        && matches!(assignment.name, "BASH_CMDS" | "BASH_ALIASES")
                    {
                        self.set_alias(name, &value);
                    }
                    self.held_substitutions(&value)?;
                    self.assign(assignment.name, value)?;
                }
                let mut argv = Vec::new();
                for word in program.words(simple.words) {
                    self.expand_words(program, word, &mut argv)?;
                }
                let evaluated = argv
                    .first()
                    .is_some_and(|name| shell_reader::values::evaluates_arguments(name));
                for word in argv.iter().filter(|_| evaluated) {
                    self.held_substitutions(word)?;
                }
                self.program_sources.clear();
                self.program_sources.extend(
                    argv.iter()
                        .filter(|word| crate::loaded::is_program_path(word))
                        .cloned(),
                );
                let (stdin, targets) = self.redirects(program, &simple.redirects)?;
                let stdin = stdin.or_else(|| self.pipe_input.take()).or_else(|| {
                    let reads_lines = argv.first().is_some_and(|name| {
                        matches!(name.as_str(), "read" | "mapfile" | "readarray")
                    });
                    if reads_lines {
                        self.group_input.take()
                    } else {
                        None
                    }
                });
                self.check_key(&argv)?;
                if let Some(filled) = crate::commands::xargs_filled(&argv) {
                    self.check_key(&filled)?;
                }
                if let Some((index, text)) = self.alias_text(&argv) {
                    // An alias is not expanded again inside its own value.
                    let alias = self.aliases.remove(index);
                    let walked = self.source(&text);
                    self.aliases.insert(index, alias);
                    return walked;
                }
                // A function called runs in this shell: its `cd` and the
                // variables it sets stay (its body was also read where it
                // was defined).
                if let Some(body) = argv.first().and_then(|name| program.function(name))
                    && self.functions_entered < MOST_FUNCTION_DEPTH
                {
                    self.functions_entered += 1;
                    let walked = self.command(program, body);
                    self.functions_entered -= 1;
                    return walked;
                }
                let probing = self.probe_depth == Some(self.depth);
                let terminal_input = stdin.is_none()
                    && (!self.in_pipe || self.pipe_from_terminal)
                    && !self.program_input
                    && !probing;
                // What it prints is what is typed, read by the next command.
                let copies_terminal = (terminal_input && crate::terminal::copies_input(&argv))
                    || crate::terminal::relays_later_text(&argv);
                if pipeline_head {
                    self.pipe_from_terminal = copies_terminal;
                }
                crate::commands::run_as(
                    self,
                    &Call {
                        argv: &argv,
                        stdin: stdin.as_deref(),
                        terminal_input,
                    },
                    probing,
                )?;
                let output = if !self.output_read && targets.is_empty() {
                    None
                } else if simple.lone_read().is_some() {
                    // `$(< file)`: what the file holds.
                    stdin.clone()
                } else if copies_terminal {
                    Some(crate::terminal::typed_line())
                } else {
                    crate::output::of(self, &argv, stdin.as_deref())
                };
                if targets.is_empty() {
                    self.pipe_input = output;
                } else {
                    for source in crate::harnesses::copied_to_output(&argv) {
                        let source = self.resolve(source);
                        for (target, _) in &targets {
                            let tama = &self.protected.tama_binary;
                            crate::harnesses::renamed(&source, target, tama)?;
                        }
                    }
                    if let Some(text) = output.as_deref() {
                        for (target, _) in &targets {
                            self.check_run_later(target, text)?;
                        }
                    }
                    let text = output.unwrap_or_else(|| UNKNOWN_TEXT.to_owned());
                    for (target, append) in targets {
                        self.record_written(target, &text, append);
                    }
                }
                let mut operands = argv.iter().skip(1).filter(|w| !w.starts_with('-'));
                self.piped_relative |=
                    operands.clone().next().is_none() || operands.any(|w| !w.starts_with('/'));
                self.piped
                    .extend(argv.into_iter().skip(1).filter(|w| may_be_fed(w)));
                Ok(())
            }
            Command::Compound(compound) if compound.subshell => {
                self.in_child(|walker| walker.compound(program, compound))
            }
            Command::Compound(compound) => self.compound(program, compound),
            Command::Function(function) => self.command(program, &function.body),
        }
    }

    /// A compound command's words, redirections and lists, in the shell
    /// the walk is in.
    fn compound(&mut self, program: &Program<'_>, compound: &Compound<'_>) -> Result<()> {
        let mut values = Vec::new();
        for word in program.words(compound.words) {
            self.expand_words(program, word, &mut values)?;
        }
        self.check_key(&values)?;
        let (stdin, _) = self.redirects(program, &compound.redirects)?;
        let input = stdin.or_else(|| self.pipe_input.take());
        let outer_input = core::mem::replace(&mut self.group_input, input);
        let walked = self.compound_lists(program, compound, &values);
        self.group_input = outer_input;
        walked
    }

    /// A compound command's lists, once for each value of its loop variable.
    fn compound_lists(
        &mut self,
        program: &Program<'_>,
        compound: &Compound<'_>,
        values: &[String],
    ) -> Result<()> {
        match compound.loop_variable {
            Some(name) if !values.is_empty() => {
                for value in values.iter().take(MAX_LOOP_VALUES) {
                    self.set(name, value.clone());
                    for &list in &compound.lists {
                        self.list(program, list)?;
                    }
                }
            }
            _ => {
                for &list in &compound.lists {
                    self.list(program, list)?;
                }
            }
        }
        Ok(())
    }

    /// Checks the files redirections write; returns what a here-document, a
    /// here-string or a read file hands the command on its standard input
    /// (unknown for a file the command did not write), and the files
    /// written, resolved, each with whether it is appended to.
    fn redirects(
        &mut self,
        program: &Program<'_>,
        redirects: &[shell::Redirect<'_>],
    ) -> Result<(Option<String>, Vec<Written>)> {
        let mut stdin = None;
        let mut targets = Vec::new();
        for redirect in redirects {
            match redirect.kind {
                RedirectKind::Write | RedirectKind::Append => {
                    let target = self.expand(program, &redirect.target)?;
                    let resolved = self.checked_target(&target, Change::Write, "writes")?;
                    targets.push((resolved, redirect.kind == RedirectKind::Append));
                }
                RedirectKind::Read => {
                    let target = self.expand(program, &redirect.target)?;
                    self.check_key(core::slice::from_ref(&target))?;
                    // A socket bash opens (`< /dev/tcp/host/port`) gives what a peer sends later.
                    if target.starts_with("/dev/tcp/") || target.starts_with("/dev/udp/") {
                        self.read_into(redirect.fd, crate::terminal::typed_line(), &mut stdin);
                        continue;
                    }
                    // What the command reads instead of its pipe: a file it
                    // wrote itself (a process substitution's too) is known.
                    let text = self.file_text(&target).unwrap_or(UNKNOWN_TEXT).to_owned();
                    self.read_into(redirect.fd, text, &mut stdin);
                }
                RedirectKind::HereString => {
                    let text = self.expand(program, &redirect.target)?;
                    self.read_into(redirect.fd, text, &mut stdin);
                }
                RedirectKind::HereDoc(index) => {
                    if let Some(doc) = program.heredocs.get(index) {
                        let text = self.expand(program, &doc.body)?;
                        self.read_into(redirect.fd, text, &mut stdin);
                    }
                }
                // `<&3`: standard input read from a descriptor opened before.
                RedirectKind::Duplicate if redirect.fd == Some(0) => {
                    let fd = self.expand(program, &redirect.target)?;
                    if let Some(text) = self.written(&format!("/dev/fd/{fd}")) {
                        stdin = Some(text.to_owned());
                    }
                }
                RedirectKind::Duplicate => {}
            }
        }
        Ok((stdin, targets))
    }

    /// `text`, read on descriptor `fd`: standard input, or another one
    /// (`3< file`, `exec 3< <(…)`) a command reads as `/dev/fd/3` or by `<&3`.
    fn read_into(&mut self, fd: Option<u32>, text: String, stdin: &mut Option<String>) {
        match fd {
            Some(0) => *stdin = Some(text),
            Some(fd) => self.record_written(format!("/dev/fd/{fd}"), &text, false),
            None => {}
        }
    }

    /// Records `text` written to the resolved `path`, after what the command
    /// wrote there before when it appends.
    pub(crate) fn record_written(&mut self, path: String, text: &str, append: bool) {
        match self.written.iter_mut().find(|(file, _)| *file == path) {
            Some((_, content)) if append => content.push_str(text),
            Some((_, content)) => *content = text.to_owned(),
            None => self.written.push((path, text.to_owned())),
        }
    }

    /// What this command wrote to `path`, when it wrote it.
    pub fn written(&self, path: &str) -> Option<&str> {
        // Most commands write no file.
        if self.written.is_empty() {
            return None;
        }
        let resolved = self.resolve(path);
        self.written
            .iter()
            .find(|(file, _)| *file == resolved)
            .map(|(_, text)| text.as_str())
    }

    /// The name of the file a process substitution (`<(…)`) reads from,
    /// recorded as holding `output`.
    pub(crate) fn process_substitution_file(&mut self, output: Option<String>) -> String {
        let open = self
            .written
            .iter()
            .filter(|(path, _)| path.starts_with("/dev/fd/"));
        let path = format!("/dev/fd/{}", 63 + open.count());
        let text = output.unwrap_or_else(|| UNKNOWN_TEXT.to_owned());
        self.written.push((path.clone(), text));
        path
    }

    /// A script written for a later call to run (a Makefile, a git hook,
    /// a crontab) is read now, as what `target` would run.
    pub fn check_run_later(&mut self, target: &str, text: &str) -> Result<()> {
        for (written, script) in run_later(target, text) {
            self.as_program_input(|walker| walker.child_source_if_shell(&script))
                .map_err(|why| format!("{written} `{}` would, when run: {why}", shown(target)))?;
        }
        Ok(())
    }

    /// `x='a[$(rm -rf ~/.tama)]'; (( x ))`: a substitution held in a
    /// variable, or in what a builtin evaluates again, runs there
    /// ([`shell_reader::values::substitutions`]).
    fn held_substitutions(&mut self, text: &str) -> Result<()> {
        for command in shell_reader::values::substitutions(text) {
            self.source(command)?;
        }
        Ok(())
    }

    /// The command's text (a write tool's input), the home folder taken
    /// out (see [`Walker::without_home`]).
    pub fn command_text(&self) -> String {
        self.without_home(self.command)
    }

    /// `text` with the home folder taken out: a user may be called Tamara.
    fn without_home(&self, text: &str) -> String {
        match self.protected.home.len() {
            0 | 1 => text.to_owned(),
            _ => text.replace(self.protected.home.as_str(), ""),
        }
    }

    /// Whether the command has set a variable of its own.
    pub fn assigns_variables(&self) -> bool {
        self.variables.len() > self.host_variables
    }

    /// The variables the command itself set, each name's last value first.
    pub fn own_variables(&self) -> impl Iterator<Item = (&str, &str)> {
        self.variables
            .iter()
            .skip(self.host_variables)
            .rev()
            .map(|(name, value)| (name.as_str(), value.as_str()))
    }

    /// The value the command itself gave `name`, if it set it.
    pub fn assigned(&self, name: &str) -> Option<&str> {
        let name = self.referred(name);
        self.variables
            .get(self.host_variables..)?
            .iter()
            .rev()
            .find(|(known, _)| known == name)
            .map(|(_, value)| value.as_str())
    }

    pub fn set_alias(&mut self, name: &str, value: &str) {
        self.aliases.push((name.to_owned(), value.to_owned()));
    }

    /// When a command's name is an alias: the alias's place, and the text
    /// the command runs, the alias's value then the rest of its words.
    fn alias_text(&self, argv: &[String]) -> Option<(usize, String)> {
        let (name, rest) = argv.split_first()?;
        let index = self.aliases.iter().rposition(|(alias, _)| alias == name)?;
        let mut text = self.aliases[index].1.clone();
        for word in rest {
            text.push(' ');
            text.push_str(word);
        }
        Some((index, text))
    }

    /// The folder the walk is in now.
    pub fn cwd(&self) -> &str {
        self.moved.as_deref().unwrap_or_else(|| self.start.get())
    }

    /// `cd` moves the walk to `folder`, or to one of `others` (`CDPATH`'s);
    /// the folder it leaves stays one the shell may be in.
    /// `popd`, and a `pushd` that turns the folder stack (`pushd`, `pushd
    /// +1`): the shell is back in one of the folders it has been in.
    pub fn cd_back(&mut self) {
        let mut candidates = self.earlier_cwds.clone();
        candidates.extend(self.cd_candidates.iter().cloned());
        candidates.push(self.cwd().to_owned());
        self.cd(UNKNOWN_TEXT.to_owned(), candidates);
    }

    pub fn cd(&mut self, folder: String, others: Vec<String>) {
        let left = core::mem::replace(&mut self.cd_candidates, others);
        for other in left.into_iter().chain([self.cwd().to_owned()]) {
            if other != folder && !self.earlier_cwds.contains(&other) {
                self.earlier_cwds.push(other);
            }
        }
        self.moved = Some(folder);
    }

    /// `path` resolved in each folder the shell may be in: as
    /// [`Walker::resolve`] does first, then, when it is relative, in each
    /// of [`Walker::earlier_cwds`] the command may run in and of
    /// [`Walker::cd_candidates`].
    pub(crate) fn resolutions<'p>(&'p self, path: &'p str) -> impl Iterator<Item = String> + 'p {
        let relative = !path.starts_with(['/', '~']);
        let earlier = self
            .earlier_cwds
            .iter()
            .take(self.certain_from)
            .chain(&self.cd_candidates)
            .filter(move |_| relative)
            .map(move |cwd| resolve(path, || cwd.as_str(), self.home()));
        core::iter::once(self.resolve(path)).chain(earlier)
    }

    /// A variable's value when the walk knows it.
    pub(crate) fn known(&self, name: &str) -> Option<String> {
        let name = self.referred(name);
        if name == "PWD" {
            return Some(self.cwd().to_owned());
        }
        self.variables
            .iter()
            .rev()
            .find(|(known, _)| known == name)
            .map(|(_, value)| value.clone())
    }

    fn variable(&self, name: &str) -> String {
        self.known(name).unwrap_or_else(|| UNKNOWN_TEXT.to_owned())
    }

    /// Sets `name` to `value`, walking the value first when programs run
    /// it as a command (`PAGER='rm -rf ~/.tama' man ls`).
    pub fn assign(&mut self, name: &str, value: String) -> Result<()> {
        if let Some(command) = runners::command_in_variable(name, &value) {
            self.probe_text(command)
                .map_err(|why| format!("`{name}` holds a command programs run, and {why}"))?;
        }
        self.set(name, value);
        Ok(())
    }

    pub fn set(&mut self, name: &str, value: String) {
        let name = self.referred(name);
        // Set again in the same shell, a variable keeps one entry: a long
        // script assigns the same few names thousands of times.
        let own = self.scope_start.max(self.host_variables);
        let here = self.variables.iter().rposition(|(set, _)| set == name);
        match here.filter(|at| *at >= own) {
            Some(at) => self.variables[at].1 = value,
            None => {
                let name = name.to_owned();
                self.variables.push((name, value));
            }
        }
    }

    /// `declare -n name=target`: `name` stands for `target` from then on.
    pub fn refer(&mut self, name: &str, target: &str) {
        self.references.push((name.to_owned(), target.to_owned()));
    }

    /// The variable `name` stands for, through references.
    fn referred<'s>(&'s self, name: &'s str) -> &'s str {
        shell_reader::values::referred(&self.references, name)
    }

    /// `path` as the shell would resolve it now.
    pub fn resolve(&self, path: &str) -> String {
        resolve(path, || self.cwd(), self.home())
    }

    /// The home folder `~` and a bare `cd` go to: `HOME` as the command
    /// set it, else the user's.
    pub fn home(&self) -> &str {
        self.variables
            .iter()
            .rev()
            .find(|(name, _)| name == "HOME")
            .map_or(&self.protected.home, |(_, home)| home)
    }

    /// Refuses when `path` changes a protected path in the way `change` says.
    /// A part the gate cannot know (a command's output, a variable set
    /// elsewhere) may also be any word the command spells, as in
    /// `rm -rf "$(echo ~/.tama)"` or `printf -v p %s ~/.tama; rm -rf "$p"`:
    /// the path with that word in its place is refused when it lies inside
    /// a protected one.
    pub fn changes(&self, path: &str, change: Change, verb: &str) -> Result<()> {
        self.checked_target(path, change, verb).map(drop)
    }

    /// [`Walker::changes`], returning the path resolved when it passes.
    fn checked_target(&self, path: &str, change: Change, verb: &str) -> Result<String> {
        let mut resolutions = self.resolutions(path);
        let resolved = resolutions.next().unwrap_or_default();
        self.changes_resolved(path, &resolved, change, verb)?;
        for elsewhere in resolutions {
            self.changes_resolved(path, &elsewhere, change, verb)?;
        }
        if change == Change::Write && startup::is_startup_file(&resolved) && self.affects_tama() {
            return Err(format!(
                "the tool call {verb} `{}`, a shell start-up file, and names Tama or a harness's hook settings: a `TAMA_` variable, a `tama` on `PATH`, a harness pointed away from its hooks (`CODEX_HOME`, `claude --bare`) or code loaded into it (`LD_PRELOAD`, `NODE_OPTIONS=--require …`) set there reaches the harness in later sessions and changes Tama's policy, which is the operator's act, not the agent's",
                shown(path)
            ));
        }
        if change == Change::Write {
            crate::loaded::replaced(path, &resolved, &self.program_sources, verb)?;
        }
        if change == Change::Write
            && startup::is_bun_config(&resolved)
            && startup::bun_preloads(self.command)
        {
            return Err(format!(
                "the tool call {verb} `{}`, bun's configuration, with a `preload`: bun runs that code first in every program it starts in that folder, oh-my-pi among them, where it can unhook the extension that runs Tama",
                shown(path)
            ));
        }
        if path.is_ascii() || !path.contains(UNKNOWN) || self.trusts_unknowns() {
            return Ok(resolved);
        }
        for word in spelled_words(self.command) {
            let candidate = self.resolve(&path.replace(UNKNOWN, word));
            if self.protected.hit(&candidate, Change::Write).is_some() {
                let shown_as = format!("{} (which may be {candidate})", shown(path));
                self.changes_resolved(&shown_as, &candidate, Change::Write, verb)?;
            }
        }
        Ok(resolved)
    }

    /// Whether the command, or a value it assigns, names Tama (the home
    /// folder aside: a user may be called Tamara) or a harness's hook
    /// switch ([`startup::affects_tama`]).
    pub(crate) fn affects_tama(&self) -> bool {
        let assigned: String = self
            .variables
            .iter()
            .skip(self.host_variables)
            .map(|(_, value)| value.as_str())
            .collect();
        startup::affects_tama(&self.command_text())
            || startup::affects_tama(&self.without_home(&assigned))
    }

    fn changes_resolved(
        &self,
        path: &str,
        resolved: &str,
        change: Change,
        verb: &str,
    ) -> Result<()> {
        self.changes_exactly(path, resolved, change, verb)?;
        match self.protected.followed(resolved) {
            Some(followed) => {
                let shown_as = format!("{} (a link to {followed})", shown(path));
                self.changes_exactly(&shown_as, &followed, change, verb)
            }
            None => Ok(()),
        }
    }

    /// [`Walker::changes_resolved`] for `resolved` as it is spelled.
    fn changes_exactly(
        &self,
        path: &str,
        resolved: &str,
        change: Change,
        verb: &str,
    ) -> Result<()> {
        if self.protected.names_key(resolved) {
            return Err(key_refusal(path));
        }
        match self.protected.hit(resolved, change) {
            Some(what) => Err(format!(
                "the tool call {verb} `{}`: {what}; changing Tama's policy or state is the operator's act, not the agent's",
                shown(path)
            )),
            None => Ok(()),
        }
    }

    /// Refuses any word that names the key file, read or written.
    pub fn check_key(&self, words: &[String]) -> Result<()> {
        // Most words spell neither the key's name nor a pattern, so neither
        // does any part of them: they are passed over without a search for `=`.
        for word in words.iter().filter(|word| may_name_key(word)) {
            let path = word
                .rsplit_once('=')
                .map_or(word.as_str(), |(_, value)| value);
            // The path may also stand inside code or a query the program
            // reads (`sqlite3 x "select readfile('/…/control.key')"`).
            let mut paths = core::iter::once(path).chain(spelled_words(word));
            let names_key = |path: &str| {
                // `curl file:///…/control.key`.
                let path = path.strip_prefix("file://").unwrap_or(path);
                if !may_name_key(path) || (self.trusts_unknowns() && path.contains(UNKNOWN)) {
                    return false;
                }
                // A name that starts unknown may be a relative one
                // (`cat $(whoami)/control.key`), in the working folder.
                let relative = path
                    .starts_with(UNKNOWN)
                    .then(|| format!("{}/{path}", self.cwd()));
                self.resolutions(path).chain(relative).any(|resolved| {
                    self.protected.names_key(&resolved)
                        || self
                            .protected
                            .followed(&resolved)
                            .is_some_and(|followed| self.protected.names_key(&followed))
                })
            };
            if paths.any(names_key) {
                return Err(key_refusal(word));
            }
        }
        Ok(())
    }
}

/// The words of a command's text, split at blanks, quotes and the shell's
/// operators, `$`, `=`, `,` and `@` (`curl -F f=@path`): what may stand in
/// for a part the gate cannot know.
fn spelled_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || "'\"`;&|<>(){}$=,@".contains(c))
        .filter(|word| !word.is_empty())
}

/// Whether a word piped into `xargs` may be a path it hands on: one with a
/// `/` that is no option.
fn may_be_fed(word: &str) -> bool {
    word.contains('/') && !word.starts_with('-')
}

/// Whether `text` spells the key file's name, a pattern that may match it,
/// or a part the gate cannot know (`~/.tama/$(ls ~/.tama | head -1)`).
fn may_name_key(text: &str) -> bool {
    let key = crate::protected::KEY_FILE;
    text.bytes().any(|byte| matches!(byte, b'*' | b'?' | b'['))
        || (text.len() >= key.len() && crate::protected::spells_key(text))
        || (!text.is_ascii() && text.contains(shell_reader::field::UNKNOWN))
}

pub fn key_refusal(path: &str) -> String {
    format!(
        "`{}` names Tama's control key, which only the operator's `tama sessions` commands may read or write",
        shown(path)
    )
}

/// A value for a message: unknown parts shown as `…`.
pub fn shown(text: &str) -> String {
    text.replace(shell_reader::field::UNKNOWN, "…")
}

/// What a file written with `content` runs later, as shell text, each
/// with what the file is to git or a shell (`the script written to`): what
/// [`runners::run_later`] finds, and the `git config` commands a text in
/// git's configuration syntax stands for, whatever the file's name (git
/// may later be pointed at any file).
pub fn run_later(path: &str, content: &str) -> Vec<(&'static str, String)> {
    let scripts = runners::run_later(path, content).into_iter();
    let settings = git_config::written_commands(path, content).into_iter();
    scripts
        .map(|script| ("the script written to", script))
        .chain(settings.map(|settings| ("the git configuration written to", settings)))
        .collect()
}
