//! `tama setup claude|codex [--remove]`.

use std::path::PathBuf;

use clap::Args;

use super::exit;
use crate::peers;
use crate::registry::Loaded;
use crate::setup::{self, Harness};

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
    let harness: Harness = args.harness.parse().map_err(|e: setup::SetupError| e.to_string())?;
    let tama = crate::paths::this_tama()?;
    let home = crate::paths::home();
    if harness == Harness::Omp {
        let report = if args.remove { crate::setup_omp::remove(&home) } else { crate::setup_omp::install(&home, &tama) };
        return report.map(|r| r.to_string()).map_err(|e| e.to_string());
    }
    if args.remove {
        return setup::remove(harness, &home, &tama).map(|r| r.to_string()).map_err(|e| e.to_string());
    }
    let registry = Loaded::select(args.registry.as_deref()).map_err(|e| e.to_string())?;
    let keys: Vec<&str> = registry.registry.events.keys().map(String::as_str).collect();
    let longest = registry.registry.events.values().flat_map(|e| &e.hooks).filter_map(|h| h.timeout).fold(0.0_f64, f64::max);
    // The harness waits a little longer than Tama's slowest hook, so Tama,
    // not the harness, ends a hook that runs too long and says which it was.
    let timeout = (longest.ceil() as u64 + 10).max(30);
    let events = setup::events_from_registry_keys(&keys, timeout);
    setup::install(harness, &home, &tama, &events).map(|r| r.to_string()).map_err(|e| e.to_string())
}

/// `tama setup peers [--remove]`: the peer hooks and the peer-work skill
/// for every agent kind, one report each.
fn setup_peers(remove: bool) -> u8 {
    let tama = match crate::paths::this_tama() {
        Ok(tama) => tama,
        Err(why) => {
            eprintln!("tama setup: {why}");
            return exit::INFRASTRUCTURE;
        }
    };
    let home = crate::paths::home();
    let mut code = exit::PASS;
    for kind in peers::Kind::ALL {
        match peers::install::install(&peers::Adapter::of(kind), &home, &tama, remove) {
            Ok(report) => println!("{}: {report}", kind.name()),
            Err(why) => {
                eprintln!("tama setup peers: {}: {why}", kind.name());
                code = exit::INFRASTRUCTURE;
            }
        }
    }
    code
}
