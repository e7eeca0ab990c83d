//! `tama run-hook <event> [<agent-id>]`: the path every Claude Code and Codex
//! hook call takes, the payload on stdin.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;

use crate::adapter::{Answer, Provider};
use crate::dispatch::{Dispatcher, Selection, select::text_var};
use crate::event::Event;
use crate::oko::OkoState;
use crate::registry::Loaded;

/// Decide one event for Claude Code or Codex.
///
/// Claude Code gets the decision on stdout and exit 2 on a block, the reason
/// on stderr. Codex gets its block response and exit 0, and nothing when the
/// event passes. A failure of Tama itself exits 1 with TAMA_HOOK_INFRASTRUCTURE.
#[derive(Args)]
#[command(verbatim_doc_comment)]
pub struct RunHookArgs {
    /// The event, in registry spelling (pre_tool_use) or the harness's (PreToolUse).
    #[arg(required_unless_present = "serve")]
    event: Option<String>,
    /// The agent this run is for; else TAMA_AGENT_ID.
    agent_id: Option<String>,
    /// The harness that asks (else TAMA_PROVIDER; default claude).
    #[arg(long, value_enum)]
    provider: Option<Provider>,
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
    let provider = match provider(args.provider) {
        Ok(provider) => provider,
        Err(why) => return Provider::Claude.infrastructure(&event_arg, &why),
    };
    let fail = |why: String| provider.infrastructure(&event_arg, &why);
    let agent = match text_var("TAMA_AGENT_ID") {
        Ok(from_env) => args.agent_id.clone().or(from_env).filter(|a| !a.is_empty()),
        Err(why) => return fail(why),
    };
    let Some(agent) = agent else {
        return fail("tama run-hook needs an agent id: pass it after the event or set TAMA_AGENT_ID".into());
    };
    let selection = match Selection::from_env() {
        Ok(selection) => selection,
        Err(why) => return fail(why),
    };
    let registry = match Loaded::select(args.registry.as_deref()) {
        Ok(registry) => registry,
        Err(err) => return fail(err.to_string()),
    };
    let mut payload = String::new();
    if let Err(err) = std::io::stdin().read_to_string(&mut payload) {
        return fail(format!("tama run-hook cannot read the payload on stdin: {err}"));
    }
    let mut event = match Event::decode(&payload, Some(&event_arg)) {
        Ok(event) => event,
        Err(err) => return fail(format!("tama run-hook cannot read the {event_arg} payload: {err}")),
    };
    let mut selection = crate::session::selection_for(&selection, &agent, event.session_id.as_deref());
    event.capability = crate::capability::for_event(&registry.registry, &agent, event.session_id.as_deref())
        .unwrap_or_else(|refused| {
            selection.refused.push(refused);
            None
        });
    event.agent_id = Some(agent);
    let cwd = event.payload.get("cwd").and_then(|c| c.as_str()).map(str::to_string);
    if let Err(err) = crate::command::init_supervision() {
        crate::log::write("run-hook", &format!("cannot adopt orphaned hook processes: {err}"));
    }
    let dispatcher = Dispatcher::new(registry, Arc::new(OkoState::from_env()));
    let run = Arc::new(crate::supervise::Run::arrive(&event));
    let ending = Arc::downgrade(&run);
    crate::supervise::termination::on_termination(move |signal| {
        if let Some(run) = ending.upgrade() {
            run.end_all(&format!("tama run-hook was terminated by {}", signal.as_str()));
        }
    });
    let decision = run.conclude(dispatcher.dispatch_watched(event, &selection, run.as_ref()));
    while run.is_terminated() {
        std::thread::park();
    }
    drop(run);
    if let Err(err) = crate::session::publish(dispatcher.registry(), &decision, cwd.as_deref()) {
        crate::log::write("run-hook", &format!("cannot publish the session record: {err}"));
    }
    provider.encode(&decision)
}

/// `--provider`, else `TAMA_PROVIDER`, else Claude Code.
fn provider(flag: Option<Provider>) -> Result<Provider, String> {
    if let Some(provider) = flag {
        return Ok(provider);
    }
    match text_var("TAMA_PROVIDER")? {
        None => Ok(Provider::Claude),
        Some(name) if name.is_empty() => Ok(Provider::Claude),
        Some(name) => Provider::parse(&name).ok_or_else(|| format!("TAMA_PROVIDER names an unknown harness `{name}`: expected claude or codex")),
    }
}
