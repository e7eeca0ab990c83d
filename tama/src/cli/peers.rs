//! `tama peers …`: what an agent runs from its shell to reach its peers.

use std::path::Path;

use clap::{Args, Subcommand};
use serde_json::json;

use super::exit;
use tama_peers::{self as peers, PeerError, Registration, caller, inbox, sessions, together};

/// Message the other agent sessions on this machine, and work together with one.
#[derive(Args)]
pub struct PeersArgs {
    /// This session's key or id (Codex commands pass it; Claude Code's are found by their process).
    #[arg(long, global = true, value_name = "KEY")]
    session: Option<String>,
    /// The session secret from the session-start brief, for a command that does not run under its agent.
    #[arg(
        long,
        global = true,
        value_name = "SECRET",
        env = "TAMA_PEER_SECRET",
        hide_env_values = true
    )]
    secret: Option<String>,
    #[command(subcommand)]
    command: PeersCommand,
}

#[derive(Subcommand)]
enum PeersCommand {
    /// The live peer sessions.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Send a note: no answer expected.
    Note { peer: String, text: String },
    /// Ask a question; the peer answers with `reply`.
    Ask { peer: String, text: String },
    /// Answer an ask.
    Reply {
        peer: String,
        /// The id of the ask this answers.
        #[arg(long, value_name = "ID")]
        re: Option<String>,
        text: String,
    },
    /// Print and take the unread messages.
    Inbox {
        #[arg(long)]
        json: bool,
    },
    /// Start work-together mode with a peer: each may act on the other's asks without asking its user.
    Together {
        peer: String,
        /// How many asks each side may send.
        #[arg(long, default_value_t = together::DEFAULT_BUDGET)]
        budget: u32,
        /// How long the mode lasts, e.g. 30m or 2h.
        #[arg(long = "for", default_value = "1h", value_parser = humantime::parse_duration)]
        duration: std::time::Duration,
    },
    /// End work-together mode.
    Apart,
    /// Save the report of the last work-together mode, for the user.
    Report { text: String },
    /// This session: who it is, its mode, its unread messages.
    Status,
}

pub fn run(args: PeersArgs) -> u8 {
    let dir = peers::peers_dir();
    match command(&dir, args) {
        Ok(line) => {
            println!("{line}");
            exit::PASS
        }
        Err(err @ PeerError::Refused(_)) if err.to_string().starts_with("budget:") => {
            eprintln!("refused: {err}");
            exit::INFRASTRUCTURE
        }
        Err(err) => {
            eprintln!("tama peers: {err}");
            exit::INFRASTRUCTURE
        }
    }
}

fn command(dir: &Path, args: PeersArgs) -> peers::Result<String> {
    // Every command that acts for a session proves it, then ends its mode if that is over.
    let me = || {
        together::settle(
            dir,
            caller::whoami(dir, args.session.as_deref(), args.secret.as_deref())?,
        )
    };
    Ok(match args.command {
        PeersCommand::List { json } => {
            let me = me().ok();
            let live: Vec<Registration> = sessions::all_live(dir)?
                .into_iter()
                .filter(|r| Some(&r.key) != me.as_ref().map(|m| &m.key))
                .collect();
            if json {
                serde_json::to_string_pretty(&live)?
            } else if live.is_empty() {
                "no other peer session is live".into()
            } else {
                live.iter()
                    .map(Registration::describe)
                    .collect::<Vec<_>>()
                    .join("\n")
            }
        }
        PeersCommand::Note { peer, text } => {
            sent(&peers::send(dir, &me()?, &peer, "note", &text, None)?)
        }
        PeersCommand::Ask { peer, text } => {
            sent(&peers::send(dir, &me()?, &peer, "ask", &text, None)?)
        }
        PeersCommand::Reply { peer, re, text } => sent(&peers::send(
            dir,
            &me()?,
            &peer,
            "reply",
            &text,
            re.as_deref(),
        )?),
        PeersCommand::Inbox { json } => {
            let me = me()?;
            let letters = inbox::take(dir, &me.key)?;
            peers::record_delivery(dir, &me, &letters, "inbox");
            let envelopes: Vec<peers::Envelope> = letters.into_iter().map(|l| l.envelope).collect();
            match (json, envelopes.is_empty()) {
                (true, _) => serde_json::to_string_pretty(&envelopes)?,
                (false, true) => "no unread messages".into(),
                (false, false) => peers::peer_text(&me, &envelopes),
            }
        }
        PeersCommand::Together {
            peer,
            budget,
            duration,
        } => {
            // A mode of the peer's whose time is up does not stand in the way.
            let (me, peer) = (
                me()?,
                together::settle(dir, sessions::find_peer(dir, &peer)?)?,
            );
            together::start(dir, &me.key, &peer.key, budget, duration)?;
            format!(
                "working together with {} for {}: {budget} asks each",
                peer.key,
                humantime::format_duration(duration)
            )
        }
        PeersCommand::Apart => match together::end(dir, &me()?.key, "ended by a peer command")? {
            Some(mode) => format!("work-together mode with {} ended", mode.with),
            None => "not in work-together mode".into(),
        },
        PeersCommand::Report { text } => {
            let path = together::write_report(dir, &me()?.key, &text)?;
            format!("report saved to {}", path.display())
        }
        PeersCommand::Status => {
            let me = me()?;
            let mode = me.together.as_ref().map_or_else(
                || "not in work-together mode".to_string(),
                |t| {
                    format!(
                        "working together with {}: {} of {} asks used",
                        t.with, t.used, t.budget
                    )
                },
            );
            let unread = inbox::unread_count(dir, &me.key);
            json!({"session": me, "mode": mode, "unread": unread}).to_string()
        }
    })
}

fn sent(envelope: &peers::Envelope) -> String {
    format!("sent {} {} to {}", envelope.kind, envelope.id, envelope.to)
}
