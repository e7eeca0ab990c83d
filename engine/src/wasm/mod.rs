//! The wasm gate host: WebAssembly components on wasmtime's component model,
//! compiled once and cached on disk, each call in a fresh, bounded instance
//! with an empty WASI context.

mod bindings;
mod cache;
mod declaration;
mod gate;
mod host_paths;
mod sandbox;
mod slots;
mod state;

use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::Arc;

use sha2::{Digest, Sha256};
use wasmtime::component::{Component, HasSelf, Linker};
use wasmtime::{Config, Enabled, Engine, InstanceAllocationStrategy, PoolingAllocationConfig, Trap};

pub use cache::artifact_path;
pub use declaration::{ClassifyError, Declaration};
pub use gate::{Gate, GateEvent, GateFault, Verdict};
pub use host_paths::HostPaths;
pub use sandbox::{MEMORY_BOUND, STACK_BOUND, TIME_BOUND};
pub use state::{NoState, StateSource};

use sandbox::Sandboxed;

/// A component's bytes and the sha256 they were checked against.
#[derive(Clone)]
pub struct ComponentBytes {
    pub bytes: Cow<'static, [u8]>,
    pub sha256: String,
}

impl ComponentBytes {
    /// Bytes read from a file, which must digest to `declared` (lower-case hex sha256).
    pub fn checked(bytes: Vec<u8>, declared: &str) -> Result<Self, String> {
        let actual = hex::encode(Sha256::digest(&bytes));
        if !actual.eq_ignore_ascii_case(declared) {
            return Err(format!("component digest mismatch: expected {declared}, actual {actual}"));
        }
        Ok(ComponentBytes { bytes: Cow::Owned(bytes), sha256: actual })
    }

    /// Bytes built into the `tama` binary, whose digest the build computed.
    pub fn embedded(bytes: &'static [u8], sha256: &str) -> Self {
        ComponentBytes { bytes: Cow::Borrowed(bytes), sha256: sha256.to_string() }
    }
}

/// The engine, its linkers and the tool declaration: one per process.
pub struct Host {
    engine: Engine,
    cache_dir: PathBuf,
    gate_linker: Linker<Sandboxed<gate::GateContext>>,
    declaration_linker: Linker<Sandboxed<()>>,
    declaration: Option<Arc<Declaration>>,
    gate_slots: Arc<slots::Slots>,
    paths: Arc<HostPaths>,
}

impl Host {
    /// A host whose compiled components are cached in `cache_dir`, with the
    /// tool declaration component `declaration`.
    pub fn new(cache_dir: PathBuf, declaration: &ComponentBytes) -> wasmtime::Result<Host> {
        let engine = Engine::new(&engine_config())?;
        start_epoch_ticker(&engine)?;
        let mut gate_linker = Linker::new(&engine);
        wasmtime_wasi::p2::add_to_linker_sync(&mut gate_linker)?;
        bindings::gate::Gate::add_to_linker::<_, HasSelf<_>>(&mut gate_linker, |s| s)?;
        let mut declaration_linker = Linker::new(&engine);
        wasmtime_wasi::p2::add_to_linker_sync(&mut declaration_linker)?;
        let gate_slots = Arc::new(slots::Slots::new(CONCURRENT_CALLS));
        let paths = Arc::new(HostPaths::from_env(&cache_dir));
        let mut host = Host { engine, cache_dir, gate_linker, declaration_linker, declaration: None, gate_slots, paths };
        let component = host.component(declaration)?;
        host.declaration = Some(Arc::new(Declaration::new(&host, &component, CONCURRENT_CALLS)?));
        Ok(host)
    }

    /// The compiled component, from the on-disk cache when it is there.
    pub fn component(&self, source: &ComponentBytes) -> wasmtime::Result<Component> {
        cache::load(&self.engine, &self.cache_dir, &source.sha256, &source.bytes)
    }

    /// The tool declaration's reading of one tool call.
    pub fn classify(&self, tool_name: &str, tool_input: &str) -> Result<crate::tool::ToolCall, ClassifyError> {
        self.declaration().classify(tool_name, tool_input)
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    fn declaration(&self) -> &Arc<Declaration> {
        self.declaration.as_ref().expect("the declaration is loaded in Host::new")
    }

    fn declaration_linker(&self) -> &Linker<Sandboxed<()>> {
        &self.declaration_linker
    }
}

/// Bytes at the start of each linear memory kept mapped between instances.
const KEEP_RESIDENT: usize = 1 << 20;
/// Bytes of each table kept mapped between instances: a component's
/// function tables are far smaller, so they are cleared in place rather
/// than handed back to the kernel and faulted in again on every call.
const TABLE_KEEP_RESIDENT: usize = 64 << 10;

/// Gate calls, and separately tool declaration calls, running at once; more wait.
const CONCURRENT_CALLS: usize = 32;
/// Component instances alive at once, at most: every concurrent call of
/// both kinds, idle declaration instances, and loads validating a config.
const POOL_INSTANCES: u32 = 3 * CONCURRENT_CALLS as u32;

/// One configuration for every process, so artifacts compiled by one are
/// valid in all: epoch deadlines bound execution time, the pooling allocator
/// gives each call a fresh instance quickly and bounds its memory.
///
/// Epochs rather than fuel: fuel counts every basic block a gate runs, which
/// cost the shell gate a fifth of its time; an epoch check is one compare at
/// function entries and loop heads.
fn engine_config() -> Config {
    let mut config = Config::new();
    config.wasm_component_model(true);
    config.epoch_interruption(true);
    config.max_wasm_stack(STACK_BOUND);
    let mut pool = PoolingAllocationConfig::default();
    // Enough for every dispatch a serving engine runs at once (two instances
    // each: the gate and the tool declaration), small enough that setting
    // the pool up costs a one-shot process next to nothing.
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

/// Advances `engine`'s epoch every [`sandbox::EPOCH_TICK`] for as long as the
/// engine lives, so that calls past their deadline are stopped.
fn start_epoch_ticker(engine: &Engine) -> std::io::Result<()> {
    let engine = engine.weak();
    std::thread::Builder::new().name("tama-epoch".into()).spawn(move || {
        while let Some(engine) = engine.upgrade() {
            engine.increment_epoch();
            drop(engine);
            std::thread::sleep(sandbox::EPOCH_TICK);
        }
    })?;
    Ok(())
}

/// Names what stopped a call: a bound, a trap, or another failure.
fn fault<T>(err: wasmtime::Error, data: &Sandboxed<T>) -> GateFault {
    if data.bounds.memory_hit {
        return GateFault::MemoryBound;
    }
    match err.downcast_ref::<Trap>() {
        Some(Trap::Interrupt) => GateFault::TimeBound,
        Some(Trap::StackOverflow) => GateFault::StackBound,
        Some(trap) => GateFault::Trap(trap.to_string()),
        None => GateFault::Failed(format!("{err:#}")),
    }
}
