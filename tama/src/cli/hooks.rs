//! `tama hooks running`: every hook a serving engine or a one-event run runs
//! now, and the hooks processes that are gone left running, from their
//! records on disk.

use clap::{Args, Subcommand};
use serde_json::json;

use super::exit;
use tama_core::supervise::records;

#[derive(Subcommand)]
pub enum HooksCommand {
    /// List the hooks still running.
    Running(RunningArgs),
}

#[derive(Args)]
pub struct RunningArgs {
    /// Print JSON for tools.
    #[arg(long)]
    json: bool,
}

pub fn run(command: HooksCommand) -> u8 {
    let HooksCommand::Running(args) = command;
    let (live, gone, mut unread) = records::others();
    let (abandoned, abandoned_unread) = records::abandoned();
    unread.extend(abandoned_unread);
    if args.json {
        println!(
            "{}",
            json!({"running": live, "leftByGoneProcesses": gone, "abandoned": abandoned, "recordsUnread": unread})
        );
    } else {
        if live.is_empty() && gone.is_empty() {
            println!("no hook is running");
        }
        for (hooks, whose) in [
            (&live, "running"),
            (&gone, "left running by a process that is gone"),
        ] {
            for hook in hooks {
                println!(
                    "{} ({}, session {}, process group {}, tama process {}): {whose}",
                    hook["hook"].as_str().unwrap_or("?"),
                    hook["event"].as_str().unwrap_or("?"),
                    hook["session"].as_str().unwrap_or("none"),
                    hook["processGroup"],
                    hook["corePid"],
                );
            }
        }
        for record in &abandoned {
            println!(
                "abandoned in session {}: {}",
                record["session"].as_str().unwrap_or("?"),
                record["text"].as_str().unwrap_or("?")
            );
        }
        for record in &unread {
            eprintln!(
                "tama: cannot read {}: {}",
                record["record"].as_str().unwrap_or("?"),
                record["reason"].as_str().unwrap_or("?")
            );
        }
    }
    if unread.is_empty() {
        exit::PASS
    } else {
        exit::INFRASTRUCTURE
    }
}
