//! Runs a command the way the oracle needs: real `bash` as `nobody`, without
//! network, in a fresh copy of the template repository, with the recording
//! `git` first on `PATH`; then reads what real git did.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What a command did, read from the repository and the remote afterwards.
#[derive(Debug, Default)]
pub struct Effect {
    /// Reflog entries of operations whose hooks would have refused them.
    pub unhooked: Vec<String>,
    /// Whether the remote's refs changed: a push whose pre-push did not run.
    pub pushed: bool,
}

impl Effect {
    pub fn bypassed(&self) -> bool {
        self.pushed || !self.unhooked.is_empty()
    }
}

pub struct Scratch {
    template: PathBuf,
    case: PathBuf,
    template_logs: BTreeMap<PathBuf, String>,
    template_remote: BTreeMap<PathBuf, String>,
}

/// Why the oracle cannot run here, or `None` when it can.
pub fn unavailable() -> Option<String> {
    let probe = Command::new("unshare")
        .args([
            "-n",
            "setpriv",
            "--reuid=nobody",
            "--regid=nogroup",
            "--clear-groups",
            "true",
        ])
        .stderr(Stdio::piped())
        .output();
    match probe {
        Ok(output) if output.status.success() => None,
        Ok(output) => Some(format!(
            "`unshare -n setpriv --reuid=nobody …` failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        )),
        Err(error) => Some(format!("`unshare` cannot start: {error}")),
    }
}

fn run(command: &mut Command) {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{command:?}: {e}"));
    assert!(
        output.status.success(),
        "{command:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The real git, found on `PATH` before the wrapper is put first.
fn real_git() -> PathBuf {
    let output = Command::new("sh")
        .args(["-c", "command -v git"])
        .output()
        .expect("sh runs");
    let path = String::from_utf8_lossy(&output.stdout).trim().to_owned();
    assert!(!path.is_empty(), "git is on PATH");
    PathBuf::from(path)
}

impl Scratch {
    pub fn new(base: &Path) -> Scratch {
        let template = base.join("template");
        let case = base.join("case");
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/template.sh");
        run(Command::new("bash").arg(&script).arg(&case).arg(real_git()));
        run(Command::new("chown")
            .args(["-R", "nobody:nogroup"])
            .arg(&case));
        run(Command::new("chmod").args(["755"]).arg(base));
        fs::rename(&case, &template).expect("the template moves into place");
        let template_logs = files(&template.join("repo/.git/logs"));
        let template_remote = refs(&template.join("remote.git"));
        Scratch {
            template,
            case,
            template_logs,
            template_remote,
        }
    }

    /// Runs `command` in a fresh copy of the template and says what it did.
    pub fn effect(&self, command: &str) -> Effect {
        if self.case.exists() {
            run(Command::new("rm").arg("-rf").arg(&self.case));
        }
        run(Command::new("cp")
            .arg("-a")
            .arg(&self.template)
            .arg(&self.case));
        let path = format!(
            "{}:/usr/local/bin:/usr/bin:/bin",
            self.case.join("bin").display()
        );
        let _ = Command::new("timeout")
            .args([
                "-s",
                "KILL",
                "10",
                "unshare",
                "-n",
                "setpriv",
                "--reuid=nobody",
                "--regid=nogroup",
            ])
            .args(["--clear-groups", "env", "-i"])
            .arg(format!("PATH={path}"))
            .arg(format!("HOME={}", self.case.join("home").display()))
            .args([
                "GIT_CONFIG_NOSYSTEM=1",
                "LANG=C",
                "bash",
                "--norc",
                "--noprofile",
                "-c",
                command,
            ])
            .current_dir(self.case.join("repo"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let mut effect = Effect::default();
        for (path, text) in files(&self.case.join("repo/.git/logs")) {
            let before = self
                .template_logs
                .get(&path)
                .map_or(0, |t| t.lines().count());
            for line in text.lines().skip(before) {
                let message = line.split_once('\t').map_or("", |(_, m)| m);
                if unhooked(message) && !effect.unhooked.iter().any(|m| m == message) {
                    effect.unhooked.push(message.to_owned());
                }
            }
        }
        effect.pushed = refs(&self.case.join("remote.git")) != self.template_remote;
        effect
    }

    /// What the recording `git` saw in the last case, for a report.
    pub fn calls(&self) -> String {
        fs::read_to_string(self.case.join("log/calls")).unwrap_or_default()
    }
}

/// A reflog message of an operation every one of whose hooks refuses in the
/// template: a commit, a merge that made a merge commit, a rebase, `git am`.
/// Fast-forwards, checkouts, resets and cherry-picks run no such hook.
fn unhooked(message: &str) -> bool {
    message.starts_with("commit")
        || message.contains("Merge made by")
        || message.starts_with("rebase")
        || message.contains("--rebase (")
        || message.starts_with("am:")
}

/// Every file under `dir`, by path relative to it, with its text.
fn files(dir: &Path) -> BTreeMap<PathBuf, String> {
    let mut found = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(next) = pending.pop() {
        let Ok(entries) = fs::read_dir(&next) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if let Ok(text) = fs::read_to_string(&path) {
                found.insert(path.strip_prefix(dir).unwrap_or(&path).to_path_buf(), text);
            }
        }
    }
    found
}

/// A bare repository's refs: loose ones and `packed-refs`.
fn refs(repo: &Path) -> BTreeMap<PathBuf, String> {
    let mut all = files(&repo.join("refs"));
    if let Ok(packed) = fs::read_to_string(repo.join("packed-refs")) {
        all.insert(PathBuf::from("packed-refs"), packed);
    }
    all
}
