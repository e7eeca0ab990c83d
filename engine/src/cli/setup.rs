//! `tama setup claude|codex [--remove]`.

use std::path::PathBuf;

use clap::Args;

use super::exit;
use crate::registry::Loaded;
use crate::setup::{self, Harness};

/// Write Tama's hook entries into a harness's config (~/.claude/settings.json,
/// ~/.codex/hooks.json), keeping everything else and backing the file up first.
#[derive(Args)]
pub struct SetupArgs {
    /// claude or codex.
    harness: String,
    /// Take Tama's entries out instead.
    #[arg(long)]
    remove: bool,
    /// The registry whose events are installed (default: $TAMA_REGISTRY, ~/.shared-hooks/registry.json, the embedded default).
    #[arg(long, value_name = "PATH")]
    registry: Option<PathBuf>,
}

pub fn run(args: SetupArgs) -> u8 {
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

fn setup(args: SetupArgs) -> Result<setup::Report, String> {
    let harness: Harness = args.harness.parse().map_err(|e: setup::SetupError| e.to_string())?;
    let tama = std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .map_err(|e| format!("cannot tell where this tama is: {e}"))?;
    let home = crate::paths::home();
    if args.remove {
        return setup::remove(harness, &home, &tama).map_err(|e| e.to_string());
    }
    let registry = Loaded::select(args.registry.as_deref()).map_err(|e| e.to_string())?;
    let keys: Vec<&str> = registry.registry.events.keys().map(String::as_str).collect();
    let longest = registry.registry.events.values().flat_map(|e| &e.hooks).filter_map(|h| h.timeout).fold(0.0_f64, f64::max);
    // The harness waits a little longer than Tama's slowest hook, so Tama,
    // not the harness, ends a hook that runs too long and says which it was.
    let timeout = (longest.ceil() as u64 + 10).max(30);
    setup::install(harness, &home, &tama, &setup::events_from_registry_keys(&keys, timeout)).map_err(|e| e.to_string())
}
