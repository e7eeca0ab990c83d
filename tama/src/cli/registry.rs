//! `tama registry seal|check`.

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

use std::path::{Path, PathBuf};

use clap::Subcommand;

use super::exit;
use tama_core::registry::{HookRun, Loaded, RegistryError, checksum};

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

/// Why `tama registry seal` or `check` refused.
#[derive(Debug, thiserror::Error)]
enum CommandError {
    #[error(transparent)]
    Registry(#[from] RegistryError),
    #[error("writing hook registry {}: {source}", path.display())]
    Write {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
}

pub fn run(command: RegistryCommand) -> u8 {
    let result = match command {
        RegistryCommand::Seal { path } => seal(&path),
        RegistryCommand::Check { path } => check(&path),
        RegistryCommand::Schema => {
            print!("{}", tama_core::registry::schema());
            Ok(())
        }
    };
    match result {
        Ok(()) => exit::PASS,
        Err(why) => {
            eprintln!("{}: {why}", tama_core::INFRASTRUCTURE);
            exit::INFRASTRUCTURE
        }
    }
}

/// Seals the registry at `path` in place; one that is not JSON, or names a
/// key twice, is left as it is.
fn seal(path: &Path) -> Result<(), CommandError> {
    let mut raw = tama_core::registry::read_unsealed(path)?;
    checksum::seal(&mut raw);
    let sealed = serde_json::to_string_pretty(&raw).unwrap_or_default() + "\n";
    tama_core::files::write_whole_synced(path, sealed.as_bytes()).map_err(|source| {
        CommandError::Write {
            path: path.to_path_buf(),
            source,
        }
    })?;
    Loaded::from_file(path)?;
    println!(
        "sealed {} catalogChecksum {}",
        path.display(),
        raw.get(checksum::CHECKSUM_KEY)
            .and_then(|c| c.as_str())
            .unwrap_or_default()
    );
    Ok(())
}

fn check(path: &Path) -> Result<(), CommandError> {
    let loaded = Loaded::from_file(path)?;
    let registry = &loaded.registry;
    println!("registry {}", loaded.origin);
    println!(
        "release {}",
        registry.release_id.as_deref().unwrap_or("null")
    );
    println!(
        "catalogChecksum {}",
        registry.catalog_checksum.as_deref().unwrap_or_default()
    );
    for (event, hooks) in &registry.events {
        for hook in &hooks.hooks {
            match &hook.run {
                HookRun::Wasm(wasm) => {
                    let source = loaded.component(hook)?;
                    println!(
                        "{event}\t{}\twasm {} sha256 {}",
                        hook.id, wasm.component, source.sha256
                    );
                }
                HookRun::Command { command } => println!("{event}\t{}\tcommand {command}", hook.id),
            }
        }
    }
    Ok(())
}
