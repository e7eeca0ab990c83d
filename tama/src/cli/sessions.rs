//! `tama sessions …`: what is done to one session. `reload` asks a running
//! oh-my-pi session to adopt the installed adapter. `override` and `grant`
//! change what Tama enforces, so they are the operator's alone: they
//! run only with a terminal on stdin and stderr, which an agent's tool call
//! never has, and what they write carries the control key's tag, so a file
//! written any other way counts for nothing.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use clap::{Args, Subcommand};

use super::exit;
use tama_core::capability::{Capability, Grant, ISSUER, Lifetime, SCHEMA_VERSION};
use tama_core::control_key::ControlKey;
use tama_core::registry::Loaded;
use tama_core::session::{self, Override};

/// Operate on one agent session.
#[derive(Subcommand)]
pub enum SessionsCommand {
    /// Have an oh-my-pi session load the installed Tama adapter in place.
    Reload(super::sessions_reload::ReloadArgs),
    /// Choose which hooks run for one session (operator only: needs a terminal).
    Override(OverrideArgs),
    /// Grant one session a capability its hook commands receive (operator only: needs a terminal).
    Grant(GrantArgs),
}

/// The session a command is for.
#[derive(Args)]
pub struct SessionArg {
    /// The session id, as the harness names it.
    #[arg(long)]
    session: String,
    /// The agent the session runs under, as `tama run-hook` is given it.
    #[arg(long, env = "TAMA_AGENT_ID")]
    agent: String,
}

#[derive(Args)]
pub struct OverrideArgs {
    #[command(flatten)]
    target: SessionArg,
    /// Run no hook but those given with --enable.
    #[arg(long)]
    disable_all: bool,
    /// A hook to run while --disable-all is given.
    #[arg(long = "enable", value_name = "HOOK_ID", requires = "disable_all")]
    enabled: Vec<String>,
    /// A hook not to run for this session.
    #[arg(long = "disable", value_name = "HOOK_ID")]
    disabled: Vec<String>,
    /// Remove the session's override: every hook runs again.
    #[arg(long, conflicts_with_all = ["disable_all", "enabled", "disabled"])]
    clear: bool,
}

/// [`Lifetime`] on the command line.
#[derive(Clone, Copy, clap::ValueEnum)]
enum LifetimeArg {
    /// One event.
    Invocation,
    /// Until its `--expires-in`, which it must have.
    Expiry,
    /// The session's, within its `--expires-in` and `--uses` when it has them.
    Session,
}

impl From<LifetimeArg> for Lifetime {
    fn from(arg: LifetimeArg) -> Lifetime {
        match arg {
            LifetimeArg::Invocation => Lifetime::Invocation,
            LifetimeArg::Expiry => Lifetime::Expiry,
            LifetimeArg::Session => Lifetime::Session,
        }
    }
}

#[derive(Args)]
pub struct GrantArgs {
    #[command(flatten)]
    target: SessionArg,
    /// A tool the grant covers, with the actions it allows (`bash:push,tag`); no actions means all.
    #[arg(
        long = "grant",
        value_name = "TOOL[:ACTION,…]",
        required_unless_present = "revoke"
    )]
    grants: Vec<String>,
    /// How long the grant lasts.
    #[arg(long, value_enum, default_value = "session")]
    lifetime: LifetimeArg,
    /// Events the grant may be handed to (each event uses one).
    #[arg(long, value_name = "N")]
    uses: Option<u64>,
    /// The grant ends this long from now (`30m`, `2h`).
    #[arg(long, value_name = "DURATION", value_parser = humantime::parse_duration)]
    expires_in: Option<Duration>,
    /// The registry the grant is bound to (default: the one `tama run-hook` uses).
    #[arg(long, value_name = "PATH")]
    registry: Option<PathBuf>,
    /// Remove the session's capability.
    #[arg(long, conflicts_with_all = ["grants", "uses", "expires_in"])]
    revoke: bool,
}

pub fn run(command: SessionsCommand) -> u8 {
    let result = match command {
        SessionsCommand::Reload(args) => {
            return super::sessions_reload::run(super::sessions_reload::SessionsCommand::Reload(
                args,
            ));
        }
        SessionsCommand::Override(args) => {
            operator_only("override").and_then(|()| write_override(args))
        }
        SessionsCommand::Grant(args) => operator_only("grant").and_then(|()| grant(args)),
    };
    match result {
        Ok(()) => exit::PASS,
        Err(Refusal::NotOperator(why)) => {
            eprintln!("{why}");
            exit::REFUSED
        }
        Err(Refusal::Failed(why)) => {
            eprintln!("{}: {why}", tama_core::INFRASTRUCTURE);
            exit::INFRASTRUCTURE
        }
    }
}

enum Refusal {
    NotOperator(String),
    Failed(String),
}

impl From<String> for Refusal {
    fn from(why: String) -> Self {
        Refusal::Failed(why)
    }
}

/// Only a person at a terminal runs `tama sessions <command>`.
fn operator_only(command: &str) -> Result<(), Refusal> {
    if std::io::stdin().is_terminal() && std::io::stderr().is_terminal() {
        return Ok(());
    }
    Err(Refusal::NotOperator(format!(
        "tama sessions {command} is the operator's: it runs only with a terminal on stdin and stderr, which an agent's tool call does not have"
    )))
}

fn write_override(args: OverrideArgs) -> Result<(), Refusal> {
    let SessionArg { session, agent } = args.target;
    let key = session::control_key(&agent, &session);
    let path = session::override_path(&key);
    if args.clear {
        match std::fs::remove_file(&path) {
            Ok(()) => println!("removed {}", path.display()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                println!("{} has no override", session)
            }
            Err(e) => return Err(format!("removing {}: {e}", path.display()).into()),
        }
        return Ok(());
    }
    let control = ControlKey::read_or_create().map_err(|e| e.to_string())?;
    let record = Override {
        agent_id: agent,
        session_id: session,
        control_key: key,
        globally_disabled: args.disable_all,
        disabled_hook_ids: args.disabled,
        enabled_hook_ids: args.enabled,
        issued_at: tama_core::clock::now_iso(),
        tag: None,
    }
    .sealed(&control);
    let text = serde_json::to_string_pretty(&record)
        .map_err(|e| format!("writing {}: {e}", path.display()))?;
    tama_core::files::write_whole(&path, text.as_bytes())
        .map_err(|e| format!("writing {}: {e}", path.display()))?;
    println!("wrote {}\n{text}", path.display());
    Ok(())
}

fn grant(args: GrantArgs) -> Result<(), Refusal> {
    let SessionArg { session, agent } = &args.target;
    let (session, agent) = (session.clone(), agent.clone());
    let key = session::control_key(&agent, &session);
    let path = session::record_path(&key);
    let capability = if args.revoke {
        None
    } else {
        Some(capability(&args, &session, &key)?)
    };
    let _lock = session::lock(&key)?;
    let mut record = match session::read_record(&path)? {
        serde_json::Value::Null => {
            serde_json::json!({"schema": session::SCHEMA, "agentId": agent, "sessionId": session, "controlKey": key})
        }
        record => record,
    };
    let Some(fields) = record.as_object_mut() else {
        return Err(format!("{} is not a session record", path.display()).into());
    };
    let writing = |e: serde_json::Error| format!("writing {}: {e}", path.display());
    fields.insert(
        "capability".into(),
        serde_json::to_value(&capability).map_err(writing)?,
    );
    fields.insert("updatedAt".into(), tama_core::clock::now_iso().into());
    tama_core::files::write_whole(&path, record.to_string().as_bytes())
        .map_err(|e| format!("writing {}: {e}", path.display()))?;
    match capability {
        Some(granted) => println!(
            "wrote the capability into {}\n{}",
            path.display(),
            serde_json::to_string_pretty(&granted).map_err(writing)?
        ),
        None => println!("revoked the capability of {}", path.display()),
    }
    Ok(())
}

/// The grant `args` describe, bound to the registry `tama run-hook` loads and tagged.
fn capability(args: &GrantArgs, session: &str, key: &str) -> Result<Capability, String> {
    let registry = Loaded::select(args.registry.as_deref()).map_err(|e| e.to_string())?;
    let grants = args
        .grants
        .iter()
        .map(|g| parse_grant(g))
        .collect::<Result<Vec<_>, _>>()?;
    let lifetime = Lifetime::from(args.lifetime);
    let expires_at = args
        .expires_in
        .map(|d| humantime::format_rfc3339_seconds(SystemTime::now() + d).to_string());
    if lifetime == Lifetime::Expiry && expires_at.is_none() {
        return Err("--lifetime expiry needs --expires-in".into());
    }
    let control = ControlKey::read_or_create().map_err(|e| e.to_string())?;
    let mut nonce = [0u8; 8];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut r| std::io::Read::read_exact(&mut r, &mut nonce))
        .map_err(|e| format!("reading /dev/urandom for the grant's nonce: {e}"))?;
    let nonce = hex::encode(nonce);
    Ok(Capability {
        schema_version: SCHEMA_VERSION,
        issued_by: ISSUER.into(),
        nonce,
        session_id: session.into(),
        control_key: key.into(),
        release_id: registry.registry.release_id.clone(),
        catalog_checksum: registry.registry.catalog_checksum.clone(),
        lifetime,
        expires_at,
        remaining_uses: match lifetime {
            Lifetime::Invocation => Some(1),
            _ => args.uses,
        },
        grants,
        tag: None,
    }
    .sealed(&control))
}

/// `bash:push,tag` → tool `bash`, actions `push` and `tag`; `bash` → every action.
fn parse_grant(text: &str) -> Result<Grant, String> {
    let (tool, actions) = match text.split_once(':') {
        Some((tool, actions)) => (
            tool,
            Some(
                actions
                    .split(',')
                    .map(str::trim)
                    .filter(|a| !a.is_empty())
                    .map(String::from)
                    .collect(),
            ),
        ),
        None => (text, None),
    };
    if tool.trim().is_empty() {
        return Err(format!("--grant {text:?} names no tool"));
    }
    Ok(Grant {
        tool: tool.trim().to_string(),
        actions,
    })
}
