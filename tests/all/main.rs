//! The engine's integration tests, one binary for all of them: each module
//! is one topic, run against the built `tama` and real wasm components.
//! Helpers the topics share live in `support`.

mod support;

mod capability;
mod command_resolve;
mod command_run;
mod command_verdict;
mod declaration;
mod gate_template;
mod git_hook_bypass;
mod hook;
mod hook_guard;
mod hostile;
mod one_event_supervision;
mod peer_guard;
mod peer_hooks;
mod peer_sessions;
mod peer_setup;
mod peer_trust;
mod protect_tama;
mod registry_schema;
mod run_hook;
mod scripts_on_disk;
mod serve;
mod setup;
mod setup_cli;
mod supervision;
mod supervisor_stop;
mod trust;
