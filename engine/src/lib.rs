//! Tama: the policy engine AI coding agents call on every tool call, prompt
//! and turn end. Built-in gates are WebAssembly components run in-process
//! (see [`wasm`]); the hook registry ([`registry`]) says which run for which
//! event.

pub mod capability;
pub mod cli;
pub mod clock;
pub mod command;
pub mod control_key;
pub mod dispatch;
pub mod doctor;
pub mod event;
pub mod files;
pub mod harness;
pub mod log;
pub mod oko;
pub mod paths;
pub mod peers;
pub mod registry;
pub mod serve;
pub mod session;
pub mod setup;
pub mod supervise;
pub mod tool;
pub mod wasm;

/// Every refusal that is Tama's own fault starts with this, so it is never
/// mistaken for a policy decision, let alone a pass.
pub const INFRASTRUCTURE: &str = "TAMA_HOOK_INFRASTRUCTURE";
