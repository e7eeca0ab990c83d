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
        let machine = Machine {
            dir: tempfile::tempdir().expect("scratch folder"),
        };
        for repo in ["A", "B"] {
            std::fs::create_dir_all(machine.path(repo)).unwrap();
            let made = Command::new("git")
                .args(["init", "-q"])
                .current_dir(machine.path(repo))
                .status()
                .expect("git runs");
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
        (
            out.status.code().unwrap_or(-1),
            text(&out.stdout),
            text(&out.stderr),
        )
    }

    /// Starts session `id` of `kind` in checkout `repo`; returns its brief.
    pub fn start(&self, kind: &str, id: &str, repo: &str) -> String {
        let (code, out, _) = self.hook(kind, "session-start", &self.input(id, repo));
        assert_eq!(code, 0);
        let out: Value = serde_json::from_str(&out).expect("session start answers JSON");
        out["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap()
            .to_string()
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
        (
            out.status.code().unwrap_or(-1),
            text(&out.stdout),
            text(&out.stderr),
        )
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
    out["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .map(String::from)
}

/// A real agent process (node, standing in for Claude Code or Codex): the
/// hooks and commands it runs are its children, as a harness's are.
pub struct Agent {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: std::io::BufReader<std::process::ChildStdout>,
}

impl Agent {
    /// Starts an agent on `machine`, with `args` on its command line.
    pub fn spawn(machine: &Machine, args: &[&str]) -> Agent {
        let probe = machine.command(&[]);
        let mut command = Command::new("node");
        command
            .arg(crate::support::repo_file("tests/peers/agent.mjs"))
            .args(args);
        for (name, value) in probe.get_envs() {
            match value {
                Some(value) => command.env(name, value),
                None => command.env_remove(name),
            };
        }
        let mut child = command
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::inherit())
            .spawn()
            .expect("node runs the stand-in agent");
        let stdin = child.stdin.take().unwrap();
        let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        Agent {
            child,
            stdin,
            stdout,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Runs `tama args` as this agent's child: (exit code, stdout, stderr).
    pub fn run(&mut self, args: &[&str], stdin: &str) -> (i32, String, String) {
        use std::io::{BufRead, Write};
        let mut argv = vec![crate::support::tama().display().to_string()];
        argv.extend(args.iter().map(|a| a.to_string()));
        writeln!(self.stdin, "{}", json!({"argv": argv, "stdin": stdin})).unwrap();
        let mut line = String::new();
        self.stdout.read_line(&mut line).expect("the agent answers");
        let out: Value = serde_json::from_str(&line).expect("the agent answers JSON");
        (
            out["code"].as_i64().unwrap_or(-1) as i32,
            out["stdout"].as_str().unwrap().into(),
            out["stderr"].as_str().unwrap().into(),
        )
    }

    /// Runs peer hook `event` of `kind` as this agent's child.
    pub fn hook(&mut self, kind: &str, event: &str, input: &Value) -> (i32, String, String) {
        self.run(&["peer-hook", kind, event], &input.to_string())
    }

    /// Starts session `id` of `kind` in `repo` of `machine`; returns its brief.
    pub fn start(&mut self, machine: &Machine, kind: &str, id: &str, repo: &str) -> String {
        let (code, out, _) = self.hook(kind, "session-start", &machine.input(id, repo));
        assert_eq!(code, 0);
        let out: Value = serde_json::from_str(&out)
            .unwrap_or_else(|_| panic!("session start answers JSON: {out:?}"));
        out["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap()
            .to_string()
    }

    /// `tama peers args`, run by this agent.
    pub fn peers(&mut self, args: &[&str]) -> (i32, String, String) {
        let mut all = vec!["peers"];
        all.extend_from_slice(args);
        self.run(&all, "")
    }
}

impl Drop for Agent {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The stop reason of a stop hook's answer, or "" when it lets the stop happen.
pub fn stop_reason(stdout: &str) -> String {
    if stdout.is_empty() {
        return String::new();
    }
    let out: Value = serde_json::from_str(stdout).expect("a stop hook answers JSON");
    assert_eq!(out["decision"], "block");
    out["reason"].as_str().unwrap().to_string()
}
