use super::*;
use crate::field::Field;

fn fields(args: &str) -> Vec<Field<'_>> {
    args.split_whitespace().map(Field::new).collect()
}

fn no_verify(subcommand: &str, args: &str) -> Option<String> {
    hook_options(subcommand, &fields(args)).no_verify
}

#[test]
fn long_options_resolve_like_git() {
    // `git commit --no-ver` is ambiguous with --no-verbose in git 2.47.
    assert_eq!(no_verify("commit", "--no-ver"), None);
    assert_eq!(
        no_verify("commit", "--no-veri").as_deref(),
        Some("--no-veri")
    );
    assert_eq!(no_verify("commit", "--no-verify --verify"), None);
    assert_eq!(
        no_verify("commit", "--verify --no-verify").as_deref(),
        Some("--no-verify")
    );
    assert_eq!(no_verify("commit", "--no-no-verify"), None);
    assert_eq!(
        no_verify("push", "--no-verify").as_deref(),
        Some("--no-verify")
    );
    assert_eq!(
        no_verify("pull", "--no-verify").as_deref(),
        Some("--no-verify")
    );
    assert_eq!(no_verify("merge", "--no-verify-signatures"), None);
    assert_eq!(no_verify("merge", "--no-verif"), None);
    // `--no-n` is `--no-null`: only `null` starts with `n` once `no-` is read.
    assert_eq!(no_verify("commit", "--no-n"), None);
    assert_eq!(no_verify("commit", "--no-verify=yes"), None);
}

#[test]
fn short_clusters_and_option_values() {
    assert_eq!(no_verify("commit", "-anm msg").as_deref(), Some("-anm"));
    assert_eq!(no_verify("commit", "-mn"), None);
    assert_eq!(no_verify("commit", "-m -n"), None);
    assert_eq!(no_verify("commit", "--message --no-verify"), None);
    assert_eq!(no_verify("commit", "--message=--no-verify"), None);
    assert_eq!(no_verify("commit", "file -n").as_deref(), Some("-n"));
    assert_eq!(no_verify("commit", "-- -n"), None);
    assert_eq!(no_verify("am", "-n").as_deref(), Some("-n"));
    for subcommand in ["push", "merge", "rebase", "pull", "cherry-pick", "revert"] {
        assert_eq!(no_verify(subcommand, "-n"), None, "{subcommand}");
    }
}

#[test]
fn rebase_exec_is_collected() {
    assert_eq!(
        hook_options("rebase", &fields("-x make main")).exec,
        ["make"]
    );
    assert_eq!(
        hook_options("rebase", &fields("--exec=make main")).exec,
        ["make"]
    );
    assert!(hook_options("push", &fields("--exec=x")).exec.is_empty());
}

#[test]
fn global_options_come_before_the_subcommand() {
    let args = fields("-C dir -c core.hooksPath=/dev/null --no-pager commit -n");
    let globals = global_options(&args);
    assert_eq!(globals.subcommand, Some(5));
    assert_eq!(globals.config.len(), 1);
}

#[test]
fn config_writes_are_told_from_reads() {
    let key = |args: &str| {
        let args = fields(args);
        config::config_write(&args).map(|write| write.key.text.to_string())
    };
    assert_eq!(
        key("core.hooksPath /dev/null").as_deref(),
        Some("core.hooksPath")
    );
    assert_eq!(
        key("--global core.hooksPath x").as_deref(),
        Some("core.hooksPath")
    );
    assert_eq!(
        key("set core.hooksPath x").as_deref(),
        Some("core.hooksPath")
    );
    assert_eq!(
        key("--add core.hooksPath x").as_deref(),
        Some("core.hooksPath")
    );
    assert_eq!(
        key("-f .git/config core.hooksPath x").as_deref(),
        Some("core.hooksPath")
    );
    assert_eq!(key("core.hooksPath"), None);
    assert_eq!(key("--get core.hooksPath"), None);
    assert_eq!(key("--unset core.hooksPath"), None);
    assert_eq!(key("get core.hooksPath"), None);
    assert!(config::is_hooks_path("CORE.HOOKSPATH"));
}

#[test]
fn git_commands_are_in_byte_order_for_the_binary_search() {
    assert!(COMMANDS.is_sorted(), "COMMANDS must stay sorted");
    assert!(is_git_command("commit") && is_git_command("write-tree"));
    assert!(!is_git_command("cz") && !is_git_command(""));
}
