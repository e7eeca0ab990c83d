//! The `tama` command: the command line, `tama setup`, the serve loop and
//! `tama doctor`, over the core, the harness adapters and the peers.

mod allocator;
mod cli;
mod doctor;
mod serve;

#[global_allocator]
static ALLOCATOR: allocator::Chosen = allocator::Chosen;

fn main() -> std::process::ExitCode {
    cli::main()
}
