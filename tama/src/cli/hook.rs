//! `tama hook <id>`: one payload through one gate.

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

use std::io::Read;
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;

use super::exit;
use tama_core::dispatch::{Fault, Infrastructure, Outcome, select::text_var};
use tama_core::event::Event;
use tama_core::oko::OkoState;
use tama_core::registry::{HookKind, Loaded, tool_declaration};
use tama_core::wasm::{ComponentBytes, Gate, GateEvent, GateFault, Host, Verdict};

/// Pipe one payload (Claude Code, Codex or oh-my-pi shape) through one gate.
///
/// Exit codes: 0 the gate passed (nothing printed); 2 it refused (the reason
/// on stdout); 1 the gate or Tama failed (a TAMA_HOOK_INFRASTRUCTURE refusal
/// on stdout); 3 the payload is not JSON or lacks what the gate needs (one
/// line on stderr); 64 the command line is wrong, e.g. an unknown gate.
#[derive(Args)]
#[command(verbatim_doc_comment)]
pub struct HookArgs {
    /// The gate's id in the registry.
    #[arg(required_unless_present_any = ["plugin", "list"])]
    id: Option<String>,
    /// Run this component instead of a registered gate.
    #[arg(long, value_name = "GATE.wasm", conflicts_with = "list")]
    plugin: Option<PathBuf>,
    /// The gate's configuration (JSON) for --plugin.
    #[arg(long, value_name = "JSON", default_value = "{}", requires = "plugin")]
    config: String,
    /// List the registered gates and exit.
    #[arg(long)]
    list: bool,
    /// The registry to use (default: $TAMA_REGISTRY, ~/.shared-hooks/registry.json, the embedded default).
    #[arg(long, value_name = "PATH")]
    registry: Option<PathBuf>,
    /// The event, when the payload does not name it (default: its own, or pre_tool_use for a tool call).
    #[arg(long)]
    event: Option<String>,
}

pub fn run(args: HookArgs) -> u8 {
    let registry = match (&args.plugin, Loaded::select(args.registry.as_deref())) {
        (Some(_), _) => None,
        (None, Ok(loaded)) => Some(loaded),
        (None, Err(err)) => return answer(&Outcome::Infrastructure(Infrastructure::new(err))),
    };
    if args.list {
        return registry.as_ref().map_or(exit::USAGE, list);
    }
    let mut payload = String::new();
    if let Err(err) = std::io::stdin().read_to_string(&mut payload) {
        return bad_payload(&format!("reading the payload from stdin: {err}"));
    }
    let mut event = match Event::decode(&payload, args.event.as_deref()) {
        Ok(event) => event,
        Err(err) => return bad_payload(&err.to_string()),
    };
    event.agent_id = match text_var("TAMA_AGENT_ID") {
        Ok(agent) => agent,
        Err(err) => return answer(&Outcome::Infrastructure(Infrastructure::new(err))),
    };
    let host = match Host::one_event(tama_core::paths::cache_dir(), &tool_declaration()) {
        Ok(host) => host,
        Err(err) => {
            return answer(&Outcome::Infrastructure(Infrastructure::new(
                Fault::WasmHost(format!("{err:#}")),
            )));
        }
    };
    let (id, gate) = match (&args.plugin, &registry, &args.id) {
        (Some(path), _, _) => plugin_gate(&host, path, &args.config),
        (None, Some(registry), Some(id)) => match registered_gate(&host, registry, id) {
            Ok(found) => found,
            Err(code) => return code,
        },
        _ => {
            eprintln!("tama hook: name a gate, or give --plugin or --list");
            return exit::USAGE;
        }
    };
    let verdict = gate.and_then(|gate| {
        gate.evaluate(
            &Arc::new(GateEvent::new(event)),
            Arc::new(OkoState::from_env()),
        )
    });
    match verdict {
        Ok(Verdict::Pass) => answer(&Outcome::Pass),
        Ok(Verdict::Refuse(reason)) => answer(&Outcome::Refused {
            reason: format!("{id}: {reason}"),
            hook_id: id,
        }),
        Err(GateFault::InvalidInput(why)) => {
            bad_payload(&format!("gate {id} {}", GateFault::InvalidInput(why)))
        }
        Err(source) => answer(&Outcome::Infrastructure(Infrastructure::new(Fault::Gate {
            id,
            source,
        }))),
    }
}

/// Prints the outcome of one gate and gives its exit code: nothing and 0 on
/// a pass, the reason and 2 on a refusal, the TAMA_HOOK_INFRASTRUCTURE
/// reason and 1 when Tama or the gate failed.
fn answer(outcome: &Outcome) -> u8 {
    match outcome {
        Outcome::Pass => exit::PASS,
        Outcome::Refused { reason, .. } => {
            println!("{reason}");
            exit::REFUSED
        }
        Outcome::Infrastructure(fault) => {
            println!("{fault}");
            exit::INFRASTRUCTURE
        }
        Outcome::Cancelled { reason, .. } => {
            println!("{reason}");
            exit::INFRASTRUCTURE
        }
    }
}

fn plugin_gate(
    host: &Host,
    path: &std::path::Path,
    config: &str,
) -> (String, Result<Gate, GateFault>) {
    let id = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "plugin".into());
    let gate = (|| {
        let bytes = std::fs::read(path)
            .map_err(|e| GateFault::Load(format!("reading {}: {e}", path.display())))?;
        let config: serde_json::Value = serde_json::from_str(config)
            .map_err(|e| GateFault::Config(format!("--config is not JSON: {e}")))?;
        let sha256 = tama_core::registry::checksum::sha256_hex(&bytes);
        let source = ComponentBytes::checked(bytes, &sha256).map_err(GateFault::Load)?;
        Gate::load_for_one_event(host, &id, &source, &config, &[])
    })();
    (id, gate)
}

fn registered_gate(
    host: &Host,
    registry: &Loaded,
    id: &str,
) -> Result<(String, Result<Gate, GateFault>), u8> {
    let Some(entry) = registry
        .registry
        .hooks_named(id)
        .find(|h| h.kind() == HookKind::Wasm)
    else {
        let known = registry.registry.hooks_named(id).next().is_some();
        let why = if known {
            "is a command hook, not a wasm gate"
        } else {
            "is not in the registry"
        };
        eprintln!(
            "tama hook: {id} {why} {}; `tama hook --list` names the gates",
            registry.origin
        );
        return Err(exit::USAGE);
    };
    let config = entry
        .wasm()
        .and_then(|w| w.config.clone())
        .unwrap_or(serde_json::Value::Null);
    let state = entry.wasm().map(|w| w.state.clone()).unwrap_or_default();
    let gate = registry
        .gate_component(entry)
        .map_err(|e| GateFault::Load(e.to_string()))
        .and_then(|source| Gate::load_for_one_event(host, id, &source, &config, &state))
        .map(|gate| gate.in_registry(registry));
    Ok((id.to_string(), gate))
}

fn list(registry: &tama_core::registry::Loaded) -> u8 {
    for id in registry.registry.hook_ids() {
        let events: Vec<&str> = registry
            .registry
            .events
            .iter()
            .filter(|(_, e)| {
                e.hooks
                    .iter()
                    .any(|h| h.id == id && h.kind() == HookKind::Wasm)
            })
            .map(|(name, _)| name.as_str())
            .collect();
        if !events.is_empty() {
            println!("{id}\t{}", events.join(", "));
        }
    }
    exit::PASS
}

fn bad_payload(why: &str) -> u8 {
    eprintln!("tama hook: {why}");
    exit::BAD_PAYLOAD
}
