//! Environment variables whose value a program runs as a command: a
//! pager or an editor, an askpass helper, a compiler or a runner a build
//! tool starts, `less`'s input filter. `PAGER='rm -rf ~' man ls` runs it.

/// The command `value` of the variable `name` runs, when programs run it:
/// `LESSOPEN`'s and `LESSCLOSE`'s with their leading `|` (a pipe filter)
/// taken off, every other one as it is.
pub fn command_in_variable<'v>(name: &str, value: &'v str) -> Option<&'v str> {
    if matches!(name, "LESSOPEN" | "LESSCLOSE") {
        return Some(value.trim_start_matches(['|', '-']));
    }
    let cargo_target = name
        .strip_prefix("CARGO_TARGET_")
        .is_some_and(|rest| rest.ends_with("_RUNNER") || rest.ends_with("_LINKER"));
    let named = PAGERS_AND_EDITORS.contains(&name) || COMMAND_VARIABLES.contains(&name);
    (cargo_target || named).then_some(value)
}

/// The variables that name the pager or editor programs open in the
/// terminal (`git log`, `git commit`, `man`, `crontab -e`).
pub const PAGERS_AND_EDITORS: &[&str] = &[
    "PAGER",
    "MANPAGER",
    "GIT_PAGER",
    "SYSTEMD_PAGER",
    "GH_PAGER",
    "GLAB_PAGER",
    "BAT_PAGER",
    "DELTA_PAGER",
    "PSQL_PAGER",
    "AWS_PAGER",
    "EDITOR",
    "VISUAL",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "SUDO_EDITOR",
    "KUBE_EDITOR",
    "SVN_EDITOR",
    "FCEDIT",
];

/// Other variables whose value programs run.
const COMMAND_VARIABLES: &[&str] = &[
    "BROWSER",
    // Helpers that ask for passwords or open connections.
    "SSH_ASKPASS",
    "SUDO_ASKPASS",
    "GIT_ASKPASS",
    "GIT_SSH",
    "GIT_SSH_COMMAND",
    "GIT_PROXY_COMMAND",
    "GIT_EXTERNAL_DIFF",
    "RSYNC_RSH",
    "CVS_RSH",
    // What make's built-in rules and build tools start.
    "CC",
    "CXX",
    "CPP",
    "FC",
    "LD",
    "AR",
    "AS",
    "RUSTC",
    "RUSTDOC",
    "RUSTC_WRAPPER",
    "RUSTC_WORKSPACE_WRAPPER",
    "CARGO_BUILD_RUSTC",
    "CARGO_BUILD_RUSTDOC",
    "CARGO_BUILD_RUSTC_WRAPPER",
    // The shell npm runs scripts through.
    "npm_config_script_shell",
    "NPM_CONFIG_SCRIPT_SHELL",
];

#[cfg(test)]
mod tests {
    use super::command_in_variable;

    #[test]
    fn the_commands_programs_run_from_variables_are_found() {
        assert_eq!(command_in_variable("PAGER", "less -R"), Some("less -R"));
        assert_eq!(
            command_in_variable("LESSOPEN", "|lesspipe %s"),
            Some("lesspipe %s")
        );
        assert_eq!(
            command_in_variable("CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER", "qemu"),
            Some("qemu")
        );
        assert_eq!(command_in_variable("PATH", "/bin"), None);
        assert_eq!(command_in_variable("CFLAGS", "-O2"), None);
    }
}
