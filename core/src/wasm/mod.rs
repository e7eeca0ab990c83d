//! The wasm gate host: WebAssembly components on wasmtime's component model,
//! built-in ones compiled into the binary, others compiled once and cached
//! on disk; each call in a fresh, bounded instance with an empty WASI context.

mod bindings;
mod cache;
mod code_memory;
mod compiler;
mod config;
mod declaration;
mod files;
mod gate;
mod host_paths;
mod idle;
mod linkers;
mod sandbox;
mod slots;
mod spent;
mod state;
mod ticker;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use wasmtime::component::{Component, HasSelf, Linker};
use wasmtime::{Engine, Trap};

pub use config::{Instances, MEMORY_BOUND, STACK_BOUND};
pub use declaration::{ClassifyError, Declaration};
pub use gate::{Gate, GateEvent, GateFault, Verdict};
pub use host_paths::HostPaths;
pub use sandbox::TIME_BOUND;
pub use spent::drop_spent;
pub use state::{NoState, StateSource};

use sandbox::Sandboxed;

pub use crate::registry::ComponentBytes;

/// The engine, its linkers and the tool declaration: one per process.
pub struct Host {
    engine: Engine,
    compiler: compiler::Compiler,
    cache_dir: PathBuf,
    gate_linkers: linkers::Linkers<Sandboxed<gate::GateContext>>,
    declaration_linkers: linkers::Linkers<Sandboxed<()>>,
    declaration: Option<Arc<Declaration>>,
    gate_slots: Arc<slots::Slots>,
    paths: Arc<HostPaths>,
    ticker: Arc<ticker::Ticker>,
}

impl Host {
    /// A host for a serving engine whose compiled registry components are
    /// cached in `cache_dir`, with the tool declaration component `declaration`.
    pub fn new(cache_dir: PathBuf, declaration: &ComponentBytes) -> wasmtime::Result<Host> {
        Host::for_instances(cache_dir, declaration, Instances::Serving)
    }

    /// [`Host::new`] for a process that decides one event.
    pub fn one_event(cache_dir: PathBuf, declaration: &ComponentBytes) -> wasmtime::Result<Host> {
        Host::for_instances(cache_dir, declaration, Instances::OneEvent)
    }

    pub fn for_instances(
        cache_dir: PathBuf,
        declaration: &ComponentBytes,
        instances: Instances,
    ) -> wasmtime::Result<Host> {
        let mut config = config::engine_config(instances);
        code_memory::install(&mut config);
        let compiles = instances == Instances::Serving;
        let engine = Engine::new(config.clone().enable_compiler(compiles))?;
        let compiler = compiler::Compiler::new(&engine, config, compiles);
        let ticker = ticker::Ticker::start(&engine)?;
        let mut gate_linker = Linker::new(&engine);
        bindings::gate::Gate::add_to_linker::<_, HasSelf<_>>(&mut gate_linker, |s| s)?;
        let gate_linkers = linkers::Linkers::new(gate_linker);
        let declaration_linkers = linkers::Linkers::new(Linker::new(&engine));
        let gate_slots = Arc::new(slots::Slots::new(config::CONCURRENT_CALLS));
        let paths = Arc::new(HostPaths::from_env(&cache_dir));
        let mut host = Host {
            engine,
            compiler,
            cache_dir,
            gate_linkers,
            declaration_linkers,
            declaration: None,
            gate_slots,
            paths,
            ticker,
        };
        let component = host.component(declaration)?;
        host.declaration = Some(Arc::new(Declaration::new(
            &host,
            &component,
            config::CONCURRENT_CALLS,
        )?));
        Ok(host)
    }

    /// The compiled component: a built-in one from the binary, another from
    /// the on-disk cache when an authentic artifact is there.
    pub fn component(&self, source: &ComponentBytes) -> wasmtime::Result<Component> {
        cache::load(
            &self.engine,
            &self.compiler,
            &self.cache_dir,
            &source.sha256,
            &source.bytes,
        )
    }

    /// Where the compiled form of the component with digest `sha256` is
    /// cached in `cache_dir`, for this host and every other of this build.
    pub fn artifact_path(&self, cache_dir: &Path, sha256: &str) -> wasmtime::Result<PathBuf> {
        Ok(cache::artifact_path(
            cache_dir,
            self.compiler.engine()?,
            sha256,
        ))
    }

    /// The tool declaration's reading of one tool call.
    pub fn classify(
        &self,
        tool_name: &str,
        tool_input: &str,
    ) -> Result<crate::tool::ToolCall, ClassifyError> {
        self.declaration().classify(tool_name, tool_input)
    }

    fn declaration(&self) -> &Arc<Declaration> {
        self.declaration
            .as_ref()
            .expect("the declaration is loaded in Host::new")
    }

    /// The linker for `component`, which it is instantiated through.
    fn gate_linker(
        &self,
        component: &Component,
    ) -> wasmtime::Result<&Linker<Sandboxed<gate::GateContext>>> {
        self.gate_linkers.for_component(&self.engine, component)
    }

    fn declaration_linker(
        &self,
        component: &Component,
    ) -> wasmtime::Result<&Linker<Sandboxed<()>>> {
        self.declaration_linkers
            .for_component(&self.engine, component)
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        self.ticker.close();
    }
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
