//! Scripts a command runs that it did not write are read from disk, as the
//! host's `tama:gate/files` hands them, and their bypasses refused.

use std::path::Path;

use block_git_hook_bypass::find_bypass_on_disk;

/// The host's reading, for a test: a file's text, none when there is no
/// regular file, and an error for a path the test names unreadable.
fn read(path: &str) -> Result<Option<String>, String> {
    if path.ends_with("/locked.sh") {
        return Err(format!("{path} cannot be opened: Permission denied"));
    }
    if !std::fs::metadata(path).is_ok_and(|metadata| metadata.is_file()) {
        return Ok(None);
    }
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(err.to_string()),
    }
}

/// The refusal of `command` run in `folder`, if any.
fn refusal(folder: &Path, command: &str) -> Option<String> {
    let start = || Some(folder.to_str().unwrap().to_owned());
    find_bypass_on_disk(command, start, read).map(|finding| finding.to_string())
}

fn checkout() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("notes.txt", "git commit --no-verify -m wip\n");
    write("run", "set -e\ngit add -A\ngit commit -n -m wip\n");
    write("build.sh", "#!/bin/sh\ncargo build --release\n");
    write("outer.sh", "echo building\nbash scripts/inner.sh\n");
    write("scripts/inner.sh", "git push --no-verify\n");
    write(
        "tool.py",
        "#!/usr/bin/env python3\nprint('git commit --no-verify')\n",
    );
    write("broken.sh", "git commit --no-verify -m x\n)\n");
    let push = "import subprocess\nsubprocess.run([\"git\", \"push\", \"--no-verify\"])\n";
    write("release.py", &format!("#!/usr/bin/env python3\n{push}"));
    write("push-notes.txt", push);
    write("alias.cfg", "[alias]\n\tci = commit --no-verify\n");
    write(
        ".git/config",
        "[core]\n\tbare = false\n[alias]\n\tcnv = commit --no-verify\n\tst = status\n\tcm = commit\n",
    );
    write("scripts/deep/.keep", "");
    write("home/.gitconfig", "[alias]\n\tci = commit --no-verify\n");
    write(
        "node_modules/lr/cli.js",
        "require('child_process').execSync('git commit --no-verify');\n",
    );
    write(
        "node_modules/lr/notes.txt",
        "require('child_process').execSync('git commit --no-verify');\n",
    );
    write(
        "status.py",
        "import subprocess\nsubprocess.run([\"git\", \"status\"])\nsubprocess.run([\"/dev/tty\"])\n",
    );
    write(
        "again.sh",
        "[ -n \"$AGAIN\" ] || AGAIN=1 exec \"$0\" \"$@\"\neval \"echo '$1\"\ncargo test\n",
    );
    dir
}

#[test]
fn a_script_written_earlier_is_refused_when_it_runs() {
    let repo = checkout();
    for command in [
        "bash notes.txt",
        "sh ./notes.txt",
        "source notes.txt",
        ". ./notes.txt",
        "./run",
        "bash outer.sh",
        "cd scripts && bash ../notes.txt",
        // bash runs the first line before it meets the second.
        "bash broken.sh",
    ] {
        let refusal = refusal(repo.path(), command)
            .unwrap_or_else(|| panic!("{command:?} should be refused"));
        assert!(
            refusal.contains("as it is on disk"),
            "{command:?}: {refusal}"
        );
        assert!(
            refusal.contains("--no-verify") || refusal.contains("-n"),
            "{command:?}: {refusal}"
        );
    }
    let absolute = format!("bash {}/notes.txt", repo.path().display());
    assert!(refusal(Path::new("/"), &absolute).is_some(), "{absolute}");
}

#[test]
fn code_an_interpreter_runs_from_disk_is_read_as_its_code() {
    let repo = checkout();
    for command in [
        "python3 release.py",
        "./release.py",
        "python3 push-notes.txt",
        "node node_modules/lr/notes.txt",
    ] {
        let refusal = refusal(repo.path(), command)
            .unwrap_or_else(|| panic!("{command:?} should be refused"));
        assert!(refusal.contains("--no-verify"), "{command:?}: {refusal}");
    }
    // An installed package's code, as its user installed it; code that
    // keeps the hooks, or names a path it cannot read among its strings.
    for command in [
        "node node_modules/lr/cli.js",
        "python3 status.py",
        "python3 missing.py",
    ] {
        assert_eq!(refusal(repo.path(), command), None, "{command:?}");
    }
}

#[test]
fn a_git_configuration_on_disk_put_in_place_of_the_users_is_read() {
    let repo = checkout();
    let home = repo.path().join("home");
    for command in [
        "GIT_CONFIG_GLOBAL=alias.cfg git ci -m x".to_owned(),
        format!("HOME={} git ci -m x", home.display()),
    ] {
        let refusal = refusal(repo.path(), &command)
            .unwrap_or_else(|| panic!("{command:?} should be refused"));
        assert!(
            refusal.contains("The alias `ci` hides this") && refusal.contains("--no-verify"),
            "{command:?}: {refusal}"
        );
    }
    assert_eq!(refusal(repo.path(), "git ci -m x"), None);
}

#[test]
fn an_alias_the_repository_defined_before_is_read_where_it_runs() {
    let repo = checkout();
    for command in ["git cnv -m x", "cd scripts/deep && git cnv -m x"] {
        let refusal = refusal(repo.path(), command)
            .unwrap_or_else(|| panic!("{command:?} should be refused"));
        assert!(
            refusal.starts_with("The alias `cnv` hides this: `git commit --no-verify`"),
            "{command:?}: {refusal}"
        );
    }
    // An alias of plain `commit` runs with the caller's arguments.
    let refusal_of_n = refusal(repo.path(), "git cm -qnm x").expect("git cm -qnm x is refused");
    assert!(
        refusal_of_n.starts_with("The alias `cm` hides this: `git commit -qnm`"),
        "{refusal_of_n}"
    );
    for command in [
        "git st",
        "git status",
        "git lol",
        "git cm -m x",
        "git st -n",
    ] {
        assert_eq!(refusal(repo.path(), command), None, "{command:?}");
    }
}

#[test]
fn scripts_that_keep_the_hooks_and_files_that_are_not_shell_pass() {
    let repo = checkout();
    for command in [
        "bash build.sh",
        "./build.sh",
        "./tool.py",
        "bash missing.sh",
        "bash again.sh",
        "cat notes.txt",
        "cd /nowhere && bash notes.txt",
        "cd \"$(mktemp -d)\" && bash notes.txt",
    ] {
        assert_eq!(refusal(repo.path(), command), None, "{command:?}");
    }
}

#[test]
fn a_long_script_is_followed_to_its_end() {
    let repo = checkout();
    // More commands than a command typed at once may run, calling its functions from many places.
    let mut script =
        String::from("log() { echo \"$@\"; }\nstep() { log one; log two; log three; }\n");
    for _ in 0..12_000 {
        script.push_str("step\n");
    }
    std::fs::write(repo.path().join("install.sh"), &script).unwrap();
    assert_eq!(refusal(repo.path(), "bash install.sh"), None);
    script.push_str("git push --no-verify\n");
    std::fs::write(repo.path().join("install.sh"), &script).unwrap();
    let refusal = refusal(repo.path(), "bash install.sh").expect("refused");
    assert!(refusal.contains("`git push --no-verify`"), "{refusal}");
}

#[test]
fn a_script_the_gate_cannot_read_is_refused_with_the_cause() {
    let repo = checkout();
    let refusal = refusal(repo.path(), "bash locked.sh").expect("refused");
    assert!(
        refusal.contains("runs the script `locked.sh`") && refusal.contains("Permission denied"),
        "{refusal}"
    );
}

#[test]
fn what_the_command_writes_wins_over_what_lies_on_disk() {
    let repo = checkout();
    assert_eq!(
        refusal(repo.path(), "echo 'git status' > notes.txt; bash notes.txt"),
        None
    );
}

#[test]
fn ignored_files_removed_or_stashed_are_husky_hooks_only_where_husky_is_installed() {
    let plain = checkout();
    let husky = checkout();
    std::fs::create_dir_all(husky.path().join(".husky/_")).unwrap();
    std::fs::write(husky.path().join(".husky/_/h"), "#!/usr/bin/env sh\n").unwrap();
    for command in ["git clean -fdx", "git clean -fX", "git stash --all"] {
        assert_eq!(refusal(plain.path(), command), None, "{command:?}");
        let refused = refusal(husky.path(), command).unwrap_or_default();
        assert!(refused.contains(".husky/_"), "{command:?}: {refused}");
        // Where git works in another folder, or the command's folder is
        // unknown, the gate cannot look.
        let elsewhere = format!("git -C ../other {}", &command[4..]);
        assert!(refusal(plain.path(), &elsewhere).is_some(), "{elsewhere:?}");
        assert!(
            find_bypass_on_disk(command, || None, read).is_some(),
            "{command:?}"
        );
    }
}

#[test]
fn a_scripts_nul_bytes_are_dropped_as_bash_drops_them() {
    let repo = checkout();
    std::fs::write(
        repo.path().join("padded.sh"),
        "echo x\n\0\0git commit -n -m wip\n",
    )
    .unwrap();
    assert!(refusal(repo.path(), "bash padded.sh").is_some());
}

#[test]
fn words_a_package_manager_puts_after_a_script_are_read_with_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("package.json"),
        r#"{"scripts": {"commit": "git commit", "push": "git push origin main",
            "wip": "git commit --no-verify -m wip"}}"#,
    )
    .unwrap();
    for refused in [
        "npm run commit -- -n -m x",
        "npm run push -- --no-verify",
        "yarn commit -n -m x",
        "pnpm run commit --no-verify -m x",
    ] {
        let why = refusal(dir.path(), refused).unwrap_or_else(|| panic!("{refused} passed"));
        assert!(why.contains("no-verify") || why.contains("-n"), "{why}");
    }
    // The words add no bypass, or the script is the repository's own as it stands.
    for passed in [
        "npm run commit -- -m 'fix: x'",
        "npm run wip",
        "npm test -- --watch",
    ] {
        assert_eq!(refusal(dir.path(), passed), None, "{passed}");
    }
}
