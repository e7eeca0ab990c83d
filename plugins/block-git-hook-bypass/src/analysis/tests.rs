use super::find_bypass;

#[test]
fn plain_commands_pass() {
    assert_eq!(find_bypass("git commit -m 'fix: x'"), None);
}

#[test]
fn no_verify_is_found() {
    assert!(find_bypass("git commit --no-verify -m x").is_some());
}

#[test]
fn inert_commands_are_sorted_for_binary_search() {
    assert!(super::run::INERT.windows(2).all(|pair| pair[0] < pair[1]));
}
