//! Tama's core: what decides one event, whatever harness asks. Built-in gates are WebAssembly components run in-process
//! (see [`wasm`]); the hook registry ([`registry`]) says which run for which
//! event.

pub mod capability;
pub mod clock;
pub mod command;
pub mod control_key;
pub mod dispatch;
pub mod event;
pub mod files;
pub mod log;
pub mod oko;
pub mod paths;
pub mod registry;
pub mod session;
pub mod supervise;
pub mod tool;
pub mod wasm;

/// Every refusal that is Tama's own fault starts with this, so it is never
/// mistaken for a policy decision, let alone a pass.
pub const INFRASTRUCTURE: &str = "TAMA_HOOK_INFRASTRUCTURE";

/// Where this build put the wasm components it built from the workspace: the
/// built-in gates and the gate template, for tests and benchmarks.
pub const BUILT_COMPONENTS_DIR: &str = env!("TAMA_WASM_DIR");
