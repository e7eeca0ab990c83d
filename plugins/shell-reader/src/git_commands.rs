//! Where git runs shell commands of its own: the settings and variables
//! whose values it runs, which both gates read as the commands they are.

/// Whether git runs a setting's value as a shell command: pagers, editors,
/// the ssh command, external diff, credential helpers, the fsmonitor.
pub fn runs_setting(key: &str) -> bool {
    const KEYS: &[&str] = &[
        "core.pager",
        "core.editor",
        "core.sshCommand",
        "core.fsmonitor",
        "sequence.editor",
        "diff.external",
        "credential.helper",
        "gpg.program",
    ];
    KEYS.iter().any(|known| known.eq_ignore_ascii_case(key))
        || key
            .get(..6)
            .is_some_and(|section| section.eq_ignore_ascii_case("pager."))
}

/// Variables whose value git runs as a shell command.
pub const VARIABLES: &[&str] = &[
    "GIT_PAGER",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "GIT_SSH_COMMAND",
    "GIT_EXTERNAL_DIFF",
    "PAGER",
    "EDITOR",
    "VISUAL",
];
