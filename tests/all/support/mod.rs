//! What the journeys share: the built binary, the built components, scratch folders.
#![allow(dead_code)]

pub mod engine;
pub mod operator;
pub mod peers;
pub mod process;
pub mod wake_ups;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The `tama` binary this test run built.
pub fn tama() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_tama"))
}

/// A built component by crate name (dashes or underscores): a gate the
/// engine's build made, or a `hostile-*` test plugin from `tests/plugins`.
pub fn component(name: &str) -> PathBuf {
    if name.starts_with("hostile") {
        return test_plugins::component(name);
    }
    PathBuf::from(tama_core::BUILT_COMPONENTS_DIR).join(format!("{}.wasm", name.replace('-', "_")))
}

/// A file under `tests/` or the repository, by path from the repository root.
pub fn repo_file(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

/// `tama` in the scratch home `home`, so nothing of the user's is read, with
/// its standard streams piped.
pub fn tama_in(home: &Path) -> Command {
    let mut command = Command::new(tama());
    command
        .env("HOME", home)
        .env("TAMA_HOME", home.join(".tama"))
        .env("TAMA_CACHE_DIR", home.join("cache"))
        .env("OKO_HOME", home.join(".oko"))
        .env_remove("TAMA_REGISTRY")
        .env_remove("TAMA_AGENT_ID")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// Runs `tama args` with `stdin`, in a scratch home so nothing of the user's is read.
pub fn run_tama(home: &Path, args: &[&str], stdin: &str) -> Output {
    run_tama_with(home, args, stdin, &[])
}

/// [`run_tama`] with more environment variables.
pub fn run_tama_with(home: &Path, args: &[&str], stdin: &str, env: &[(&str, &str)]) -> Output {
    let mut child = tama_in(home)
        .args(args)
        .envs(env.iter().copied())
        .spawn()
        .expect("tama starts");
    // tama may refuse before it reads the payload (a rejected registry): a closed pipe is no error here.
    if let Err(err) = child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(stdin.as_bytes())
    {
        assert_eq!(
            err.kind(),
            std::io::ErrorKind::BrokenPipe,
            "writing the payload: {err}"
        );
    }
    child.wait_with_output().expect("tama ends")
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A shell payload in Claude Code's shape.
pub fn shell_payload(command: &str) -> String {
    serde_json::json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command}}).to_string()
}
