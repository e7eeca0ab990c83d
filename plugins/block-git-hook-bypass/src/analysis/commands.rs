//! The commands the walker knows by name, besides git, shells and the
//! builtins `run` handles itself: one table, so that a command's name is
//! looked up once, not once for each thing a command may do.

use super::execs::Runner;
use super::files::FileTool;
use super::wrappers::{Spec, spec};

/// What the walker knows a command to do. Most commands do one thing;
/// `perl` both edits files in place and runs code.
pub(super) struct Known {
    /// Runs the command given in its arguments (`sudo`, `timeout`, …).
    pub wrapper: Option<Spec>,
    /// What it can do to hook files.
    pub file_tool: Option<FileTool>,
    /// A hook manager's argument that removes its hooks.
    pub uninstall: Option<&'static str>,
    /// Runs code given in its arguments or input.
    pub runner: Option<Runner>,
    /// Prints, reads or tests its arguments and never runs them.
    pub inert: bool,
}

const NOTHING: Known = Known {
    wrapper: None,
    file_tool: None,
    uninstall: None,
    runner: None,
    inert: false,
};

const INERT: Known = Known {
    inert: true,
    ..NOTHING
};

const fn wrapper(spec: Spec) -> Known {
    Known {
        wrapper: Some(spec),
        ..NOTHING
    }
}

const fn file_tool(tool: FileTool) -> Known {
    Known {
        file_tool: Some(tool),
        ..NOTHING
    }
}

const fn hook_manager(uninstall: &'static str) -> Known {
    Known {
        uninstall: Some(uninstall),
        ..NOTHING
    }
}

const fn runner(runner: Runner) -> Known {
    Known {
        runner: Some(runner),
        ..NOTHING
    }
}

/// What the walker knows `name` to do, if anything.
pub(super) fn known(name: &str) -> Option<Known> {
    Some(match name {
        "sudo" => wrapper(spec(
            "CDghpRrtTUu",
            &[
                "--close-from",
                "--chdir",
                "--group",
                "--host",
                "--prompt",
                "--chroot",
                "--role",
                "--type",
                "--command-timeout",
                "--other-user",
                "--user",
            ],
            0,
        )),
        "doas" => wrapper(spec("uC", &[], 0)),
        "nice" => wrapper(spec("n", &["--adjustment"], 0)),
        "time" => wrapper(spec("fo", &["--format", "--output"], 0)),
        "timeout" => wrapper(spec("sk", &["--signal", "--kill-after"], 1)),
        "stdbuf" => wrapper(spec("ioe", &["--input", "--output", "--error"], 0)),
        "ionice" => wrapper(spec("cn", &["--class", "--classdata"], 0)),
        "chrt" | "taskset" => wrapper(spec("", &[], 1)),
        "exec" => wrapper(spec("a", &[], 0)),
        "flock" => wrapper(spec("wE", &["--timeout", "--conflict-exit-code"], 1)),
        "watch" => wrapper(spec("nd", &["--interval", "--differences"], 0)),
        "strace" | "ltrace" => wrapper(spec("abeEIoOpPsSuUX", &["--output"], 0)),
        "proxychains" | "proxychains4" => wrapper(spec("f", &[], 0)),
        "npx" | "bunx" | "pnpx" => wrapper(spec("p", &["--package"], 0)),
        "env-cmd" => wrapper(spec("f", &["--file"], 0)),
        "command" | "builtin" | "nohup" | "unbuffer" | "chronic" | "ifne" | "catchsegv"
        | "torsocks" | "tsocks" | "cross-env" | "caffeinate" | "faketime" => {
            wrapper(spec("", &[], 0))
        }
        "rm" | "unlink" | "rmdir" | "shred" | "srm" | "trash" | "trash-put" => {
            file_tool(FileTool::Deletes)
        }
        "mv" => file_tool(FileTool::Moves),
        "cp" | "install" | "ln" => file_tool(FileTool::Copies),
        "chmod" => file_tool(FileTool::Chmod),
        "truncate" => file_tool(FileTool::Truncate),
        "sed" | "gsed" => file_tool(FileTool::EditsInPlace),
        "dd" => file_tool(FileTool::Dd),
        "perl" => Known {
            file_tool: Some(FileTool::EditsInPlace),
            runner: Some(Runner::Interpreter),
            ..NOTHING
        },
        "pre-commit" | "lefthook" | "husky" => hook_manager("uninstall"),
        "overcommit" => hook_manager("--uninstall"),
        "ssh" => runner(Runner::Ssh),
        "npm" => runner(Runner::Npm),
        "su" | "runuser" | "script" => runner(Runner::CommandOption),
        "nix-shell" => runner(Runner::NixShell),
        "python" | "python3" | "python2" | "node" | "nodejs" | "ruby" | "php" | "deno" | "bun" => {
            runner(Runner::Interpreter)
        }
        ":" | "[" | "ack" | "ag" | "apropos" | "basename" | "cat" | "cmp" | "cut" | "date"
        | "diff" | "dirname" | "echo" | "egrep" | "exit" | "false" | "fgrep" | "file" | "grep"
        | "head" | "help" | "info" | "jq" | "less" | "logger" | "ls" | "man" | "mkdir" | "more"
        | "printenv" | "printf" | "pwd" | "read" | "readlink" | "realpath" | "return" | "rg"
        | "shift" | "sleep" | "sort" | "stat" | "tail" | "test" | "touch" | "tr" | "trap"
        | "true" | "type" | "uniq" | "wait" | "wc" | "whatis" | "whereis" | "which" | "yq" => INERT,
        _ => return None,
    })
}
