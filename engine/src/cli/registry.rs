//! `tama registry seal|check`.

use std::path::{Path, PathBuf};

use clap::Subcommand;

use super::exit;
use crate::registry::{HookRun, Loaded, checksum};

/// Seal or check a hook registry.
#[derive(Subcommand)]
pub enum RegistryCommand {
    /// Write the registry's catalogChecksum.
    Seal { path: PathBuf },
    /// Verify the registry, its checksum and every component's digest, and print what it holds.
    Check { path: PathBuf },
    /// Print the registry's JSON Schema (registry-schema/registry.schema.json).
    Schema,
}

pub fn run(command: RegistryCommand) -> u8 {
    let result = match command {
        RegistryCommand::Seal { path } => seal(&path),
        RegistryCommand::Check { path } => check(&path),
        RegistryCommand::Schema => {
            print!("{}", crate::registry::schema());
            Ok(())
        }
    };
    match result {
        Ok(()) => exit::PASS,
        Err(why) => {
            eprintln!("{}: {why}", crate::INFRASTRUCTURE);
            exit::INFRASTRUCTURE
        }
    }
}

fn seal(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("reading hook registry {}: {e}", path.display()))?;
    let mut raw: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("parsing hook registry {}: {e}", path.display()))?;
    checksum::seal(&mut raw);
    let sealed = serde_json::to_string_pretty(&raw).map_err(|e| e.to_string())? + "\n";
    crate::files::write_whole(path, sealed.as_bytes()).map_err(|e| format!("writing hook registry {}: {e}", path.display()))?;
    Loaded::from_file(path).map_err(|e| e.to_string())?;
    println!("sealed {} catalogChecksum {}", path.display(), raw[checksum::CHECKSUM_KEY].as_str().unwrap_or_default());
    Ok(())
}

fn check(path: &Path) -> Result<(), String> {
    let loaded = Loaded::from_file(path).map_err(|e| e.to_string())?;
    let registry = &loaded.registry;
    println!("registry {}", loaded.origin);
    println!("release {}", registry.release_id.as_deref().unwrap_or("null"));
    println!("catalogChecksum {}", registry.catalog_checksum.as_deref().unwrap_or_default());
    for (event, hooks) in &registry.events {
        for hook in &hooks.hooks {
            match &hook.run {
                HookRun::Wasm(wasm) => {
                    let source = loaded.component(hook).map_err(|e| e.to_string())?;
                    println!("{event}\t{}\twasm {} sha256 {}", hook.id, wasm.component, source.sha256);
                }
                HookRun::Command { command } => println!("{event}\t{}\tcommand {command}", hook.id),
            }
        }
    }
    Ok(())
}
