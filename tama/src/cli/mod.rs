//! The `tama` command line.

mod doctor;
mod hook;
mod hooks;
mod peer_hook;
mod peers;
mod registry;
mod run_hook;
mod sessions;
mod sessions_reload;
mod setup;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exit codes shared by every subcommand.
pub mod exit {
    /// Passed, or the command did what was asked.
    pub const PASS: u8 = 0;
    /// Tama or a gate failed; the call is refused, never passed.
    pub const INFRASTRUCTURE: u8 = 1;
    /// A policy refused.
    pub const REFUSED: u8 = 2;
    /// The payload is not JSON or lacks what the gate needs.
    pub const BAD_PAYLOAD: u8 = 3;
    /// The command line itself is wrong (unknown gate, bad flags).
    pub const USAGE: u8 = 64;
}

#[derive(Parser)]
#[command(
    name = "tama",
    version,
    about = "The policy engine AI coding agents call on every tool call, prompt and turn end."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Doctor(doctor::DoctorArgs),
    Hook(hook::HookArgs),
    /// Hook commands Tama started that are still running, and their process groups
    #[command(subcommand)]
    Hooks(hooks::HooksCommand),
    PeerHook(peer_hook::PeerHookArgs),
    Peers(peers::PeersArgs),
    RunHook(run_hook::RunHookArgs),
    #[command(subcommand)]
    Registry(registry::RegistryCommand),
    #[command(subcommand)]
    Sessions(sessions::SessionsCommand),
    Setup(setup::SetupArgs),
}

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let _ = err.print();
            return ExitCode::from(if err.use_stderr() {
                exit::USAGE
            } else {
                exit::PASS
            });
        }
    };
    let exit = match cli.command {
        Command::Doctor(args) => doctor::run(args),
        Command::Hook(args) => hook::run(args),
        Command::Hooks(command) => hooks::run(command),
        Command::PeerHook(args) => peer_hook::run(args),
        Command::Peers(args) => peers::run(args),
        Command::RunHook(args) => run_hook::run(args),
        Command::Registry(command) => registry::run(command),
        Command::Sessions(command) => sessions::run(command),
        Command::Setup(args) => setup::run(args),
    };
    tama_core::command::end_adopted_before_exit();
    ExitCode::from(exit)
}
