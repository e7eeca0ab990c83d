//! `tama run-hook <event> [<agent-id>]`: the path every Claude Code and Codex
//! hook call takes, the payload on stdin.

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;

use tama_adapters::{Answer, Harness};
use tama_core::dispatch::{
    Decision, Dispatcher, Fault, Infrastructure, Selection, select::text_var,
};
use tama_core::event::{EventName, PayloadError};
use tama_core::oko::OkoState;
use tama_core::registry::Loaded;

/// Decide one event for Claude Code or Codex.
///
/// Claude Code gets the decision on stdout and exit 2 on a block, the reason
/// on stderr. Codex gets its block response and exit 0, and nothing when the
/// event passes. A failure of Tama itself is a block of the same form, its
/// reason starting TAMA_HOOK_INFRASTRUCTURE; under a harness Tama cannot name
/// (an unknown TAMA_PROVIDER) it is Claude Code's, which Codex reads as a block too.
#[derive(Args)]
#[command(verbatim_doc_comment)]
pub struct RunHookArgs {
    /// The event, in registry spelling (pre_tool_use) or the harness's (PreToolUse).
    #[arg(required_unless_present = "serve")]
    event: Option<String>,
    /// The agent this run is for; else TAMA_AGENT_ID.
    agent_id: Option<String>,
    /// The harness that asks (else TAMA_PROVIDER; default claude).
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(Harness::run_hook_names()))]
    provider: Option<String>,
    /// The registry to use (default: $TAMA_REGISTRY, ~/.shared-hooks/registry.json, the embedded default).
    #[arg(long, value_name = "PATH")]
    registry: Option<PathBuf>,
    /// Serve every event of a harness session over stdin/stdout instead (one JSON object per line).
    #[arg(long, value_name = "HARNESS", value_parser = ["omp"], conflicts_with_all = ["event", "agent_id", "provider"])]
    serve: Option<String>,
}

pub fn run(args: RunHookArgs) -> u8 {
    if args.serve.is_some() {
        return crate::serve::serve(args.registry);
    }
    let answer = answer(args);
    let _ = std::io::stdout().write_all(answer.stdout.as_bytes());
    let _ = std::io::stderr().write_all(answer.stderr.as_bytes());
    answer.exit
}

fn answer(args: RunHookArgs) -> Answer {
    let event_arg = args.event.clone().unwrap_or_default();
    let (provider, chosen) = match provider(args.provider.clone()) {
        Ok(provider) => (provider, Ok(())),
        // Claude Code's block, exit 2 with the reason on stderr, is read as a
        // block by Codex too, so a harness Tama cannot name still gets one.
        Err(fault) => (claude(), Err(fault)),
    };
    let decision = chosen
        .and_then(|()| decide(provider, &args, &event_arg))
        .unwrap_or_else(|fault| {
            let agent = args.agent_id.clone().filter(|a| !a.is_empty());
            Decision::infrastructure(
                EventName::parse(&event_arg),
                agent,
                Infrastructure::new(fault),
            )
        });
    provider.encode(&decision)
}

/// The decision for the event on stdin; a fault when Tama cannot decide it.
fn decide(provider: Harness, args: &RunHookArgs, event_arg: &str) -> Result<Decision, Fault> {
    let from_env = text_var("TAMA_AGENT_ID")?;
    let agent = args
        .agent_id
        .clone()
        .or(from_env)
        .filter(|a| !a.is_empty())
        .ok_or(Fault::NoAgent)?;
    let selection = Selection::from_env()?;
    let registry = Loaded::select(args.registry.as_deref())?;
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .map_err(Fault::Stdin)?;
    let payload = |source| Fault::Payload {
        event: event_arg.to_string(),
        source,
    };
    let text =
        String::from_utf8(bytes).map_err(|e| payload(PayloadError::NotUtf8(e.utf8_error())))?;
    let mut event = provider.decode(&text, Some(event_arg)).map_err(payload)?;
    let mut selection =
        tama_core::session::selection_for(&selection, &agent, event.session_id.as_deref());
    event.capability =
        tama_core::capability::for_event(&registry.registry, &agent, event.session_id.as_deref())
            .unwrap_or_else(|refused| {
                selection.refused.push(refused);
                None
            });
    event.agent_id = Some(agent);
    let cwd = event
        .payload
        .get("cwd")
        .and_then(|c| c.as_str())
        .map(str::to_string);
    if let Err(err) = tama_core::command::init_supervision() {
        tama_core::log::write(
            "run-hook",
            &format!("cannot adopt orphaned hook processes: {err}"),
        );
    }
    let dispatcher = Dispatcher::new(registry, Arc::new(OkoState::from_env()));
    let run = Arc::new(tama_core::supervise::Run::arrive(&event));
    let ending = Arc::downgrade(&run);
    tama_core::supervise::termination::on_termination(move |signal| {
        if let Some(run) = ending.upgrade() {
            run.end_all(&format!(
                "tama run-hook was terminated by {}",
                signal.as_str()
            ));
        }
    });
    let decision = run.conclude(dispatcher.dispatch_watched(event, &selection, run.as_ref()));
    while run.is_terminated() {
        std::thread::park();
    }
    drop(run);
    if let Err(err) = tama_core::session::publish(dispatcher.registry(), &decision, cwd.as_deref())
    {
        tama_core::log::write(
            "run-hook",
            &format!("cannot publish the session record: {err}"),
        );
    }
    // The process ends with this answer and its memory with it: unmapping
    // the engine, its components and instances one by one would only delay
    // the answer.
    std::mem::forget(dispatcher);
    Ok(decision)
}

/// `--provider`, else `TAMA_PROVIDER`, else Claude Code.
fn provider(flag: Option<String>) -> Result<Harness, Fault> {
    let name = match flag {
        Some(name) => name,
        None => text_var("TAMA_PROVIDER")?.unwrap_or_default(),
    };
    if name.is_empty() {
        return Ok(claude());
    }
    Harness::named(&name.to_ascii_lowercase())
        .filter(|h| !h.served())
        .ok_or(Fault::UnknownProvider(name))
}

fn claude() -> Harness {
    Harness(&tama_adapters::claude::Claude)
}
