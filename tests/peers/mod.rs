//! What the peer journeys share: two git checkouts, a peers folder, and
//! peer hooks run by the built binary.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

pub use crate::support::text;

/// A scratch machine: a home, a peers folder, and checkouts `A` and `B`.
pub struct Machine {
    pub dir: tempfile::TempDir,
}

impl Machine {
    pub fn new() -> Machine {
        let machine = Machine { dir: tempfile::tempdir().expect("scratch folder") };
        for repo in ["A", "B"] {
            std::fs::create_dir_all(machine.path(repo)).unwrap();
            let made = Command::new("git").args(["init", "-q"]).current_dir(machine.path(repo)).status().expect("git runs");
            assert!(made.success());
        }
        std::fs::create_dir_all(machine.path("home")).unwrap();
        machine
    }

    pub fn path(&self, part: &str) -> PathBuf {
        self.dir.path().canonicalize().unwrap().join(part)
    }

    pub fn peers(&self) -> PathBuf {
        self.path("peers")
    }

    /// `tama` with this machine's folders.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut command = crate::support::tama_in(&self.path("home"));
        command
            .args(args)
            .env("TAMA_PEERS", self.peers())
            .env_remove("TAMA_PEER_SESSION")
            .env_remove("CODEX_THREAD_ID")
            .env("TAMA_PEERS_POLL_MS", "50");
        command
    }

    /// Runs `tama args` with `stdin`.
    pub fn run(&self, args: &[&str], stdin: &str) -> Output {
        use std::io::Write;
        let mut child = self.command(args).spawn().expect("tama starts");
        let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
        child.wait_with_output().expect("tama ends")
    }

    /// Runs peer hook `event` of `kind` with `input`: (exit code, stdout, stderr).
    pub fn hook(&self, kind: &str, event: &str, input: &Value) -> (i32, String, String) {
        let out = self.run(&["peer-hook", kind, event], &input.to_string());
        (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
    }

    /// Starts session `id` of `kind` in checkout `repo`; returns its brief.
    pub fn start(&self, kind: &str, id: &str, repo: &str) -> String {
        let (code, out, _) = self.hook(kind, "session-start", &self.input(id, repo));
        assert_eq!(code, 0);
        let out: Value = serde_json::from_str(&out).expect("session start answers JSON");
        out["hookSpecificOutput"]["additionalContext"].as_str().unwrap().to_string()
    }

    /// The common hook input of session `id` in `repo`.
    pub fn input(&self, id: &str, repo: &str) -> Value {
        json!({"session_id": id, "cwd": self.path(repo)})
    }

    /// `tama peers --session <key> args`.
    pub fn peers_cmd(&self, key: &str, args: &[&str]) -> (i32, String, String) {
        let mut all = vec!["peers", "--session", key];
        all.extend_from_slice(args);
        let out = self.run(&all, "");
        (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
    }

    pub fn hooks_log(&self) -> String {
        std::fs::read_to_string(self.peers().join("hooks.log")).unwrap_or_default()
    }

    pub fn unread(&self, key: &str) -> usize {
        std::fs::read_dir(self.peers().join("inbox").join(key).join("new")).map_or(0, |d| d.count())
    }
}

/// A Claude Code `Edit` of `path` by session `id` in `repo`.
pub fn edit(machine: &Machine, id: &str, repo: &str, path: &Path) -> Value {
    let mut input = machine.input(id, repo);
    input["tool_name"] = json!("Edit");
    input["tool_input"] = json!({"file_path": path, "old_string": "a", "new_string": "b"});
    input
}

/// The deny reason of a pre-tool answer, if it denies.
pub fn denial(stdout: &str) -> Option<String> {
    let out: Value = serde_json::from_str(stdout).ok()?;
    assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "deny");
    out["hookSpecificOutput"]["permissionDecisionReason"].as_str().map(String::from)
}
