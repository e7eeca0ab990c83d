//! The commands the walker knows by name, besides git, shells and the
//! builtins `run` handles itself: one table, so that a command's name is
//! looked up once, not once for each thing a command may do.

use super::execs::Runner;
use super::files::FileTool;
use super::wrappers::{Spec, spec};
use shell_reader::interpreters::Language;

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

/// What the walker knows `name` to do, if anything. Matched as bytes: byte
/// patterns compile to a tree of compares, one byte at a time, where string
/// patterns compare `name` with every name of its length in turn.
pub(super) fn known(name: &str) -> Option<Known> {
    Some(match name.as_bytes() {
        b"sudo" => wrapper(spec(
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
        b"doas" => wrapper(spec("uC", &[], 0)),
        b"nice" => wrapper(spec("n", &["--adjustment"], 0)),
        b"time" => wrapper(spec("fo", &["--format", "--output"], 0)),
        b"timeout" => wrapper(spec("sk", &["--signal", "--kill-after"], 1)),
        b"stdbuf" => wrapper(spec("ioe", &["--input", "--output", "--error"], 0)),
        b"ionice" => wrapper(spec("cn", &["--class", "--classdata"], 0)),
        b"chrt" | b"taskset" => wrapper(spec("", &[], 1)),
        b"exec" => wrapper(spec("a", &[], 0)),
        b"flock" => wrapper(spec("wE", &["--timeout", "--conflict-exit-code"], 1)),
        b"strace" | b"ltrace" => wrapper(spec("abeEIoOpPsSuUX", &["--output"], 0)),
        b"proxychains" | b"proxychains4" => wrapper(spec("f", &[], 0)),
        b"npx" | b"bunx" | b"pnpx" => wrapper(spec("p", &["--package"], 0)),
        b"env-cmd" => wrapper(spec("f", &["--file"], 0)),
        b"command" | b"builtin" | b"nohup" | b"unbuffer" | b"chronic" | b"ifne" | b"catchsegv"
        | b"torsocks" | b"tsocks" | b"cross-env" | b"caffeinate" | b"faketime" => {
            wrapper(spec("", &[], 0))
        }
        // `rimraf` and `del` are npm's deleters, often run through `npx`.
        b"rm" | b"unlink" | b"rmdir" | b"shred" | b"srm" | b"trash" | b"trash-put" | b"rimraf"
        | b"del" | b"del-cli" => file_tool(FileTool::Deletes),
        b"mv" => file_tool(FileTool::Moves),
        b"cp" | b"install" | b"ln" => file_tool(FileTool::Copies),
        b"chmod" => file_tool(FileTool::Chmod),
        b"rsync" => file_tool(FileTool::Rsync),
        b"setfacl" => file_tool(FileTool::Acl),
        b"truncate" => file_tool(FileTool::Truncate),
        b"mount" => file_tool(FileTool::Mount),
        b"sed" | b"gsed" => file_tool(FileTool::EditsInPlace),
        b"vi" | b"vim" | b"nvim" | b"vim.basic" | b"vim.tiny" => file_tool(FileTool::Editor {
            reads_commands: false,
        }),
        b"ex" | b"ed" | b"red" => file_tool(FileTool::Editor {
            reads_commands: true,
        }),
        b"emacs" | b"emacs-nox" => Known {
            file_tool: Some(FileTool::Editor {
                reads_commands: false,
            }),
            runner: Some(Runner::Interpreter),
            ..NOTHING
        },
        b"dd" => file_tool(FileTool::Dd),
        b"gzip" | b"pigz" | b"bzip2" | b"pbzip2" | b"xz" | b"lzma" | b"lzip" | b"compress" => {
            file_tool(FileTool::Compresses { keeps_input: false })
        }
        b"zstd" | b"lz4" | b"brotli" => file_tool(FileTool::Compresses { keeps_input: true }),
        b"perl" => Known {
            file_tool: Some(FileTool::EditsInPlace),
            runner: Some(Runner::Interpreter),
            ..NOTHING
        },
        b"pre-commit" | b"lefthook" | b"husky" => hook_manager("uninstall"),
        b"overcommit" => hook_manager("--uninstall"),
        b"ssh" => runner(Runner::Ssh),
        b"npm" => runner(Runner::Npm),
        b"su" | b"runuser" | b"script" => runner(Runner::CommandOption),
        b"nix-shell" => runner(Runner::NixShell),
        _ if shell_reader::runners::inert(name) => INERT,
        _ => return Language::of(name).map(|_| runner(Runner::Interpreter)),
    })
}
