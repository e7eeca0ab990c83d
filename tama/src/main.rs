//! The `tama` command: the command line, `tama setup`, the serve loop and
//! `tama doctor`, over the core, the harness adapters and the peers.

mod cli;
mod doctor;
mod serve;

fn main() -> std::process::ExitCode {
    cli::main()
}
