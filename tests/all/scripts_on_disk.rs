//! Scripts a command runs that it did not write, read from disk for the
//! built-in gates through `tama:gate/files`, and never for a plugin.

use crate::support;

use std::path::Path;

use serde_json::json;
use support::{run_tama, text};

/// A checkout whose `notes.txt` commits without hooks and `build.sh` builds.
fn checkout() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("notes.txt"),
        "git commit --no-verify -m wip\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("build.sh"), "cargo build\n").unwrap();
    dir
}

fn hook(home: &Path, gate: &str, payload: serde_json::Value) -> std::process::Output {
    run_tama(home, &["hook", gate], &payload.to_string())
}

#[test]
fn a_script_written_by_an_earlier_call_is_refused_as_it_runs() {
    let (home, repo) = (tempfile::tempdir().unwrap(), checkout());
    let cwd = repo.path().to_str().unwrap();
    let claude = json!({"hook_event_name": "PreToolUse", "cwd": cwd, "tool_name": "Bash",
        "tool_input": {"command": "bash notes.txt"}});
    let codex = json!({"hook_event_name": "PreToolUse", "tool_name": "exec_command",
        "tool_input": {"cmd": "sh ./notes.txt", "workdir": cwd}});
    for payload in [claude, codex] {
        let out = hook(home.path(), "block-git-hook-bypass", payload);
        assert_eq!(out.status.code(), Some(2), "stderr: {}", text(&out.stderr));
        let stdout = text(&out.stdout);
        assert!(
            stdout.starts_with(
                "block-git-hook-bypass: The script `notes.txt`, as it is on disk, runs this command: `git commit --no-verify`"
            ) || stdout.starts_with(
                "block-git-hook-bypass: The script `./notes.txt`, as it is on disk, runs this command: `git commit --no-verify`"
            ),
            "{stdout}"
        );
    }
}

#[test]
fn a_script_that_keeps_the_hooks_passes() {
    let (home, repo) = (tempfile::tempdir().unwrap(), checkout());
    let payload = json!({"cwd": repo.path(), "tool_name": "Bash",
        "tool_input": {"command": "bash build.sh && ./build.sh"}});
    let out = hook(home.path(), "block-git-hook-bypass", payload);
    assert_eq!(
        (out.status.code(), text(&out.stdout), text(&out.stderr)),
        (Some(0), String::new(), String::new())
    );
}

/// Code an interpreter runs is read from disk as `python3 -c` code is; a
/// string of it taken for a command that names a device is let be.
#[test]
fn code_an_interpreter_runs_is_read_from_disk() {
    let (home, repo) = (tempfile::tempdir().unwrap(), checkout());
    let write = |name: &str, code: &str| std::fs::write(repo.path().join(name), code).unwrap();
    write(
        "release.py",
        "import subprocess\nsubprocess.run(['git', 'push', '--no-verify'])\n",
    );
    write(
        "status.py",
        "import subprocess\nsubprocess.run(['git', 'status'])\nsubprocess.run(['/dev/tty'])\n",
    );
    let run = |command: &str| {
        let payload = json!({"cwd": repo.path(), "tool_name": "Bash",
            "tool_input": {"command": command}});
        hook(home.path(), "block-git-hook-bypass", payload)
    };
    let out = run("python3 release.py");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout)
            .starts_with("block-git-hook-bypass: `python3 release.py` runs git with --no-verify"),
        "{}",
        text(&out.stdout)
    );
    let out = run("python3 status.py");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
}

#[test]
fn a_plugin_is_handed_no_file() {
    let (home, repo) = (tempfile::tempdir().unwrap(), checkout());
    let probe = support::component("hostile-file-probe");
    let notes = repo.path().join("notes.txt");
    let payload = json!({"tool_name": "Bash", "tool_input": {"command": notes}});
    let out = run_tama(
        home.path(),
        &["hook", "--plugin", probe.to_str().unwrap()],
        &payload.to_string(),
    );
    assert_eq!(
        text(&out.stdout).trim_end(),
        r#"hostile_file_probe: {"text":null}"#,
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn protect_tama_refuses_a_script_on_disk_that_changes_tama() {
    let (home, repo) = (tempfile::tempdir().unwrap(), checkout());
    std::fs::write(repo.path().join("wipe.txt"), "rm -rf ~/.tama\n").unwrap();
    let payload = json!({"cwd": repo.path(), "tool_name": "Bash",
        "tool_input": {"command": "bash wipe.txt"}});
    let out = hook(home.path(), "protect-tama", payload);
    assert_eq!(out.status.code(), Some(2), "stderr: {}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let script = repo.path().join("wipe.txt");
    assert!(
        stdout.starts_with(&format!(
            "protect-tama: the script `{}`, as it is on disk, would run: the tool call deletes",
            script.display()
        )),
        "{stdout}"
    );
    let harmless = json!({"cwd": repo.path(), "tool_name": "Bash",
        "tool_input": {"command": "bash build.sh"}});
    let out = hook(home.path(), "protect-tama", harmless);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
}

/// A named pipe a later writer sends commands through: run as a script or
/// read by a shell as its input, it is refused, since its text is not there
/// to read when the gates decide; only read, it passes.
#[test]
fn a_named_pipe_run_as_a_script_or_read_by_a_shell_is_refused() {
    let (home, repo) = (tempfile::tempdir().unwrap(), checkout());
    let pipe = repo.path().join("later.txt");
    let made = std::process::Command::new("mkfifo")
        .arg(&pipe)
        .status()
        .unwrap();
    assert!(made.success());
    let run = |gate: &str, command: &str| {
        let payload = json!({"cwd": repo.path(), "tool_name": "Bash",
            "tool_input": {"command": command}});
        hook(home.path(), gate, payload)
    };
    for gate in ["block-git-hook-bypass", "protect-tama"] {
        for command in [
            "bash later.txt",
            "bash < later.txt",
            "cat later.txt | sh",
            "eval \"$(head -1 later.txt)\"",
        ] {
            let out = run(gate, command);
            assert_eq!(
                out.status.code(),
                Some(2),
                "{gate} {command}: {}",
                text(&out.stderr)
            );
            let stdout = text(&out.stdout);
            assert!(
                stdout.starts_with(&format!("{gate}: "))
                    && stdout.contains("later.txt")
                    && stdout.contains("is a named pipe, a socket or a device"),
                "{gate} {command}: {stdout}"
            );
        }
        let out = run(gate, "grep -c x later.txt; cat later.txt > copy.txt");
        assert_eq!(out.status.code(), Some(0), "{gate}: {}", text(&out.stdout));
    }
}

/// A remote of another repository is read from that repository's
/// configuration on disk: fetching into its branch from a remote whose URL
/// is a folder on this machine is a push without the pre-push hook, from a
/// remote on a server an ordinary fetch.
#[test]
fn a_remote_whose_url_is_a_local_folder_is_read_from_the_configuration_on_disk() {
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let repo = work.path().join("repo");
    std::fs::create_dir(&repo).unwrap();
    std::fs::create_dir(work.path().join("remote.git")).unwrap();
    std::fs::write(
        work.path().join("remote.git/config"),
        format!(
            "[core]\n\tbare = true\n[remote \"src\"]\n\turl = {}\n[remote \"gh\"]\n\turl = https://github.com/acme/app.git\n",
            repo.display()
        ),
    )
    .unwrap();
    let refused = "take a branch from a folder on this machine";
    for (command, refuses) in [
        ("git -C ../remote.git fetch src main:main", true),
        (
            "cd ../remote.git && git fetch src HEAD:refs/heads/main",
            true,
        ),
        ("git --git-dir=../remote.git fetch src main:main", true),
        ("git -C ../remote.git fetch gh main:main", false),
        ("git -C ../remote.git fetch src", false),
    ] {
        let payload = json!({"cwd": repo, "tool_name": "Bash", "tool_input": {"command": command}});
        let out = hook(home.path(), "block-git-hook-bypass", payload);
        let stdout = text(&out.stdout);
        assert_eq!(
            (out.status.code(), stdout.contains(refused)),
            (Some(if refuses { 2 } else { 0 }), refuses),
            "{command}: {stdout}"
        );
    }
}
