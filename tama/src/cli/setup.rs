//! `tama setup claude|codex [--remove]`.

use std::path::PathBuf;

use clap::Args;

use super::exit;
use tama_adapters::setup::{self, Harness};
use tama_core::registry::Loaded;
use tama_peers as peers;

/// Write Tama's hook entries into a harness's config (~/.claude/settings.json,
/// ~/.codex/hooks.json), keeping everything else and backing the file up first.
#[derive(Args)]
pub struct SetupArgs {
    /// claude or codex: Tama's hooks; omp: Tama's oh-my-pi extension; peers: the peer hooks.
    harness: String,
    /// Take Tama's entries out instead.
    #[arg(long)]
    remove: bool,
    /// The registry whose events are installed (default: $TAMA_REGISTRY, ~/.shared-hooks/registry.json, the embedded default).
    #[arg(long, value_name = "PATH")]
    registry: Option<PathBuf>,
    /// codex only: ask codex for the hashes of Tama's hooks and record them as trusted.
    #[arg(long)]
    trust: bool,
}

pub fn run(args: SetupArgs) -> u8 {
    if args.harness == "peers" {
        return setup_peers(args.remove);
    }
    match setup(args) {
        Ok(report) => {
            println!("{report}");
            exit::PASS
        }
        Err(why) => {
            eprintln!("tama setup: {why}");
            exit::INFRASTRUCTURE
        }
    }
}

fn setup(args: SetupArgs) -> Result<String, String> {
    let harness: Harness = args
        .harness
        .parse()
        .map_err(|e: setup::SetupError| e.to_string())?;
    let tama = tama_core::paths::this_tama()?;
    let home = tama_core::paths::home();
    if args.remove {
        return harness
            .remove(&home, &tama)
            .map(|r| r.to_string())
            .map_err(|e| e.to_string());
    }
    if harness.served() {
        return harness
            .install(&home, &tama, &[])
            .map(|r| r.to_string())
            .map_err(|e| e.to_string());
    }
    let registry = Loaded::select(args.registry.as_deref()).map_err(|e| e.to_string())?;
    let keys: Vec<&str> = registry
        .registry
        .events
        .keys()
        .map(String::as_str)
        .collect();
    // Each entry waits longer than every hook Tama may run for its event, so
    // Tama, not the harness, ends a hook that runs too long and refuses.
    let mut events = setup::events_from_registry_keys(&keys, 0);
    for event in &mut events {
        let name = tama_core::event::EventName::parse(&event.harness_event);
        event.timeout_secs = name
            .map_or(30, |name| setup::entry_timeout(&registry.registry, name))
            .max(30);
    }
    if args.trust {
        let report = if harness.name() == "codex" {
            tama_adapters::codex::install(&home, &tama, &events)
        } else {
            setup::install(harness, &home, &tama, &events)
        }
        .map_err(|e| e.to_string())?;
        return Ok(trust_codex(harness, report)?.to_string());
    }
    harness
        .install(&home, &tama, &events)
        .map(|r| r.to_string())
        .map_err(|e| e.to_string())
}

/// `tama setup peers [--remove]`: the peer hooks and the peer-work skill
/// for every agent kind, one report each.
fn setup_peers(remove: bool) -> u8 {
    let tama = match tama_core::paths::this_tama() {
        Ok(tama) => tama,
        Err(why) => {
            eprintln!("tama setup: {why}");
            return exit::INFRASTRUCTURE;
        }
    };
    let home = tama_core::paths::home();
    let mut code = exit::PASS;
    for kind in peers::Adapter::all() {
        match peers::install::install(&kind, &home, &tama, remove) {
            Ok(report) => println!("{}: {report}", kind.name()),
            Err(why) => {
                eprintln!("tama setup peers: {}: {why}", kind.name());
                code = exit::INFRASTRUCTURE;
            }
        }
    }
    code
}

/// `--trust`: Codex's current hash of each of Tama's hooks, recorded as trusted.
fn trust_codex(harness: Harness, mut report: setup::Report) -> Result<setup::Report, String> {
    use crate::doctor::codex_trust;
    if harness.setup_notice() != Some(tama_adapters::codex::TRUST) {
        return Err(
            "--trust is for codex alone: Claude Code runs its hooks without a trust step".into(),
        );
    }
    let codex = codex_trust::on_path("codex")
        .ok_or("--trust needs codex on PATH, to ask it for the hashes of Tama's hooks")?;
    let home = tama_core::paths::home();
    let hooks = codex_trust::tama_hooks(&codex, &home).map_err(|e| e.to_string())?;
    let config = codex_trust::record_trust(&home, &hooks).map_err(|e| e.to_string())?;
    report.notices.retain(|n| n != tama_adapters::codex::TRUST);
    report.notices.push(format!(
        "codex now trusts {} of Tama's hooks, recorded in {}",
        hooks.len(),
        config.display()
    ));
    Ok(report)
}
