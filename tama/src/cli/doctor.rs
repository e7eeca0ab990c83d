//! `tama doctor [--json]`.

use std::path::PathBuf;

use clap::Args;

use super::exit;
use crate::doctor::{Scope, examine};

/// Check that Tama, as installed, stops what it must: each harness's hook
/// entries run this tama and answer in the form the harness reads as a
/// block, the registry loads and its gates compile, the compile cache is
/// private, and Codex trusts Tama's hooks. One line per finding, with what
/// to run to fix it; exit 0 only when every finding holds.
#[derive(Args)]
pub struct DoctorArgs {
    /// Print the findings as JSON.
    #[arg(long)]
    json: bool,
    /// The registry to check (default: $TAMA_REGISTRY, ~/.shared-hooks/registry.json, the embedded default).
    #[arg(long, value_name = "PATH")]
    registry: Option<PathBuf>,
    /// The codex binary to ask about its hooks' trust (default: codex on PATH).
    #[arg(long, value_name = "PATH")]
    codex: Option<PathBuf>,
}

pub fn run(args: DoctorArgs) -> u8 {
    let tama = match tama_core::paths::this_tama() {
        Ok(tama) => tama,
        Err(why) => {
            eprintln!("tama doctor: {why}");
            return exit::INFRASTRUCTURE;
        }
    };
    let scope = Scope {
        home: tama_core::paths::home(),
        tama,
        registry: args.registry,
        codex: args.codex,
    };
    let findings = examine(&scope);
    let healthy = findings.iter().all(|f| f.ok);
    if args.json {
        println!(
            "{}",
            serde_json::json!({"ok": healthy, "findings": findings})
        );
    } else {
        findings.iter().for_each(|f| println!("{f}"));
    }
    if healthy {
        exit::PASS
    } else {
        exit::INFRASTRUCTURE
    }
}
