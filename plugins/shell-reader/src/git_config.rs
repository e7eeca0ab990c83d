//! git's configuration: what `git config` writes, and its file syntax,
//! read as git reads it, so that what a written file sets is found however
//! it is spelled: a variable on its section's line (`[core] hooksPath = x`),
//! a value continued over lines, quotes, escapes and comments. The syntax
//! is read here because the gates are built without `std` and the crates
//! that parse git's configuration need it.

use crate::prelude::*;

use crate::field::UNKNOWN;
use crate::git_commands::runs_setting;
use crate::interpreters::quoted;

/// The alias a key defines: `alias.ci` defines `ci`.
pub fn alias_name(key: &str) -> Option<&str> {
    let section = key.get(..6)?;
    section
        .eq_ignore_ascii_case("alias.")
        .then(|| key.get(6..))
        .flatten()
}

/// The shell text git runs for `key` set to `value`, when it runs one: a
/// command setting's (`core.pager`, a filter), or an alias's that starts
/// with `!`.
pub fn runs(key: &str, value: &str) -> Option<String> {
    let shell_alias = alias_name(key).is_some() && value.starts_with('!');
    (shell_alias || runs_setting(key)).then(|| value.trim_start_matches('!').to_owned())
}

/// Where `git config ARGS` writes: the places in `args` of the key and of
/// the value, if it writes a value. Reads, `--unset` and the like write
/// nothing. `exact` is a word's text when it is known; a word it is not is
/// an operand.
pub fn written<W>(
    args: &[W],
    exact: impl Fn(&W) -> Option<&str>,
) -> Option<(usize, Option<usize>)> {
    let mut start = 0;
    let mut writes = None;
    if let Some(subcommand) = args.first().and_then(&exact)
        && matches!(
            subcommand,
            "set" | "get" | "list" | "unset" | "rename-section" | "remove-section" | "edit"
        )
    {
        writes = Some(subcommand == "set");
        start = 1;
    }
    let mut operands = Vec::new();
    let mut index = start;
    while let Some(arg) = args.get(index) {
        index += 1;
        let Some(text) = exact(arg) else {
            operands.push(index - 1);
            continue;
        };
        if text == "--" {
            operands.extend(index..args.len());
            break;
        }
        let Some(option) = text.strip_prefix('-') else {
            operands.push(index - 1);
            continue;
        };
        let (name, attached) = option
            .split_once('=')
            .map_or((option, false), |(name, _)| (name, true));
        match name {
            "-file" | "-blob" | "-type" | "-default" | "-comment" | "-value" | "-url" | "f"
                if !attached =>
            {
                index += 1;
            }
            "-add" | "-replace-all" => writes = writes.or(Some(true)),
            "-get" | "-get-all" | "-get-regexp" | "-get-urlmatch" | "-get-color"
            | "-get-colorbool" | "-list" | "l" | "-unset" | "-unset-all" | "-rename-section"
            | "-remove-section" | "-edit" | "e" => writes = Some(false),
            _ => {}
        }
    }
    let writes = writes.unwrap_or(operands.len() >= 2);
    let key = *operands.first()?;
    writes.then(|| (key, operands.get(1).copied()))
}

/// What a text in git's configuration syntax sets, as the `git config`
/// commands that would set it, for a gate to read as it reads those (the
/// aliases, the commands git runs from its settings, core.hooksPath,
/// includes); `None` for a text with no `[section]`. Git reads such a file
/// when it is its configuration, or later through `GIT_CONFIG_GLOBAL` or an
/// include, so its name does not matter.
pub fn commands(content: &str) -> Option<String> {
    let entries = entries(content)?;
    let mut commands = String::new();
    for entry in entries {
        commands.push_str(&format!(
            "git config {} {}\n",
            quoted(&entry.key),
            quoted(&entry.value)
        ));
    }
    Some(commands)
}

/// The `git config` commands that set each `(key, value)` of `settings`,
/// as [`commands`] gives a file's.
pub fn setting_commands(settings: &[(String, String)]) -> String {
    let mut commands = String::new();
    for (key, value) in settings {
        commands.push_str(&format!("git config {} {}\n", quoted(key), quoted(value)));
    }
    commands
}

/// The settings git takes from its environment, `value` giving each
/// variable: `GIT_CONFIG_KEY_<n>` with `GIT_CONFIG_VALUE_<n>` from 0 on (git
/// reads `GIT_CONFIG_COUNT` of them, each there), and
/// `GIT_CONFIG_PARAMETERS` ([`parameters`]).
pub fn environment_settings(value: impl Fn(&str) -> Option<String>) -> Vec<(String, String)> {
    /// Settings read from `GIT_CONFIG_KEY_<n>`, at most.
    const MOST_KEYS: usize = 64;
    let mut settings: Vec<(String, String)> = (0..MOST_KEYS)
        .map_while(|n| {
            let key = value(&format!("GIT_CONFIG_KEY_{n}"))?;
            let setting = value(&format!("GIT_CONFIG_VALUE_{n}"));
            Some((key, setting.unwrap_or_default()))
        })
        .collect();
    if let Some(parameters) = value("GIT_CONFIG_PARAMETERS") {
        settings.extend(self::parameters(&parameters));
    }
    settings
}

/// The settings of `GIT_CONFIG_PARAMETERS`, which git fills from `-c` for
/// the programs it runs: single-quoted keys and values (`'alias.ci'='commit
/// -n'`, a quote inside written `'\''`), or single-quoted `key=value`.
pub fn parameters(text: &str) -> Vec<(String, String)> {
    let mut settings = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        let Some(first) = single_quoted(&mut chars) else {
            return settings;
        };
        let setting = match chars.next_if_eq(&'=') {
            Some(_) => (first, single_quoted(&mut chars).unwrap_or_default()),
            None => match first.split_once('=') {
                Some((key, value)) => (key.to_owned(), value.to_owned()),
                None => (first, "true".to_owned()),
            },
        };
        settings.push(setting);
    }
}

/// A single-quoted string and the `\'` escapes git joins to it, from where
/// `chars` stands; none when no quote starts there.
fn single_quoted(chars: &mut core::iter::Peekable<core::str::Chars<'_>>) -> Option<String> {
    chars.next_if_eq(&'\'')?;
    let mut text = String::new();
    loop {
        match chars.next() {
            None => return Some(text),
            Some('\'') => match chars.peek() {
                Some('\\') => {
                    chars.next();
                    text.extend(chars.next());
                    chars.next_if_eq(&'\'');
                }
                _ => return Some(text),
            },
            Some(c) => text.push(c),
        }
    }
}

/// Files git reads its configuration from: a repository's `config` (and
/// `config.worktree`), `~/.gitconfig`, `~/.config/git/config`,
/// `/etc/gitconfig`.
pub fn is_file(path: &str) -> bool {
    let (folder, name) = path.rsplit_once('/').unwrap_or(("", path));
    let is = |known: &str| name.eq_ignore_ascii_case(known);
    if is(".gitconfig") {
        return is_home(folder);
    }
    if is("gitconfig") {
        return folder == "/etc";
    }
    if !is("config") && !is("config.worktree") {
        return false;
    }
    let folder = folder.to_ascii_lowercase();
    folder.contains(".git/") || folder.ends_with(if is("config") { "git" } else { ".git" })
}

/// Whether `folder` may be a home folder: `~`, `/root`, `/home/<user>`,
/// one the gate cannot know (`$HOME`), or the current one (empty).
fn is_home(folder: &str) -> bool {
    let under_home = folder
        .strip_prefix("/home/")
        .is_some_and(|user| !user.contains('/'));
    folder.is_empty()
        || folder == "~"
        || folder == "/root"
        || under_home
        || folder.contains(UNKNOWN)
}

/// What a text written to `path` sets, as the `git config` commands that
/// would set it (see [`commands`]); for a piece of one of git's
/// configuration files without a section header (an edit's new text), its
/// variables read as those of each section where a variable runs a command
/// (`alias`, `core`, `diff`, a filter, …), among which it may land.
pub fn written_commands(path: &str, content: &str) -> Option<String> {
    commands(content).or_else(|| {
        is_file(path).then(|| {
            let running = crate::git_commands::RUNNING_SECTIONS.iter();
            // An alias that starts with `!` runs a shell too.
            core::iter::once("alias")
                .chain(running.map(|(section, _)| *section))
                .filter_map(|section| commands(&format!("[{section}]\n{content}")))
                .collect()
        })
    })
}

/// One variable a configuration text sets, its key as `git config` names it.
#[derive(Debug, PartialEq, Eq)]
pub struct Entry {
    /// `section.name` or `section.subsection.name`; the section and name
    /// lower-cased, as git compares them.
    pub key: String,
    pub value: String,
}

/// The variables `content` sets, in order; `None` when it has no section
/// header (`[section]`), so is no configuration git would read.
pub fn entries(content: &str) -> Option<Vec<Entry>> {
    let mut chars = content.chars().peekable();
    let mut section = None::<String>;
    let mut entries = Vec::new();
    while let Some(c) = chars.next() {
        match c {
            '[' => section = Some(header(&mut chars)),
            '#' | ';' => skip_line(&mut chars),
            c if c.is_ascii_alphabetic() => {
                let mut name = String::from(c.to_ascii_lowercase());
                while let Some(&next) = chars.peek() {
                    if !(next.is_ascii_alphanumeric() || next == '-') {
                        break;
                    }
                    name.push(next.to_ascii_lowercase());
                    chars.next();
                }
                while chars.peek().is_some_and(|&c| c == ' ' || c == '\t') {
                    chars.next();
                }
                let value = if chars.peek() == Some(&'=') {
                    chars.next();
                    value(&mut chars)
                } else {
                    // A name alone is a boolean set to true.
                    skip_line(&mut chars);
                    "true".to_owned()
                };
                let section = section.as_deref().unwrap_or_default();
                entries.push(Entry {
                    key: format!("{section}.{name}"),
                    value,
                });
            }
            _ => {}
        }
    }
    section.map(|_| entries)
}

/// Whether the text sets core.hooksPath, in any section (fail closed on
/// one git would not read as core's), or has such a line with no section.
pub fn sets_hooks_path(content: &str) -> bool {
    let has_key = |key: &str| {
        key.rsplit('.')
            .next()
            .is_some_and(|name| name == "hookspath")
    };
    match entries(content) {
        Some(entries) => entries.iter().any(|entry| has_key(&entry.key)),
        None => entries(&format!("[core]\n{content}"))
            .unwrap_or_default()
            .iter()
            .any(|entry| has_key(&entry.key)),
    }
}

/// A section header after its `[`: `core`, `remote "origin"` (the
/// subsection kept as written), or the older `branch.main` (lower-cased).
fn header(chars: &mut core::iter::Peekable<core::str::Chars<'_>>) -> String {
    let mut name = String::new();
    let mut subsection = None::<String>;
    while let Some(c) = chars.next() {
        match c {
            ']' | '\n' => break,
            '"' => {
                let mut sub = String::new();
                while let Some(c) = chars.next() {
                    match c {
                        '"' | '\n' => break,
                        '\\' => sub.extend(chars.next()),
                        c => sub.push(c),
                    }
                }
                subsection = Some(sub);
            }
            c if c.is_whitespace() => {}
            c => name.push(c.to_ascii_lowercase()),
        }
    }
    match subsection {
        Some(sub) => format!("{name}.{sub}"),
        None => name,
    }
}

/// A value after its `=`, to the end of its line: surrounding blanks
/// dropped, quotes and escapes resolved, a `\` at a line's end joining the
/// next, a comment outside quotes ending it.
fn value(chars: &mut core::iter::Peekable<core::str::Chars<'_>>) -> String {
    let mut value = String::new();
    // Blanks are kept only between words, and inside quotes.
    let mut blanks = String::new();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match c {
            '\n' => break,
            '\\' => match chars.next() {
                Some('\n') => {}
                Some('n') => value.push('\n'),
                Some('t') => value.push('\t'),
                Some('b') => {
                    value.pop();
                }
                Some(other) => {
                    value.push_str(&core::mem::take(&mut blanks));
                    value.push(other);
                }
                None => {}
            },
            '"' => {
                value.push_str(&core::mem::take(&mut blanks));
                quoted = !quoted;
            }
            ';' | '#' if !quoted => {
                skip_line(chars);
                break;
            }
            c if c.is_whitespace() && !quoted => {
                if !value.is_empty() {
                    blanks.push(c);
                }
            }
            c => {
                value.push_str(&core::mem::take(&mut blanks));
                value.push(c);
            }
        }
    }
    value
}

fn skip_line(chars: &mut impl Iterator<Item = char>) {
    for c in chars.by_ref() {
        if c == '\n' {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_read_as_git_quotes_them() {
        let pairs = |text| parameters(text);
        assert_eq!(
            pairs("'alias.ci'='commit --no-verify' 'core.pager'='less'"),
            vec![
                ("alias.ci".to_owned(), "commit --no-verify".to_owned()),
                ("core.pager".to_owned(), "less".to_owned())
            ]
        );
        assert_eq!(
            pairs("'alias.x=!echo it'\\''s' 'user.useconfigonly'"),
            vec![
                ("alias.x".to_owned(), "!echo it's".to_owned()),
                ("user.useconfigonly".to_owned(), "true".to_owned())
            ]
        );
        assert_eq!(pairs("not quoted"), vec![]);
    }

    fn pairs(content: &str) -> Vec<(String, String)> {
        entries(content)
            .unwrap_or_default()
            .into_iter()
            .map(|entry| (entry.key, entry.value))
            .collect()
    }

    fn pair(key: &str, value: &str) -> (String, String) {
        (key.to_owned(), value.to_owned())
    }

    #[test]
    fn reads_values_as_git_does() {
        assert_eq!(
            pairs("[alias] ci = commit --no-verify\n"),
            [pair("alias.ci", "commit --no-verify")]
        );
        assert_eq!(
            pairs("[ALIAS]\n\tCi=\"commit\" -n ; note\n"),
            [pair("alias.ci", "commit -n")]
        );
        assert_eq!(
            pairs("[alias]\n  ci = \\\n commit -n\n"),
            [pair("alias.ci", "commit -n")]
        );
        assert_eq!(
            pairs("[remote \"Origin\"]\n url = x # a comment\n[core]\n bare\n"),
            [pair("remote.Origin.url", "x"), pair("core.bare", "true")]
        );
        assert_eq!(
            pairs("[branch.Main]\n remote = \"a;b\\\"c\"\n"),
            [pair("branch.main.remote", "a;b\"c")]
        );
        assert_eq!(entries("hooksPath = x\n"), None);
    }

    #[test]
    fn finds_the_shell_text_a_setting_runs() {
        assert_eq!(runs("alias.x", "!rm -rf d").as_deref(), Some("rm -rf d"));
        assert_eq!(runs("ALIAS.x", "!sh").as_deref(), Some("sh"));
        assert_eq!(runs("alias.st", "status"), None);
        assert_eq!(runs("core.pager", "less -R").as_deref(), Some("less -R"));
        assert_eq!(runs("user.name", "x"), None);
    }

    #[test]
    fn finds_what_git_config_writes() {
        let written = |args: &str| {
            let args: Vec<&str> = args.split(' ').collect();
            written(&args, |arg| Some(*arg))
        };
        assert_eq!(written("alias.x !y"), Some((0, Some(1))));
        assert_eq!(written("--file f alias.x !y"), Some((2, Some(3))));
        assert_eq!(written("set --global core.pager p"), Some((2, Some(3))));
        assert_eq!(written("--get alias.x"), None);
        assert_eq!(written("alias.x"), None);
    }

    #[test]
    fn reads_a_piece_of_a_configuration_file_as_its_sections_would() {
        let piece = "\tx = !rm -rf d\n\tpager = less\n";
        let commands = written_commands("/home/u/.gitconfig", piece).unwrap_or_default();
        assert!(
            commands.contains("git config 'alias.x' '!rm -rf d'"),
            "{commands}"
        );
        assert!(
            commands.contains("git config 'core.pager' 'less'"),
            "{commands}"
        );
        assert_eq!(written_commands("/home/u/notes.txt", piece), None);
        assert!(is_file("/r/.git/config") && is_file("/etc/gitconfig") && !is_file("/r/config"));
    }

    #[test]
    fn finds_hooks_path_however_spelled() {
        for content in [
            "[core]\n\thooksPath = /dev/null\n",
            "[core] hookspath=/dev/null",
            "[CORE]\nHOOKSPATH\n",
            "\thooksPath = /dev/null\n",
            "[core]\n# c\n\thooksPath = \\\n  /dev/null\n",
        ] {
            assert!(sets_hooks_path(content), "{content:?}");
        }
        assert!(!sets_hooks_path(
            "[core]\n# hooksPath = x\n\tbare = false\n"
        ));
        assert!(!sets_hooks_path("[alias]\n\tx = \"hooksPath = y\"\n"));
    }
}
