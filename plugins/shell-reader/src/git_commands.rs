//! Where git runs commands of its own: the settings, variables and options
//! whose values it runs, which both gates read as the commands they are.

use crate::prelude::*;

use crate::interpreters::quoted;

/// The sections of git's configuration where a variable's value is run as
/// a command, each with those variables (any, when none are listed):
/// pagers, editors, the ssh command, external diff and diff drivers,
/// credential helpers, the fsmonitor, signing programs, clean/smudge
/// filters, merge drivers, diff and merge tools, a remote's upload and
/// receive programs.
pub const RUNNING_SECTIONS: &[(&str, &[&str])] = &[
    ("pager", &[]),
    (
        "core",
        &[
            "pager",
            "editor",
            "sshcommand",
            "fsmonitor",
            "askpass",
            "gitproxy",
        ],
    ),
    ("sequence", &["editor"]),
    ("diff", &["external", "command", "textconv"]),
    ("credential", &["helper"]),
    ("gpg", &["program", "defaultkeycommand"]),
    ("filter", &["clean", "smudge", "process"]),
    ("merge", &["driver"]),
    ("difftool", &["cmd"]),
    ("mergetool", &["cmd"]),
    ("browser", &["cmd"]),
    ("man", &["cmd"]),
    ("trailer", &["command", "cmd"]),
    ("remote", &["uploadpack", "receivepack"]),
    ("interactive", &["difffilter"]),
    ("uploadpack", &["packobjectshook"]),
    ("sendemail", &["sendmailcmd", "tocmd", "cccmd", "headercmd"]),
];

/// Whether git runs a setting's value as a command ([`RUNNING_SECTIONS`]).
pub fn runs_setting(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    let section = key.split('.').next().unwrap_or("");
    let variable = key.rsplit('.').next().unwrap_or("");
    RUNNING_SECTIONS
        .iter()
        .find(|(name, _)| *name == section)
        .is_some_and(|(_, variables)| variables.is_empty() || variables.contains(&variable))
}

/// Commands an editor's text may write into a rebase's todo list, which git
/// runs as its `exec` (or `x`) lines once the editor returns: what follows
/// `exec ` or `x ` to the end of its line (a newline, or a `\n` written for
/// `printf` or `sed`), the quotes and slashes that close the editor's own
/// text left off. `GIT_SEQUENCE_EDITOR="sed -i '1i exec git commit -anm x'"
/// git rebase -i HEAD` commits past the hooks.
pub fn todo_commands(editor: &str) -> Vec<String> {
    let mut commands = Vec::new();
    for line in editor.split('\n').flat_map(|line| line.split("\\n")) {
        for (at, _) in line.match_indices(['e', 'x']) {
            let Some(rest) = line.get(at..).and_then(|rest| {
                rest.strip_prefix("exec ")
                    .or_else(|| rest.strip_prefix("x "))
            }) else {
                continue;
            };
            let starts_word = line
                .get(..at)
                .and_then(|before| before.chars().next_back())
                .is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '-'));
            let command = rest.trim_end_matches(['\'', '"', '/', ' ']);
            if starts_word && !command.trim().is_empty() {
                commands.push(command.to_owned());
            }
        }
    }
    commands
}

/// Variables whose value git runs as a command.
pub const VARIABLES: &[&str] = &[
    "GIT_PAGER",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "GIT_SSH_COMMAND",
    "GIT_SSH",
    "GIT_EXTERNAL_DIFF",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "GIT_PROXY_COMMAND",
    "PAGER",
    "EDITOR",
    "VISUAL",
];

/// The commands, as shell text, that the options of `git <subcommand>`
/// have git run: `difftool -x`, `fetch --upload-pack`, `push
/// --receive-pack`, `filter-branch --tree-filter`, `send-email --to-cmd`,
/// `grep -O`'s pager, and an `ext::` remote's program.
pub fn option_commands<W: AsRef<str>>(subcommand: &str, args: &[W]) -> Vec<String> {
    let options: &[&str] = match subcommand {
        "difftool" => &["-x", "--extcmd"],
        "fetch" | "pull" | "ls-remote" => &["--upload-pack"],
        "clone" => &["-u", "--upload-pack"],
        "push" => &["--receive-pack", "--exec"],
        "archive" => &["--exec"],
        "filter-branch" => &[
            "--env-filter",
            "--tree-filter",
            "--index-filter",
            "--parent-filter",
            "--msg-filter",
            "--commit-filter",
            "--tag-name-filter",
        ],
        "send-email" => &["--to-cmd", "--cc-cmd", "--sendmail-cmd", "--header-cmd"],
        // `grep -O` takes its pager only attached; alone it opens `$PAGER`.
        "grep" => {
            return args
                .iter()
                .filter_map(|arg| {
                    let arg = arg.as_ref();
                    arg.strip_prefix("--open-files-in-pager=")
                        .or_else(|| arg.strip_prefix("-O"))
                })
                .filter(|pager| !pager.is_empty())
                .map(str::to_owned)
                .collect();
        }
        _ => return Vec::new(),
    };
    let mut commands = Vec::new();
    let mut index = 0;
    while let Some(arg) = args.get(index).map(AsRef::as_ref) {
        index += 1;
        if options.contains(&arg) {
            commands.extend(args.get(index).map(|value| value.as_ref().to_owned()));
            index += 1;
        } else if let Some(value) = options.iter().find_map(|option| {
            let rest = arg.strip_prefix(option)?;
            if option.starts_with("--") {
                rest.strip_prefix('=')
            } else {
                Some(rest).filter(|rest| !rest.is_empty())
            }
        }) {
            commands.push(value.to_owned());
        } else if let Some(remote) = arg.strip_prefix("ext::") {
            commands.push(ext_command(remote));
        }
    }
    commands
}

/// An `ext::` remote's program and arguments, as shell text: unescaped
/// spaces split arguments, `% ` is a space and `%%` a percent sign.
fn ext_command(remote: &str) -> String {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut chars = remote.chars();
    while let Some(c) = chars.next() {
        match c {
            '%' => match chars.next() {
                Some(' ') => word.push(' '),
                Some('%') => word.push('%'),
                Some(other) => {
                    word.push('%');
                    word.push(other);
                }
                None => word.push('%'),
            },
            ' ' => words.push(quoted(&core::mem::take(&mut word))),
            _ => word.push(c),
        }
    }
    words.push(quoted(&word));
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_editor_writes_exec_lines_into_a_todo_list() {
        assert_eq!(
            todo_commands("sed -i '1i exec git commit -anm x'"),
            ["git commit -anm x"]
        );
        assert_eq!(
            todo_commands("printf 'pick 1\\nx make test\\n' >"),
            ["make test"]
        );
        assert_eq!(
            todo_commands("sed -i 's/^pick/x git commit -n; pick/'"),
            ["git commit -n; pick"]
        );
        assert!(todo_commands("sed -i 's/^pick/edit/'").is_empty());
        assert!(todo_commands("vim --cmd 'set nox'").is_empty());
    }

    #[test]
    fn settings_that_run_commands_are_known_by_section_and_name() {
        for key in [
            "core.pager",
            "pager.log",
            "filter.lfs.clean",
            "merge.ours.driver",
            "diff.pdf.textconv",
            "credential.https://x.helper",
            "difftool.vim.cmd",
            "remote.origin.uploadpack",
            "Core.FsMonitor",
        ] {
            assert!(runs_setting(key), "{key}");
        }
        for key in [
            "core.autocrlf",
            "user.name",
            "filter.lfs.required",
            "merge.ff",
        ] {
            assert!(!runs_setting(key), "{key}");
        }
    }

    #[test]
    fn options_that_run_commands_are_read() {
        assert_eq!(option_commands("difftool", &["-x", "a b"]), ["a b"]);
        assert_eq!(
            option_commands("push", &["--receive-pack=x", "origin"]),
            ["x"]
        );
        assert_eq!(option_commands("fetch", &["-u", "x"]), Vec::<String>::new());
        assert_eq!(
            option_commands(
                "grep",
                &["-Ovim -R", "-O", "x", "--open-files-in-pager=less"]
            ),
            ["vim -R", "less"]
        );
        assert_eq!(
            option_commands("filter-branch", &["--tree-filter", "t", "HEAD"]),
            ["t"]
        );
        assert_eq!(
            option_commands("fetch", &["ext::sh -c git% commit% -n"]),
            ["'sh' '-c' 'git commit -n'"]
        );
    }
}
