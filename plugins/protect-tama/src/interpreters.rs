//! Interpreter code (`python -c`, `node -e`, `perl -e`, `ruby -e`, `php -r`,
//! awk programs, and scripts handed to them): the code is not run, so it is
//! read for two things at once: an operation that changes files, and a
//! spelling of a protected path. Both together refuse.

use crate::prelude::*;

use shell_reader::interpreters::{self, Language, MAX_CODE_DEPTH, Source};

use crate::protected::{Change, Protected};
use crate::walk::{Result, Walker};

/// Decides `name args…` when it is an interpreter: the code it is given,
/// the script it runs when this command wrote it, or what it reads on its
/// standard input.
pub fn code(
    walker: &mut Walker<'_>,
    name: &str,
    args: &[String],
    stdin: Option<&str>,
) -> Result<()> {
    let Some(language) = Language::of(name) else {
        return Ok(());
    };
    for source in interpreters::sources(language, args) {
        let code = match source {
            Source::Text(code) => Some(code),
            Source::File(path) => walker.written(path),
            Source::Stdin => stdin,
        };
        if let Some(code) = code.map(str::to_owned) {
            crate::terminal::refuse_typed(&code)?;
            read(walker, language, &code, 0)?;
            // The code may write where its arguments say (`sys.argv[1]`,
            // awk's `-v f=PATH`), where a variable the command set says
            // (`os.environ["P"]`), or where its input says: a path among
            // them counts as spelled in it.
            let mut given = args.join("\n");
            if interpreters::reads_environment(&code) {
                for (_, value) in walker.own_variables() {
                    given.push('\n');
                    given.push_str(value);
                }
            }
            if let Some(input) = stdin.filter(|_| interpreters::reads_input(&code)) {
                given.push('\n');
                given.push_str(input);
            }
            let text = format!("{code}\n{given}");
            let awk_writes = language == Language::Awk && interpreters::awk_redirects(&code);
            check_changing(walker, &text, awk_writes)?;
        }
    }
    Ok(())
}

/// What `name args…` may print when it is an interpreter whose code prints
/// (`Strings::printed`): the code it is given, the script it runs as
/// the command wrote it or as it lies on disk, or what it reads.
pub fn printed(
    walker: &Walker<'_>,
    name: &str,
    args: &[String],
    stdin: Option<&str>,
) -> Option<String> {
    let language = Language::of(name)?;
    let mut printed: Option<String> = None;
    for source in interpreters::sources(language, args) {
        let code = match source {
            Source::Text(code) => Some(code),
            Source::File(path) => walker.file_text(path),
            Source::Stdin => stdin,
        };
        let lines = code
            .filter(|code| interpreters::prints(code, language, args))
            .and_then(|code| interpreters::strings(code, language).printed());
        if let Some(lines) = lines {
            printed.get_or_insert_default().push_str(&lines);
        }
    }
    printed
}

/// Checks `code` together with its strings, joined and decoded as the
/// language does (`"~/.ta" + "ma"`, `"\x2etama"`, base64); code that runs
/// programs also has the commands in its strings walked as another process
/// runs them, and strings that are code themselves read again.
fn read(walker: &mut Walker<'_>, language: Language, code: &str, depth: u32) -> Result<()> {
    let strings = interpreters::strings(code, language);
    let mut text = code.to_owned();
    for value in &strings.values {
        text.push('\n');
        text.push_str(value);
    }
    check(walker, &text)?;
    crate::signals::in_code(&text)?;
    patterns(walker, code, &strings.values)?;
    traversals(walker, code, &strings.values)?;
    if !strings.runs_programs {
        return Ok(());
    }
    // What the code puts in its children's environment (`os.environ["HOME"]
    // = …`, `{env: {TAMA_REGISTRY: …}}`) goes with each command it runs.
    let environment = strings.exports(|_, _| true);
    for command in strings.commands() {
        walker.child_source_if_shell(&format!("{environment}{command}"))?;
    }
    if depth < MAX_CODE_DEPTH {
        for nested in strings.nested_code().filter(|nested| *nested != code) {
            read(walker, language, nested, depth + 1)?;
        }
    }
    Ok(())
}

/// Refuses `code` when it both changes files and spells a protected path.
pub(crate) fn check(walker: &Walker<'_>, code: &str) -> Result<()> {
    check_changing(walker, code, false)
}

/// [`check`], for code already known to change files when `changes`.
fn check_changing(walker: &Walker<'_>, code: &str, changes: bool) -> Result<()> {
    let lower = code.to_ascii_lowercase();
    if lower.contains(crate::protected::KEY_FILE) && mentions_tama_home(walker, code) {
        return Err(crate::walk::key_refusal(crate::protected::KEY_FILE));
    }
    if !changes && !interpreters::changes_files(&lower) {
        return Ok(());
    }
    match walker.protected.spelled_in(code, walker.cwd()) {
        Some(what) => Err(format!(
            "the interpreter code changes files and names {what}; changing Tama's policy or state is the operator's act, not the agent's"
        )),
        None => Ok(()),
    }
}

/// Refuses code that changes files when one of its strings is a path
/// pattern (`glob.glob('/home/u/.t*')`) that can name a protected path.
fn patterns(walker: &Walker<'_>, code: &str, values: &[String]) -> Result<()> {
    let mut patterns = values
        .iter()
        .filter(|value| value.contains(['*', '?', '[']) && value.starts_with(['/', '~', '.']))
        .peekable();
    if patterns.peek().is_none() || !interpreters::changes_files(&code.to_ascii_lowercase()) {
        return Ok(());
    }
    for pattern in patterns {
        walker.changes(
            pattern,
            Change::Remove,
            "may change, by a pattern in interpreter code,",
        )?;
    }
    Ok(())
}

/// Refuses code that walks a folder holding a protected path (`os.walk`,
/// `rglob`, `readdirSync`, …) and deletes, moves or writes files: what it
/// changes is chosen as it runs (`if 'registry' in name`), so the gate
/// cannot read it from the code. Code that copies a whole folder into or
/// out of one is refused alike: the files it writes are the source's. The folder is a path among the strings,
/// or the home folder when the code asks for it (`Path.home()`,
/// `expanduser('~')`, `process.env.HOME`).
fn traversals(walker: &Walker<'_>, code: &str, values: &[String]) -> Result<()> {
    const WALKS: &[&str] = &[
        "walk(",
        "rglob(",
        "glob(",
        "iterdir(",
        "listdir(",
        "scandir(",
        "readdir",
        "opendir",
        "dir.glob",
        "dir[",
        "dir.children",
        "find.find",
        "file::find",
        "walkdir",
        "**",
    ];
    const CHANGES: &[&str] = &[
        "remove", "unlink", "rmtree", "rmdir", "rmsync", "rm_rf", "rm_r", "rm(", "rename",
        "replace(", "truncate", "write", "move(", "delete", "chmod",
    ];
    // Copies of a whole folder (`shutil.copytree`, `fs.cpSync`,
    // `FileUtils.cp_r`): the files they write are the source folder's.
    const TREE_COPIES: &[&str] = &[
        "copytree",
        "copy_tree",
        "cpsync",
        "fs.cp(",
        "promises.cp(",
        "cp_r",
        "copy_entry",
        "dircopy",
        "copy_dir",
    ];
    // Reading what it lists (`for p in d.iterdir(): print(p.read_text())`)
    // reads the key when the folder holds it, whatever the key is named.
    const READS: &[&str] = &["read", "open", "slurp", "load", "cat"];
    let lower = code.to_ascii_lowercase();
    let lists = WALKS.iter().any(|walk| lower.contains(walk));
    let walks = lists && CHANGES.iter().any(|change| lower.contains(change));
    // `readdir` and `opendir` list; they read no file.
    let reads = lists && {
        let unlisted = WALKS
            .iter()
            .fold(lower.clone(), |text, walk| text.replace(walk, ""));
        READS.iter().any(|read| unlisted.contains(read))
    };
    let copies = TREE_COPIES.iter().any(|copy| lower.contains(copy));
    if !walks && !reads && !copies {
        return Ok(());
    }
    // How code asks for the home folder in each language.
    const HOME: &[&str] = &[
        "expanduser",
        "home()",
        "homedir",
        "dir.home",
        "env.home",
        "$home",
        "${home}",
        "$env{home}",
        "'home'",
        "\"home\"",
        "home_dir",
        "userprofile",
    ];
    let home = HOME.iter().any(|asks| lower.contains(asks)).then_some("~");
    let folders = values
        .iter()
        .map(String::as_str)
        .filter(|value| value.starts_with(['/', '~', '.']))
        .chain(home);
    if reads {
        reads_listed_key(walker, &lower, values, home.is_some())?;
    }
    for folder in folders {
        if walks {
            walker.changes(folder, Change::Remove, "walks and changes files under")?;
        }
        if copies {
            walker.changes(folder, Change::Remove, "copies a folder into or out of")?;
        }
    }
    Ok(())
}

/// Refuses code that lists a folder and reads what it lists when the key
/// is among it: a walk down (`os.walk`, `rglob`, `**`) from any folder
/// above the key, a listing of one level (`iterdir`, `readdirSync`,
/// `glob('…/*')`) of the key's own folder. The folders are the code's
/// paths, and, when it asks for the home folder, the home and the
/// dot-folders its strings name under it (`Path.home() / ".tama"`).
fn reads_listed_key(walker: &Walker<'_>, lower: &str, values: &[String], home: bool) -> Result<()> {
    const DOWN: &[&str] = &[
        "walk(",
        "rglob(",
        "**",
        "walkdir",
        "find.find",
        "file::find",
    ];
    let down = DOWN.iter().any(|walk| lower.contains(walk));
    // A string that interpolates the home folder (`"$ENV{HOME}/.tama/*"`).
    // Perl's `$ENV{HOME}` reads as `{HOME}` once its variable is taken out.
    const HOME_PREFIXES: &[&str] = &["$ENV{HOME}", "{HOME}", "${HOME}", "$HOME", "#{Dir.home}"];
    let values = values.iter().map(|value| {
        HOME_PREFIXES
            .iter()
            .find_map(|prefix| value.strip_prefix(prefix))
            .map_or_else(|| value.clone(), |rest| format!("~{rest}"))
    });
    let mut folders: Vec<String> = Vec::new();
    for value in values.filter(|value| value.starts_with(['/', '~', '.'])) {
        let value = value.as_str();
        // A pattern lists the folder it starts in.
        let folder = match value.find(['*', '?', '[']) {
            Some(at) => value[..at]
                .rsplit_once('/')
                .map_or(".", |(folder, _)| folder),
            None => value,
        };
        folders.push(folder.to_owned());
        // `homedir() + "/.tama"`, `"$ENV{HOME}/.tama/*"`.
        if home && value.starts_with('.') && !value.starts_with("./") {
            folders.push(format!("~/{folder}"));
        } else if home && value.starts_with('/') {
            folders.push(format!("~{folder}"));
        }
    }
    if home {
        folders.push("~".to_owned());
    }
    let reaches = match down {
        true => Protected::holds_key,
        false => Protected::in_key_folder,
    };
    crate::key_reads::refuse_reading_key(
        walker,
        "the interpreter code lists and reads the files in",
        &folders,
        reaches,
    )
}

fn mentions_tama_home(walker: &Walker<'_>, code: &str) -> bool {
    let home = &walker.protected.tama_home;
    code.contains(".tama")
        || code.contains("TAMA_HOME")
        || (!home.is_empty() && code.contains(home.as_str()))
        || crate::paths::within(walker.cwd(), home)
}
