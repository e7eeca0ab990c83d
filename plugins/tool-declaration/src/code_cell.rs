//! oh-my-pi's `eval`: a cell of Python or JavaScript its kernel runs, read
//! as the shell command that runs the same code, so that every gate reads it
//! with the interpreter code it already reads. A Python cell's shell escapes
//! and magics (`!cmd`, `%cd`, `%env`, `%%bash`, `%%writefile`, as
//! `eval/py/runner.py`'s `transform_cell` translates them) become the shell
//! lines they run, in order with the code around them.

use crate::classify::quote;
use crate::prelude::*;

/// The shell text that runs `code` in `language` (`py` or `js`); `None`
/// for a language the kernel does not have.
pub fn command(language: &str, code: &str) -> Option<String> {
    match language {
        "js" => Some(format!("node -e {}", quote(code))),
        "py" => Some(python(code)),
        _ => None,
    }
}

/// A Python cell as shell lines: runs of plain code as `python3 -c`, each
/// shell escape and magic as what it does.
fn python(cell: &str) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut code = String::new();
    let flush = |code: &mut String, lines: &mut Vec<String>| {
        if !code.trim().is_empty() {
            lines.push(format!("python3 -c {}", quote(code)));
        }
        code.clear();
    };
    let mut rest = cell.lines();
    while let Some(line) = rest.next() {
        let stripped = line.trim_start();
        if let Some(magic) = stripped.strip_prefix("%%") {
            flush(&mut code, &mut lines);
            let body: Vec<&str> = rest.by_ref().collect();
            lines.push(cell_magic(magic, &body.join("\n")));
            break;
        }
        match shell_line(stripped) {
            Some(shell) => {
                flush(&mut code, &mut lines);
                lines.push(shell);
            }
            None => {
                code.push_str(line);
                code.push('\n');
            }
        }
    }
    flush(&mut code, &mut lines);
    lines.join("\n")
}

/// What a line runs in the shell: `!cmd`, `x = !cmd`, or a line magic.
fn shell_line(line: &str) -> Option<String> {
    let escape = line.strip_prefix('!').or_else(|| {
        let (target, value) = line.split_once('=')?;
        let plain = target
            .trim()
            .chars()
            .all(|c| c.is_alphanumeric() || "_.[], ".contains(c));
        plain
            .then(|| value.trim_start().strip_prefix('!'))
            .flatten()
    });
    if let Some(command) = escape {
        return Some(command.trim().to_owned());
    }
    let magic = line.strip_prefix('%')?;
    let (name, args) = magic.split_once(char::is_whitespace).unwrap_or((magic, ""));
    let args = args.trim();
    Some(match name {
        "cd" => format!("cd {args}"),
        "env" | "set_env" => match args.split_once(['=', ' ']) {
            Some((key, value)) => format!("export {key}={}", quote(value.trim())),
            None => return None,
        },
        "run" => format!("python3 {args}"),
        "pip" => format!("pip {args}"),
        "time" | "timeit" => format!("python3 -c {}", quote(args)),
        _ => return None,
    })
}

/// What a cell magic runs with the rest of the cell as its body.
fn cell_magic(magic: &str, body: &str) -> String {
    let (name, args) = magic.split_once(char::is_whitespace).unwrap_or((magic, ""));
    match name {
        "bash" | "sh" => body.to_owned(),
        "writefile" => {
            let delimiter = heredoc_delimiter(body);
            format!("cat > {} <<'{delimiter}'\n{body}\n{delimiter}", args.trim())
        }
        _ => python(body),
    }
}

/// A here-document delimiter that no line of `body` is.
fn heredoc_delimiter(body: &str) -> String {
    let mut delimiter = String::from("TAMA_CELL");
    while body.lines().any(|line| line == delimiter) {
        delimiter.push('_');
    }
    delimiter
}

#[cfg(test)]
mod tests {
    use super::command;

    #[test]
    fn cells_read_as_the_commands_that_run_them() {
        assert_eq!(
            command("js", "require('fs').rmSync(p)").unwrap(),
            r"node -e 'require('\''fs'\'').rmSync(p)'"
        );
        assert_eq!(
            command("py", "import os\n!git commit -n -m x\nx = 1").unwrap(),
            "python3 -c 'import os\n'\ngit commit -n -m x\npython3 -c 'x = 1\n'"
        );
        assert_eq!(
            command("py", "%cd ~\nout = !rm -rf .tama\n%env TAMA_HOME=/tmp").unwrap(),
            "cd ~\nrm -rf .tama\nexport TAMA_HOME='/tmp'"
        );
        assert_eq!(
            command("py", "x = 2\n%%bash\nrm -rf ~/.tama\necho done").unwrap(),
            "python3 -c 'x = 2\n'\nrm -rf ~/.tama\necho done"
        );
        assert_eq!(
            command("py", "%%writefile ~/.tama/registry.json\n{}").unwrap(),
            "cat > ~/.tama/registry.json <<'TAMA_CELL'\n{}\nTAMA_CELL"
        );
        assert_eq!(command("py", "a != b").unwrap(), "python3 -c 'a != b\n'");
        assert_eq!(command("ruby", "x"), None);
    }
}
