//! Files from which another program runs commands later, when no tool call
//! of the agent's is left to read: cron tables, systemd units, desktop
//! autostart entries, ssh's client configuration, and Python's `.pth`
//! files, whose `import` lines every Python start runs.

use crate::prelude::*;

use crate::interpreters::Language;

/// The commands the file at `path` (named `name`) holds for another program
/// to run, or none when it is no such file.
pub fn commands(path: &str, name: &str, content: &str) -> Option<Vec<String>> {
    if path.starts_with("/var/spool/cron/") {
        return Some(super::cron_commands(content));
    }
    // The system's tables name the user to run as before the command.
    if path == "/etc/crontab" || path.starts_with("/etc/cron.d/") {
        let commands = super::cron_commands(content).into_iter();
        return Some(
            commands
                .filter_map(|line| Some(line.split_once(char::is_whitespace)?.1.trim().to_owned()))
                .collect(),
        );
    }
    if name.ends_with(".service") {
        let keys = [
            "ExecStart",
            "ExecStartPre",
            "ExecStartPost",
            "ExecStop",
            "ExecStopPost",
            "ExecReload",
            "ExecCondition",
        ];
        // `%h` is the home folder of the user the unit runs for.
        let commands = entries(content, &keys, "-@:+!");
        return Some(commands.iter().map(|c| c.replace("%h", "~")).collect());
    }
    if name.ends_with(".desktop") {
        return Some(entries(content, &["Exec", "TryExec"], ""));
    }
    if name == "ssh_config" || (name == "config" && path.contains(".ssh/")) {
        return Some(ssh_commands(content));
    }
    if name.ends_with(".pth") {
        let imports: Vec<&str> = content
            .lines()
            .filter(|line| line.starts_with("import ") || line.starts_with("import\t"))
            .collect();
        return Some(vec![Language::Python.command_running(&imports.join("\n"))]);
    }
    None
}

/// The commands an ssh client configuration runs through the user's shell:
/// `ProxyCommand`, `LocalCommand` and `KnownHostsCommand` (keywords in any
/// case, their values after blanks or `=`), and a `Match exec` condition's.
fn ssh_commands(content: &str) -> Vec<String> {
    let mut commands = Vec::new();
    for line in content.lines().map(str::trim) {
        let separator = |c: char| c.is_whitespace() || c == '=';
        let Some((keyword, value)) = line.split_once(separator) else {
            continue;
        };
        let value = value.trim_start_matches(separator);
        match keyword.to_ascii_lowercase().as_str() {
            "proxycommand" | "localcommand" | "knownhostscommand" => {
                commands.push(value.to_owned());
            }
            "match" => {
                let criteria = ssh_words(value);
                let mut words = criteria.iter();
                while let Some(word) = words.next() {
                    if word.trim_start_matches('!').eq_ignore_ascii_case("exec") {
                        commands.extend(words.next().cloned());
                    }
                }
            }
            _ => {}
        }
    }
    commands
}

/// The words of an ssh configuration line: blank-separated, a double-quoted
/// part kept whole without its quotes.
fn ssh_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if !word.is_empty() {
                    words.push(core::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// The values of `keys` in an INI-style file, without the `prefixes` that
/// only change how the program runs them.
fn entries(content: &str, keys: &[&str], prefixes: &str) -> Vec<String> {
    content
        .lines()
        .filter_map(|line| {
            let (key, value) = line.split_once('=')?;
            keys.contains(&key.trim()).then(|| {
                value
                    .trim()
                    .trim_start_matches(|c| prefixes.contains(c))
                    .to_owned()
            })
        })
        .filter(|command| !command.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::commands;

    #[test]
    fn what_each_file_runs_later() {
        let cron = "SHELL=/bin/sh\n*/5 * * * * root git pull\n";
        assert_eq!(
            commands("/etc/cron.d/sync", "sync", cron).unwrap(),
            ["git pull"]
        );
        assert_eq!(
            commands("/var/spool/cron/crontabs/u", "u", "@reboot ls -l\n").unwrap(),
            ["ls -l"]
        );
        let unit = "[Service]\nExecStartPre=-/bin/mkdir -p /x\nExecStart=/usr/bin/env sh -c 'ls'\n";
        assert_eq!(
            commands("/home/u/.config/systemd/user/a.service", "a.service", unit).unwrap(),
            ["/bin/mkdir -p /x", "/usr/bin/env sh -c 'ls'"]
        );
        assert_eq!(
            commands(
                "/home/u/.config/autostart/a.desktop",
                "a.desktop",
                "[Desktop Entry]\nExec=sh -c ls\n"
            )
            .unwrap(),
            ["sh -c ls"]
        );
        let pth = commands(
            "/site-packages/a.pth",
            "a.pth",
            "/opt/lib\nimport os; os.system('ls')\n",
        )
        .unwrap();
        assert!(pth[0].starts_with("python3 -c"), "{pth:?}");
        assert!(pth[0].contains("os.system"), "{pth:?}");
        assert_eq!(
            commands("/home/u/notes.txt", "notes.txt", "ExecStart=ls"),
            None
        );
        let ssh = "Host a\n  proxycommand=nc %h %p\nMatch exec \"test -f x\" host b\n  LocalCommand ls\n  RemoteCommand rm x\nMatch host c !Exec true EXEC \"a  b\"\n";
        assert_eq!(
            commands("/home/u/.ssh/config", "config", ssh).unwrap(),
            ["nc %h %p", "test -f x", "ls", "true", "a  b"]
        );
        assert_eq!(commands("/work/.git/config", "config", ssh), None);
    }
}
