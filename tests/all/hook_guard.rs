//! The hook commands `tama setup` writes, run as the harnesses run them
//! (Claude Code with `sh -c`, Codex with `$SHELL -lc` in whichever shell the
//! user has), refuse when `tama` ends without an answer: crashed, killed,
//! failing, missing or not runnable. The harness would read that as a pass.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;
use tama_adapters::setup::hook_command;
use tama_adapters::{Harness, claude::Claude, codex::Codex};
use tama_core::dispatch::{Decision, Fault, Infrastructure};
use tama_core::event::EventName;

const CLAUDE: Harness = Harness(&Claude);
const CODEX: Harness = Harness(&Codex);

const LS: &str =
    r#"{"session_id":"s","cwd":"/tmp","tool_name":"Bash","tool_input":{"command":"ls"}}"#;
const BYPASS: &str = r#"{"session_id":"s","cwd":"/tmp","tool_name":"Bash","tool_input":{"command":"git commit --no-verify -m x"}}"#;

/// Ways for the installed `tama` to end without an answer.
const ENDINGS: &[(&str, Option<&str>)] = &[
    ("killed by a signal", Some("#!/bin/sh\nkill -SEGV $$\n")),
    ("aborted", Some("#!/bin/sh\nkill -ABRT $$\n")),
    (
        "exit 1",
        Some("#!/bin/sh\necho 'thread main panicked' >&2; exit 1\n"),
    ),
    ("exit 101", Some("#!/bin/sh\nexit 101\n")),
    ("missing", None),
];

/// A scratch home with `tama` copied into `bin/` and Tama's hooks set up for
/// both harnesses by that copy.
struct Installed {
    home: tempfile::TempDir,
    tama: PathBuf,
}

impl Installed {
    fn new() -> Installed {
        let home = tempfile::tempdir().unwrap();
        let tama = home.path().join("bin with space/tama");
        fs::create_dir_all(tama.parent().unwrap()).unwrap();
        fs::copy(crate::support::tama(), &tama).unwrap();
        for harness in ["claude", "codex"] {
            let out = self::in_home(home.path(), Command::new(&tama).args(["setup", harness]));
            assert!(out.status.success(), "{out:?}");
        }
        Installed { home, tama }
    }

    /// The command of the `PreToolUse` entry in `harness`'s config.
    fn command(&self, harness: Harness) -> String {
        let config = harness.config_path(self.home.path());
        let config: Value = serde_json::from_str(&fs::read_to_string(config).unwrap()).unwrap();
        config["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .to_string()
    }

    /// Replaces the installed `tama` by `script`, or removes it.
    fn replace(&self, script: Option<&str>) {
        let _ = fs::remove_file(&self.tama);
        if let Some(script) = script {
            fs::write(&self.tama, script).unwrap();
            fs::set_permissions(&self.tama, fs::Permissions::from_mode(0o755)).unwrap();
        }
    }

    fn run(&self, shell: &[&str], command: &str, payload: &str) -> Output {
        let mut child = in_home_spawn(
            self.home.path(),
            Command::new(shell[0]).args(&shell[1..]).arg(command),
        );
        use std::io::Write;
        // A `tama` that ends at once does not read it.
        let _ = child.stdin.take().unwrap().write_all(payload.as_bytes());
        child.wait_with_output().unwrap()
    }
}

fn in_home_spawn(home: &Path, command: &mut Command) -> std::process::Child {
    command
        .env("HOME", home)
        .env("TAMA_HOME", home.join(".tama"))
        .env("OKO_HOME", home.join(".oko"))
        .env_remove("TAMA_REGISTRY")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn in_home(home: &Path, command: &mut Command) -> Output {
    let child = in_home_spawn(home, command);
    child.wait_with_output().unwrap()
}

/// The shells Codex may run a hook with (`$SHELL -lc`) that this machine
/// has: bash always, zsh and fish where installed.
fn user_shells() -> Vec<&'static str> {
    ["bash", "zsh", "fish", "dash"]
        .into_iter()
        .filter(|shell| {
            Command::new(shell)
                .args(["-c", "exit 0"])
                .output()
                .is_ok_and(|out| out.status.success())
        })
        .collect()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Codex's refusal: exit 0 and one block JSON on stdout.
fn codex_reason(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let answer: Value = serde_json::from_str(text(&out.stdout).trim())
        .unwrap_or_else(|e| panic!("one JSON answer, not {:?}: {e}", text(&out.stdout)));
    assert_eq!(answer["decision"], "block", "{answer}");
    answer["reason"].as_str().unwrap().to_string()
}

#[test]
fn a_working_tama_answers_as_before() {
    let installed = Installed::new();
    let claude = installed.command(CLAUDE);
    let out = installed.run(&["/bin/sh", "-c"], &claude, LS);
    assert_eq!(
        (out.status.code(), text(&out.stdout), text(&out.stderr)),
        (Some(0), String::new(), String::new())
    );
    let out = installed.run(&["/bin/sh", "-c"], &claude, BYPASS);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with("block-git-hook-bypass:"), "{stderr}");
    assert!(
        !stderr.contains("TAMA_HOOK_INFRASTRUCTURE"),
        "a refusal of Tama's is not a fault: {stderr}"
    );

    let codex = installed.command(CODEX);
    for shell in user_shells() {
        let out = installed.run(&[shell, "-lc"], &codex, LS);
        assert_eq!(
            (out.status.code(), text(&out.stdout)),
            (Some(0), String::new()),
            "{shell}: {out:?}"
        );
        let reason = codex_reason(&installed.run(&[shell, "-lc"], &codex, BYPASS));
        assert!(
            reason.starts_with("block-git-hook-bypass:"),
            "{shell}: {reason}"
        );
    }
}

#[test]
fn a_tama_that_ends_without_an_answer_is_a_refusal() {
    let installed = Installed::new();
    let (claude, codex) = (installed.command(CLAUDE), installed.command(CODEX));
    let said = "TAMA_HOOK_INFRASTRUCTURE: tama run-hook pre_tool_use ended before deciding";
    for (ending, script) in ENDINGS {
        installed.replace(*script);
        let out = installed.run(&["/bin/sh", "-c"], &claude, LS);
        assert_eq!(out.status.code(), Some(2), "Claude Code, {ending}: {out:?}");
        assert!(
            text(&out.stderr).contains(said),
            "Claude Code, {ending}: {out:?}"
        );
        for shell in user_shells() {
            let reason = codex_reason(&installed.run(&[shell, "-lc"], &codex, LS));
            assert!(
                reason.starts_with(said),
                "Codex in {shell}, {ending}: {reason}"
            );
        }
    }
    // There but not runnable.
    installed.replace(Some("#!/bin/sh\nexit 0\n"));
    fs::set_permissions(&installed.tama, fs::Permissions::from_mode(0o644)).unwrap();
    let out = installed.run(&["/bin/sh", "-c"], &claude, LS);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let reason = codex_reason(&installed.run(&["bash", "-lc"], &codex, LS));
    assert!(reason.starts_with(said), "{reason}");
}

/// Every event's fallback answers exactly as `tama run-hook` answers its
/// own faults there (`continue: false` for a session start, a denial for a
/// permission request, exit 2 elsewhere for Claude Code).
#[test]
fn the_fallback_of_every_event_is_the_harness_s_own_refusal() {
    let missing = "/nonexistent/tama";
    for harness in [CLAUDE, CODEX] {
        for event in EventName::ALL {
            let name = event.as_str();
            if !harness.supports(event.harness_name()) {
                continue;
            }
            let decision = Decision::infrastructure(
                Some(event),
                None,
                Infrastructure::new(Fault::Ended {
                    event: name.to_string(),
                }),
            );
            let expected = harness.encode(&decision);
            let out = Command::new("/bin/sh")
                .args(["-c", &hook_command(harness, missing, name)])
                .stdin(Stdio::null())
                .output()
                .unwrap();
            assert_eq!(
                out.status.code(),
                Some(i32::from(expected.exit)),
                "{harness:?} {name}"
            );
            assert_eq!(text(&out.stdout), expected.stdout, "{harness:?} {name}");
            assert!(
                text(&out.stderr).ends_with(&expected.stderr),
                "{harness:?} {name}: {out:?}"
            );
        }
    }
}
