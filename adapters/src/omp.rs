//! oh-my-pi: no hook config, but extension modules. Tama's extension
//! (`adapters/omp/`) starts `tama run-hook --serve omp` and asks it about
//! every event; it reads the canonical decision and answers oh-my-pi itself.
//!
//! `tama setup omp [--remove]` installs that extension. Tama installs
//! three things, each only where it differs, and leaves every other file
//! alone:
//!
//! - the shell, `~/.omp/agent/extensions/omp-shared-hooks.js`, which imports
//!   the adapter under its digest and forwards every event to it;
//! - the adapter and its sibling modules, in `~/.shared-hooks/omp/`;
//! - the engine the adapter starts, `~/.shared-hooks/hooks-runtime/current/bin/tama`,
//!   a symlink to this `tama`.

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::{Answer, Spec};
use crate::peers::Adapter;
use crate::setup::{HookEvent, SetupError};
use tama_core::dispatch::Decision;

pub struct Omp;

impl Spec for Omp {
    fn name(&self) -> &'static str {
        "omp"
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["oh-my-pi"]
    }

    /// The canonical decision, as `tama run-hook --serve` carries it; the
    /// extension turns it into oh-my-pi's answer (`adapters/omp/adapter.js`).
    fn encode(&self, decision: &Decision) -> Answer {
        match serde_json::to_value(decision) {
            Ok(canonical) => Answer::json(&canonical, "", 0),
            Err(err) => Answer::json(
                &serde_json::json!({"decision": "block", "reason": format!("{}: the decision cannot be written: {err}", tama_core::INFRASTRUCTURE)}),
                "",
                0,
            ),
        }
    }

    fn served(&self) -> bool {
        true
    }

    fn config_path(&self, home: &Path) -> PathBuf {
        Layout::under(home).extensions.join(SHELL.0)
    }

    fn supports(&self, _event: &str) -> bool {
        false
    }

    /// The extension asks about every event it meets, so `events` does not narrow it.
    fn install(
        &self,
        home: &Path,
        tama: &Path,
        _events: &[HookEvent],
    ) -> Result<Box<dyn fmt::Display>, SetupError> {
        Ok(Box::new(install(home, tama)?))
    }

    fn remove(&self, home: &Path, _tama: &Path) -> Result<Box<dyn fmt::Display>, SetupError> {
        Ok(Box::new(remove(home)?))
    }

    /// oh-my-pi has no hook config, so the peer hooks go, in Claude Code's
    /// form, into a file of Tama's that the extension reads on each event
    /// (`adapters/omp/peers.mjs`). Its tool names vary with its release, so
    /// every call reaches the folder guard, which reads the writes through
    /// the tool declaration. No hook can wake an idle oh-my-pi: no waiter.
    fn peers(&self) -> Option<Adapter> {
        Some(Adapter {
            kind: super::Harness(&Omp),
            config: PEER_HOOKS,
            skill: ".omp/agent/skills/peer-work/SKILL.md",
            session_env: None,
            commands_name_session: false,
            wakes: false,
            edit_matcher: "*",
        })
    }
}

/// The peer hooks the extension runs, relative to the home folder.
pub const PEER_HOOKS: &str = ".shared-hooks/omp/peer-hooks.json";

/// The extension module oh-my-pi loads.
pub const SHELL: (&str, &str) = (
    "omp-shared-hooks.js",
    include_str!("../omp/omp-shared-hooks.js"),
);

/// The adapter and its sibling modules, by file name.
pub const ADAPTER: &[(&str, &str)] = &[
    ("adapter.js", include_str!("../omp/adapter.js")),
    (
        "engine-client.mjs",
        include_str!("../omp/engine-client.mjs"),
    ),
    ("hook-events.mjs", include_str!("../omp/hook-events.mjs")),
    (
        "installed-contract.mjs",
        include_str!("../omp/installed-contract.mjs"),
    ),
    ("peers.mjs", include_str!("../omp/peers.mjs")),
    (
        "provider-request.mjs",
        include_str!("../omp/provider-request.mjs"),
    ),
    (
        "session-control.mjs",
        include_str!("../omp/session-control.mjs"),
    ),
];

/// Words only Tama's shell carries, so `--remove` takes out no one else's file.
const SHELL_MARK: &str = "Tama's oh-my-pi extension";

/// Where each piece goes under `home`.
pub struct Layout {
    pub extensions: PathBuf,
    pub adapter: PathBuf,
    pub engine: PathBuf,
}

impl Layout {
    pub fn under(home: &Path) -> Layout {
        let shared = home.join(".shared-hooks");
        Layout {
            extensions: home.join(".omp").join("agent").join("extensions"),
            adapter: shared.join("omp"),
            engine: shared
                .join("hooks-runtime")
                .join("current")
                .join("bin")
                .join("tama"),
        }
    }
}

/// What `install` or `remove` did, path by path.
#[derive(Debug, Default)]
pub struct OmpReport {
    pub written: Vec<PathBuf>,
    pub unchanged: Vec<PathBuf>,
    pub removed: Vec<PathBuf>,
    pub kept: Vec<(PathBuf, &'static str)>,
    /// Whether this was `--remove`.
    pub removing: bool,
}

impl fmt::Display for OmpReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut lines = Vec::new();
        lines.extend(
            self.written
                .iter()
                .map(|p| format!("wrote {}", p.display())),
        );
        lines.extend(
            self.unchanged
                .iter()
                .map(|p| format!("unchanged {}", p.display())),
        );
        lines.extend(
            self.removed
                .iter()
                .map(|p| format!("removed {}", p.display())),
        );
        lines.extend(
            self.kept
                .iter()
                .map(|(p, why)| format!("kept {}: {why}", p.display())),
        );
        if self.removing {
            if self.removed.is_empty() {
                lines.push("no Tama oh-my-pi extension was installed; nothing changed".into());
            }
        } else if self.written.is_empty() {
            lines.push("Tama's oh-my-pi extension is installed as it is; nothing changed".into());
        } else {
            lines.push("oh-my-pi loads Tama's extension when it starts; a running oh-my-pi adopts a new adapter with /tama_reload_hook_runtime".into());
        }
        f.write_str(&lines.join("\n"))
    }
}

/// Installs the shell, the adapter and the engine link under `home`.
pub fn install(home: &Path, tama: &Path) -> Result<OmpReport, SetupError> {
    let tama = Path::new(crate::setup::program(tama)?);
    let layout = Layout::under(home);
    let mut report = OmpReport::default();
    put(&layout.extensions.join(SHELL.0), SHELL.1, &mut report)?;
    for (name, text) in ADAPTER {
        put(&layout.adapter.join(name), text, &mut report)?;
    }
    link(&layout.engine, tama, &mut report)?;
    Ok(report)
}

/// Takes out the shell and the adapter (with the digest-named copies the
/// shell made); keeps the engine link, which other installs run too.
pub fn remove(home: &Path) -> Result<OmpReport, SetupError> {
    let layout = Layout::under(home);
    let mut report = OmpReport {
        removing: true,
        ..OmpReport::default()
    };
    let shell = layout.extensions.join(SHELL.0);
    match fs::read_to_string(&shell) {
        Ok(text) if text.contains(SHELL_MARK) => take_out(&shell, &mut report)?,
        Ok(_) => report.kept.push((shell, "not Tama's extension")),
        Err(err) if err.kind() == io::ErrorKind::NotFound => {}
        Err(source) => {
            return Err(SetupError::Read {
                path: shell,
                source,
            });
        }
    }
    for (name, _) in ADAPTER {
        take_out(&layout.adapter.join(name), &mut report)?;
    }
    if let Ok(entries) = fs::read_dir(&layout.adapter) {
        let mut copies: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(is_digest_copy)
            })
            .collect();
        copies.sort();
        for copy in copies {
            take_out(&copy, &mut report)?;
        }
    }
    if fs::symlink_metadata(&layout.engine).is_ok() {
        report.kept.push((
            layout.engine,
            "the engine other installs of Tama run as well",
        ));
    }
    Ok(report)
}

/// `adapter.<64 hex>.js`, the copy the shell imports.
fn is_digest_copy(name: &str) -> bool {
    name.strip_prefix("adapter.")
        .and_then(|rest| rest.strip_suffix(".js"))
        .is_some_and(|hex| hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn put(path: &Path, text: &str, report: &mut OmpReport) -> Result<(), SetupError> {
    match fs::read(path) {
        Ok(bytes) if bytes == text.as_bytes() => {
            report.unchanged.push(path.into());
            return Ok(());
        }
        Ok(_) => {}
        Err(err) if err.kind() == io::ErrorKind::NotFound => {}
        Err(source) => {
            return Err(SetupError::Read {
                path: path.into(),
                source,
            });
        }
    }
    tama_core::files::write_whole_synced(path, text.as_bytes()).map_err(|source| {
        SetupError::Write {
            path: path.into(),
            source,
        }
    })?;
    report.written.push(path.into());
    Ok(())
}

/// Makes `path` a symlink to `tama`, replacing whatever held the engine's place.
fn link(path: &Path, tama: &Path, report: &mut OmpReport) -> Result<(), SetupError> {
    if fs::read_link(path).is_ok_and(|target| target == tama) {
        report.unchanged.push(path.into());
        return Ok(());
    }
    let write = |source| SetupError::Write {
        path: path.into(),
        source,
    };
    let dir = path.parent().unwrap_or(Path::new("/"));
    tama_core::files::create_private_dir(dir).map_err(write)?;
    let partial = dir.join(format!(".tama.{}.link", std::process::id()));
    let _ = fs::remove_file(&partial);
    std::os::unix::fs::symlink(tama, &partial).map_err(write)?;
    fs::rename(&partial, path).map_err(write)?;
    report.written.push(path.into());
    Ok(())
}

fn take_out(path: &Path, report: &mut OmpReport) -> Result<(), SetupError> {
    match fs::remove_file(path) {
        Ok(()) => report.removed.push(path.into()),
        Err(err) if err.kind() == io::ErrorKind::NotFound => {}
        Err(source) => {
            return Err(SetupError::Write {
                path: path.into(),
                source,
            });
        }
    }
    Ok(())
}
