//! Interpreter one-liners (`python -c`, `node -e`, `perl -e`, `ruby -e`, and
//! scripts handed to them on standard input): the code is not run, so it is
//! read for two things at once: an operation that changes files, and a
//! spelling of a protected path. Both together refuse.

use crate::prelude::*;

use crate::walk::{Result, Walker};

/// Code that writes, moves, deletes or re-modes a file, or runs a shell.
const CHANGES: &[&str] = &[
    "'w",
    "\"w",
    "'a",
    "\"a",
    "'x'",
    "\"x\"",
    "r+",
    "mode=",
    "write",
    "append",
    "unlink",
    "remove",
    "rmtree",
    "rmdir",
    "rmsync",
    "rename",
    "replace",
    "chmod",
    "chown",
    "symlink",
    "link(",
    "truncate",
    "copy",
    "move",
    "mkdir",
    "delete",
    "system",
    "subprocess",
    "popen",
    "spawn",
    "exec",
    "fileutils",
    "'>",
    "\">",
    "`",
    "dump(",
    "utime",
    "touch",
];

/// Decides a command that may be an interpreter given code.
pub fn one_liner(
    walker: &mut Walker<'_>,
    name: &str,
    args: &[String],
    stdin: Option<&str>,
) -> Result<()> {
    let flags: &[&str] = match interpreter(name) {
        Some(Interpreter::Python) => &["-c"],
        Some(Interpreter::Node) => &["-e", "--eval", "-p", "--print"],
        Some(Interpreter::Ruby) => &["-e"],
        Some(Interpreter::Php) => &["-r"],
        None => return Ok(()),
    };
    let mut code: Vec<&str> = Vec::new();
    for (index, arg) in args.iter().enumerate() {
        if flags.contains(&arg.as_str()) {
            code.extend(args.get(index + 1).map(String::as_str));
        } else if let Some(rest) = flags.iter().find_map(|f| {
            arg.strip_prefix(f)
                .filter(|r| f.len() == 2 && !r.is_empty() && !arg.starts_with("--"))
        }) {
            code.push(rest);
        }
    }
    let reads_stdin = code.is_empty() && args.iter().all(|a| a.starts_with('-'));
    if reads_stdin {
        code.extend(stdin);
    }
    // A script this command wrote, then runs.
    let script = args.iter().find(|a| !a.starts_with('-'));
    let written = script
        .filter(|_| code.is_empty())
        .and_then(|script| walker.written(script))
        .map(str::to_owned);
    code.extend(written.as_deref());
    for text in code {
        check(walker, text)?;
    }
    Ok(())
}

/// `awk PROGRAM`, `awk -f FILE`: the program may run commands (`system`)
/// and write files (`print > "f"`), so it is read as a one-liner.
pub fn awk(walker: &mut Walker<'_>, args: &[String]) -> Result<()> {
    let mut index = 0;
    let mut program = None;
    while let Some(arg) = args.get(index) {
        match arg.as_str() {
            "-f" | "--file" => {
                let file = args.get(index + 1);
                program = file
                    .and_then(|file| walker.written(file))
                    .map(str::to_owned);
                break;
            }
            "-F" | "-v" | "--assign" | "--field-separator" => index += 2,
            _ if arg.starts_with('-') && arg.len() > 1 => index += 1,
            _ => {
                program = Some(arg.clone());
                break;
            }
        }
    }
    program.map_or(Ok(()), |code| check(walker, &code))
}

/// `perl -e CODE`: read as any one-liner.
pub fn perl(walker: &mut Walker<'_>, args: &[String], stdin: Option<&str>) -> Result<()> {
    let mut code: Vec<&str> = Vec::new();
    for (index, arg) in args.iter().enumerate() {
        if arg.starts_with('-')
            && !arg.starts_with("--")
            && (arg.ends_with('e') || arg.ends_with('E'))
        {
            code.extend(args.get(index + 1).map(String::as_str));
        }
    }
    if code.is_empty() && args.iter().all(|a| a.starts_with('-')) {
        code.extend(stdin);
    }
    for text in code {
        check(walker, text)?;
    }
    Ok(())
}

enum Interpreter {
    Python,
    Node,
    Ruby,
    Php,
}

fn interpreter(name: &str) -> Option<Interpreter> {
    let base = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    match base {
        "python" | "pypy" | "uv" => Some(Interpreter::Python),
        "node" | "nodejs" | "bun" | "deno" => Some(Interpreter::Node),
        "ruby" => Some(Interpreter::Ruby),
        "php" => Some(Interpreter::Php),
        _ => None,
    }
}

/// Refuses `code` when it both changes files and spells a protected path.
fn check(walker: &Walker<'_>, code: &str) -> Result<()> {
    let lower = code.to_ascii_lowercase();
    if lower.contains(crate::protected::KEY_FILE) && mentions_tama_home(walker, code) {
        return Err(crate::walk::key_refusal(crate::protected::KEY_FILE));
    }
    if !CHANGES.iter().any(|marker| lower.contains(marker)) {
        return Ok(());
    }
    match walker.protected.spelled_in(code, walker.cwd()) {
        Some(what) => Err(format!(
            "the interpreter code changes files and names {what}; changing Tama's policy or state is the operator's act, not the agent's"
        )),
        None => Ok(()),
    }
}

fn mentions_tama_home(walker: &Walker<'_>, code: &str) -> bool {
    let home = &walker.protected.tama_home;
    code.contains(".tama")
        || code.contains("TAMA_HOME")
        || (!home.is_empty() && code.contains(home.as_str()))
        || crate::paths::within(walker.cwd(), home)
}
