//! The one wasmtime configuration of every Tama process, and of Tama's build,
//! which precompiles the built-in gates under it: an artifact compiled under
//! one configuration is valid only under the same one.
//!
//! This file is also compiled into `core/build.rs`, so it names nothing of
//! the engine's but wasmtime.

#![allow(dead_code, reason = "core/build.rs uses only the configuration")]

use wasmtime::{Config, Enabled, InstanceAllocationStrategy, PoolingAllocationConfig};

/// Most bytes of linear memory one instance may hold.
pub const MEMORY_BOUND: usize = 64 << 20;
/// Most bytes of the WebAssembly stack one call may use.
pub const STACK_BOUND: usize = 1 << 20;
/// Gate calls, and separately tool declaration calls, running at once; more wait.
pub const CONCURRENT_CALLS: usize = 32;
/// Component instances alive at once, at most: every concurrent call of
/// both kinds, idle declaration and built-in gate instances (`idle.rs`),
/// loads validating a config, and the spent stores kept until an answer is
/// written (`spent.rs`).
const POOL_INSTANCES: u32 = 5 * CONCURRENT_CALLS as u32;
/// Bytes at the start of each linear memory kept mapped between instances.
const KEEP_RESIDENT: usize = 1 << 20;
/// Bytes of each table kept mapped between instances: a component's
/// function tables are far smaller, so they are cleared in place rather
/// than handed back to the kernel and faulted in again on every call.
const TABLE_KEEP_RESIDENT: usize = 64 << 10;

/// How a process allocates instances. Compiled code does not depend on it
/// (wasmtime's compatibility checks compare compiler settings, tunables and
/// features, never the allocator), so the build's compilation serves both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Instances {
    /// A process that decides one event: each instance mapped when it is
    /// made, nothing set up ahead for calls that will never come.
    OneEvent,
    /// A serving engine: a pool sized for every call running at once, whose
    /// slots are reused warm from one call to the next.
    Serving,
}

/// Epoch deadlines bound execution time; the resource limiter of each store
/// bounds memory and tables under either allocator, and the pool of a
/// serving engine gives each call a fresh instance quickly.
///
/// Epochs rather than fuel: fuel counts every basic block a gate runs, which
/// cost the shell gate a fifth of its time; an epoch check is one compare at
/// function entries and loop heads.
pub fn engine_config(instances: Instances) -> Config {
    let mut config = Config::new();
    config.wasm_component_model(true);
    config.epoch_interruption(true);
    config.max_wasm_stack(STACK_BOUND);
    // A component's data is copied into its memory when it is instantiated,
    // not mapped from a copy-on-write image: an image costs an in-memory
    // file written with the data, sealed and mapped, more than the copy it
    // saves in a process that instantiates each component once, and a
    // serving engine keeps its built-in instances between calls (`idle.rs`);
    // only a plugin's fresh instance there pays the copy (half a
    // microsecond for the gate template's 33 KiB).
    // The setting is part of the compiled code, so both share it.
    config.memory_init_cow(false);
    if instances == Instances::OneEvent {
        config.allocation_strategy(InstanceAllocationStrategy::OnDemand);
        return config;
    }
    let mut pool = PoolingAllocationConfig::default();
    // Enough for every dispatch a serving engine runs at once (two instances
    // each: the gate and the tool declaration).
    pool.total_component_instances(POOL_INSTANCES)
        .total_core_instances(2 * POOL_INSTANCES)
        .total_memories(POOL_INSTANCES)
        .total_tables(2 * POOL_INSTANCES)
        .total_stacks(1)
        // A returned slot's first pages are reset in place instead of handed
        // back to the kernel, so the next instance does not fault them in
        // again; where Linux offers PAGEMAP_SCAN, only the pages the call
        // wrote are reset, rather than all of them.
        .linear_memory_keep_resident(KEEP_RESIDENT)
        .pagemap_scan(Enabled::Auto)
        .table_keep_resident(TABLE_KEEP_RESIDENT)
        .max_memory_size(MEMORY_BOUND)
        .max_memories_per_component(4)
        .max_component_instance_size(1 << 20)
        .max_core_instance_size(1 << 20);
    config.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
    config
}
