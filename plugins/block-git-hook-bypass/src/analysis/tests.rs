use super::find_bypass;

#[test]
fn plain_commands_pass() {
    assert_eq!(find_bypass("git commit -m 'fix: x'"), None);
}

#[test]
fn no_verify_is_found() {
    assert!(find_bypass("git commit --no-verify -m x").is_some());
}
