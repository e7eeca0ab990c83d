//! Shell start-up files by name: what is written there runs in later shells
//! (at log-in, for each interactive shell, or at log-out), wherever the
//! file lies.

/// The files bash, zsh, fish, direnv and PAM read as a shell starts or ends.
pub const STARTUP_FILES: &[&str] = &[
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".bash_aliases",
    ".profile",
    ".zshrc",
    ".zshenv",
    ".zprofile",
    ".zlogin",
    ".zlogout",
    ".pam_environment",
    ".envrc",
    "config.fish",
    "bash.bashrc",
];

/// Whether `path`'s file name is a shell start-up file's.
pub fn is_startup_name(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    STARTUP_FILES.contains(&name)
}
