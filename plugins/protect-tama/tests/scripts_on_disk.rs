//! Scripts a command runs that it did not write are read from disk, as the
//! host's `tama:gate/files` hands them, and what they change judged as the
//! command's own.

use std::path::Path;

use protect_tama::{Cwd, HostPaths, Protected, shell_refusal_on_disk};

/// Tama's paths under `home`.
fn protected(home: &Path) -> Protected {
    let under = |path: &str| format!("{}/{path}", home.display());
    Protected::new(&HostPaths {
        home: home.display().to_string(),
        tama_home: under(".tama"),
        registry: Some(under(".shared-hooks/registry.json")),
        registry_components: Vec::new(),
        cache_dir: under(".cache/tama"),
        tama_binary: under(".local/bin/tama"),
        oko_home: under(".oko"),
    })
}

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

/// A home folder with a checkout in `repo`, whose `wipe.txt` deletes Tama's
/// home, `again.sh` runs itself, and `build.sh` builds.
fn home() -> tempfile::TempDir {
    let home = tempfile::tempdir().unwrap();
    let repo = home.path().join("repo");
    std::fs::create_dir_all(repo.join("sub")).unwrap();
    let write = |name: &str, text: &str| std::fs::write(repo.join(name), text).unwrap();
    write("wipe.txt", "echo cleaning\nrm -rf ~/.tama\n");
    write("run", "#!/bin/bash\nrm -f ~/.tama/overrides/*\n");
    write(
        "build.sh",
        "#!/bin/sh\nset -e\nrm -rf target/tmp\ncargo build\n",
    );
    write(
        "again.sh",
        "[ -n \"$AGAIN\" ] || AGAIN=1 exec \"$0\" \"$@\"\ncargo test\n",
    );
    write("tool.py", "#!/usr/bin/env python3\nimport shutil\n");
    // Python without a `#!` line, whose lines read as shell would open an editor.
    write("editor.py", "x = 1\nred\n");
    write("editor", "x = 1\nred\n");
    // As a build tool's wrapper goes: values known only when it runs.
    write(
        "wrapper",
        "#!/bin/sh\napp_path=$0\nwhile [ -h \"$app_path\" ]; do\n  ls=$( ls -ld \"$app_path\" )\n  link=${ls#*' -> '}\n  case $link in\n    /*) app_path=$link ;;\n    *) app_path=$APP_HOME$link ;;\n  esac\ndone\nAPP_HOME=$( cd -P \"${APP_HOME:-./}\" > /dev/null && printf '%s\\n' \"$PWD\" ) || exit\nlog() { echo \"$@\" >&2; }\nlog starting \"$APP_HOME\"\nrm -rf \"$APP_HOME/build/tmp\"\nexec \"$JAVACMD\" -jar \"$APP_HOME/wrapper.jar\" \"$@\"\n",
    );
    write("broken.sh", "rm -rf ~/.tama\n)\n");
    home
}

fn refusal(home: &Path, command: &str) -> Option<String> {
    let cwd = home.join("repo");
    let cwd = Cwd::known(cwd.to_str().unwrap());
    shell_refusal_on_disk(&protected(home), &cwd, command, read)
}

#[test]
fn a_script_on_disk_that_changes_tama_is_refused_as_it_runs() {
    let home = home();
    for command in [
        "bash wipe.txt",
        "sh ./wipe.txt",
        "source wipe.txt",
        "./run",
        "cd sub && bash ../wipe.txt",
        "cat wipe.txt | bash",
        "bash < wipe.txt",
        "bash broken.sh",
        // A program a download tool runs when a download ends.
        "aria2c --on-download-complete=./wipe.txt https://example.com/x.tgz",
    ] {
        let refusal = refusal(home.path(), command)
            .unwrap_or_else(|| panic!("{command:?} should be refused"));
        assert!(refusal.contains(".tama"), "{command:?}: {refusal}");
    }
    let named = refusal(home.path(), "bash wipe.txt").unwrap();
    assert!(
        named.starts_with(&format!(
            "the script `{}/repo/wipe.txt`, as it is on disk, would run: ",
            home.path().display()
        )),
        "{named}"
    );
}

#[test]
fn scripts_that_leave_tama_alone_pass() {
    let home = home();
    for command in [
        "bash build.sh",
        "./build.sh",
        "bash again.sh",
        "./wrapper build",
        "./tool.py",
        // An interpreter's script is its code, not a command it runs.
        "python3 ./editor.py",
        "uv run python ./editor.py",
        "uv run ./editor.py",
        "python3 ./editor",
        "bash missing.sh",
        "cat wipe.txt",
        "cd /nowhere && bash wipe.txt",
        "aria2c --on-download-complete=./build.sh https://example.com/x.tgz",
    ] {
        assert_eq!(refusal(home.path(), command), None, "{command:?}");
    }
}

#[test]
fn download_tools_read_their_configuration_on_disk() {
    let home = home();
    let claude = home.path().join(".claude");
    let write = |path: &str, text: String| {
        let path = home.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        ".curlrc",
        format!("# downloads\noutput-dir = \"{}\"\n", claude.display()),
    );
    write(".wgetrc", format!("dir_prefix = {}\n", claude.display()));
    write(".aria2/aria2.conf", format!("dir={}\n", claude.display()));
    for command in [
        "curl -fsSLO https://example.com/settings.json",
        "wget https://example.com/settings.json",
        "aria2c https://example.com/notes.txt",
    ] {
        let refusal = refusal(home.path(), command)
            .unwrap_or_else(|| panic!("{command:?} should be refused"));
        assert!(
            refusal.contains(".claude/settings.json"),
            "{command:?}: {refusal}"
        );
    }
    for command in [
        "curl -q -O https://example.com/settings.json",
        "curl -O https://example.com/notes.txt",
        "wget --no-config https://example.com/settings.json",
        "aria2c --no-conf https://example.com/notes.txt",
    ] {
        assert_eq!(refusal(home.path(), command), None, "{command:?}");
    }
    let unread = refusal(home.path(), "curl -K locked.sh -O https://example.com/x").unwrap();
    assert!(unread.contains("Permission denied"), "{unread}");
}

#[test]
fn a_script_that_cannot_be_read_is_refused_with_the_cause() {
    let home = home();
    let refusal = refusal(home.path(), "bash locked.sh").expect("refused");
    assert!(refusal.contains("Permission denied"), "{refusal}");
}

#[test]
fn a_file_with_nul_bytes_is_data_to_an_unknown_program_but_a_script_to_a_shell() {
    let home = home();
    // An archive whose first line holds no NUL byte, as bash tells scripts.
    let archive = home.path().join("repo/c.zip");
    std::fs::write(&archive, "PK\u{3}\u{4}\n\0\0rm -rf ~/.tama\n\0").unwrap();
    let archive = archive.display();
    assert_eq!(
        refusal(home.path(), &format!("zip -qr {archive} ~/.claude")),
        None
    );
    assert!(refusal(home.path(), &format!("bash {archive}")).is_some());
}

#[test]
fn a_diff_on_disk_is_read_for_the_files_it_patches() {
    let home = home();
    let repo = home.path().join("repo");
    std::fs::write(
        repo.join("fix.diff"),
        "--- a/registry.json\n+++ b/registry.json\n@@ -1 +1 @@\n-x\n+y\n",
    )
    .unwrap();
    std::fs::write(
        repo.join("app.diff"),
        "--- a/src/app.rs\n+++ b/src/app.rs\n@@ -1 +1 @@\n-x\n+y\n",
    )
    .unwrap();
    for command in [
        "cd ~/.tama && patch -p1 -i ../repo/fix.diff",
        "git -C ~/.tama apply ../repo/fix.diff",
        "cd ~ && git apply --directory=.tama repo/fix.diff",
    ] {
        assert!(refusal(home.path(), command).is_some(), "{command:?}");
    }
    for command in ["patch -p1 -i app.diff", "git apply app.diff"] {
        assert_eq!(refusal(home.path(), command), None, "{command:?}");
    }
}
