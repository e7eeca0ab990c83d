//! The `tama` command. Everything lives in the `tama_engine` library; this is
//! only its entry point.

fn main() -> std::process::ExitCode {
    tama_engine::cli::main()
}
