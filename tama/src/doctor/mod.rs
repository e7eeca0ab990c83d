//! `tama doctor`: whether Tama, as installed, would stop what it must stop.
//!
//! Every check ends in findings of one line each, with what to run to fix
//! the ones that do not hold. The harness checks run the exact command line
//! each harness config holds, with a synthetic payload of that harness, and
//! read the answer the way the harness reads it.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod codex_trust;
mod installed;
mod omp;

use std::path::{Path, PathBuf};

use serde::Serialize;

pub use installed::Installed;

/// One thing the doctor looked at.
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    /// What was checked, e.g. `claude hook PreToolUse`.
    pub check: String,
    pub ok: bool,
    /// What was found.
    pub detail: String,
    /// What to run so the check holds; only where it does not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

impl Finding {
    fn ok(check: impl Into<String>, detail: impl Into<String>) -> Finding {
        Finding {
            check: check.into(),
            ok: true,
            detail: detail.into(),
            fix: None,
        }
    }

    fn fail(
        check: impl Into<String>,
        detail: impl Into<String>,
        fix: impl Into<String>,
    ) -> Finding {
        Finding {
            check: check.into(),
            ok: false,
            detail: detail.into(),
            fix: Some(fix.into()),
        }
    }
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.fix {
            None => write!(f, "ok    {}: {}", self.check, self.detail),
            Some(fix) => write!(f, "FAIL  {}: {}; fix: {fix}", self.check, self.detail),
        }
    }
}

/// What the doctor is told about the machine it examines.
pub struct Scope {
    pub home: PathBuf,
    /// The `tama` running now.
    pub tama: PathBuf,
    /// `--registry`, else the usual choice.
    pub registry: Option<PathBuf>,
    /// The Codex binary to ask about its hooks' trust, when there is one.
    pub codex: Option<PathBuf>,
}

/// Codex's commands run with pagers and editors that take no typed
/// commands (`tama_adapters::codex_env`).
fn codex_environment_finding(home: &std::path::Path) -> Finding {
    let check = "codex environment";
    let path = tama_adapters::codex_env::config_path(home);
    match tama_adapters::codex_env::missing(home).as_slice() {
        [] => Finding::ok(
            check,
            format!(
                "{} gives Codex's commands pagers and editors that take no typed commands",
                path.display()
            ),
        ),
        missing => Finding::fail(
            check,
            format!(
                "{} does not set {} in [shell_environment_policy.set]: a pager or editor opened in Codex's terminal would run a shell command typed into it with write_stdin, for which Codex runs no hook",
                path.display(),
                missing.join(" ")
            ),
            "tama setup codex",
        ),
    }
}

/// Every check, in the order a user fixes them: the registry first, since
/// every hook depends on it.
pub fn examine(scope: &Scope) -> Vec<Finding> {
    let mut findings = registry_findings(scope.registry.as_deref());
    findings.push(cache_finding(&tama_core::paths::cache_dir()));
    for installed in Installed::find(&scope.home) {
        findings.extend(installed.findings(scope));
    }
    if let Some(finding) = codex_trust::finding(scope) {
        findings.push(finding);
        findings.push(codex_environment_finding(&scope.home));
    }
    findings.extend(omp::findings(scope));
    if findings
        .iter()
        .all(|f| !f.check.contains(" hook ") && !f.check.starts_with("omp"))
    {
        findings.push(Finding::fail(
            "harness hooks",
            format!("no harness config under {} runs Tama", scope.home.display()),
            "tama setup claude, tama setup codex or tama setup omp",
        ));
    }
    findings
}

/// The registry loads, and every gate it names compiles and accepts its config.
fn registry_findings(explicit: Option<&Path>) -> Vec<Finding> {
    let loaded = match tama_core::registry::Loaded::select(explicit) {
        Ok(loaded) => loaded,
        Err(err) => {
            let fix = match tama_core::registry::Loaded::source(explicit) {
                Some(path) => format!(
                    "restore {} from its release, or run tama registry check {} for the cause",
                    path.display(),
                    path.display()
                ),
                None => "reinstall tama".into(),
            };
            return vec![Finding::fail("registry", err.to_string(), fix)];
        }
    };
    let mut findings = vec![Finding::ok("registry", format!("{} loads", loaded.origin))];
    let gates: Vec<_> = loaded
        .registry
        .events
        .values()
        .flat_map(|e| &e.hooks)
        .filter(|h| h.kind() == tama_core::registry::HookKind::Wasm)
        .collect();
    if gates.is_empty() {
        return findings;
    }
    let host = match tama_core::wasm::Host::one_event(
        tama_core::paths::cache_dir(),
        &tama_core::registry::tool_declaration(),
    ) {
        Ok(host) => host,
        Err(err) => {
            return vec![Finding::fail(
                "wasm host",
                format!("{err:#}"),
                "check that TAMA_CACHE_DIR is writable",
            )];
        }
    };
    for hook in gates {
        let check = format!("gate {}", hook.id);
        let loaded_gate = loaded
            .component(hook)
            .map_err(|e| e.to_string())
            .and_then(|source| {
                let (config, state) = match hook.wasm() {
                    Some(wasm) => (
                        wasm.config.clone().unwrap_or(serde_json::Value::Null),
                        wasm.state.as_slice(),
                    ),
                    None => (serde_json::Value::Null, &[][..]),
                };
                tama_core::wasm::Gate::load(&host, &hook.id, &source, &config, state)
                    .map_err(|e| e.to_string())
            });
        findings.push(match loaded_gate {
            Ok(_) => Finding::ok(check, "compiles and accepts its config"),
            Err(why) => Finding::fail(check, why, format!("tama registry check {}", loaded.origin)),
        });
    }
    findings
}

/// The compile cache holds native code every `tama` maps: nobody else may write it.
fn cache_finding(dir: &Path) -> Finding {
    use std::os::unix::fs::PermissionsExt;
    let check = "compile cache";
    match std::fs::metadata(dir) {
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            Finding::ok(check, format!("{} does not exist yet", dir.display()))
        }
        Err(err) => Finding::fail(
            check,
            format!("cannot read {}: {err}", dir.display()),
            format!("ls -ld {}", dir.display()),
        ),
        Ok(meta) if meta.permissions().mode() & 0o077 != 0 => Finding::fail(
            check,
            format!(
                "{} is open to others (mode {:o})",
                dir.display(),
                meta.permissions().mode() & 0o777
            ),
            format!("chmod 700 {}", dir.display()),
        ),
        Ok(_) => Finding::ok(check, format!("{} is private", dir.display())),
    }
}
