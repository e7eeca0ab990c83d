//! Environment variables with which hook managers skip hooks.

/// The hook manager that `name=value` switches off, if it does.
///
/// Known switches are matched by name; other names are matched by shape
/// (a hook word with a skip word, such as `SKIP_HOOKS` or `GIT_HOOKS_DISABLED`)
/// so that a home-grown hook script's switch is caught too. An unknown value
/// counts as set for switches that skip when set to anything, and as not
/// zero for those that skip when zero.
pub fn switched_off_by(name: &str, value: &str) -> Option<&'static str> {
    let set = !matches!(
        value.to_ascii_lowercase().as_str(),
        "" | "0" | "false" | "no" | "off"
    );
    let zero = matches!(value, "0" | "false");
    let upper = name.to_ascii_uppercase();
    match upper.as_str() {
        "HUSKY" => return zero.then_some("husky's hooks"),
        "LEFTHOOK" => return zero.then_some("lefthook's hooks"),
        "HUSKY_SKIP_HOOKS" => return set.then_some("husky's hooks"),
        "SKIP" => return set.then_some("the pre-commit or overcommit hooks it names"),
        "PRE_COMMIT_ALLOW_NO_CONFIG" => return set.then_some("pre-commit's check for its config"),
        "LEFTHOOK_EXCLUDE" | "LEFTHOOK_SKIP" => {
            return set.then_some("the lefthook hooks it names");
        }
        "OVERCOMMIT_DISABLE" => return set.then_some("overcommit's hooks"),
        "SKIP_SIMPLE_GIT_HOOKS" => return set.then_some("simple-git-hooks"),
        "NO_VERIFY" | "GIT_NO_VERIFY" | "SKIP_VERIFY" => {
            return set.then_some("the hooks that read it");
        }
        _ => {}
    }
    let about_hooks = [
        "HOOK",
        "HUSKY",
        "PRE_COMMIT",
        "PRECOMMIT",
        "PRE_PUSH",
        "PREPUSH",
    ]
    .iter()
    .any(|word| upper.contains(word));
    let skips = ["SKIP", "DISABLE", "BYPASS", "EXCLUDE", "IGNORE", "NO_"]
        .iter()
        .any(|word| upper.contains(word));
    let unrelated = ["INSTALL", "SSL", "TLS", "CERT"]
        .iter()
        .any(|word| upper.contains(word));
    (about_hooks && skips && !unrelated && set).then_some("the hooks that read it")
}
