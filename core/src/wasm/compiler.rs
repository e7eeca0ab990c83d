//! The compiler behind a process's engine. A process that decides one event
//! usually loads only built-in components, whose compiled form `tama`
//! carries, so its engine is made without one: setting Cranelift up was
//! about 2.5% of such a run. The first component it must compile (a
//! registry's own, or a built-in whose compiled form does not fit this CPU)
//! has a compiling engine made under the same configuration.

use std::sync::OnceLock;

use wasmtime::{Config, Engine};

/// Compiles components into artifacts the engine it was made for loads.
pub struct Compiler {
    config: Config,
    engine: OnceLock<Engine>,
}

impl Compiler {
    /// The compiler of `engine`, made from `config`: `engine` itself when
    /// it compiles, else an engine made from `config` when first asked.
    pub fn new(engine: &Engine, config: Config, compiles: bool) -> Compiler {
        let made = OnceLock::new();
        if compiles {
            let _ = made.set(engine.clone());
        }
        Compiler {
            config,
            engine: made,
        }
    }

    /// The engine that compiles; its compatibility hash names cached artifacts.
    pub fn engine(&self) -> wasmtime::Result<&Engine> {
        if let Some(engine) = self.engine.get() {
            return Ok(engine);
        }
        let engine = Engine::new(&self.config)?;
        Ok(self.engine.get_or_init(|| engine))
    }

    /// The artifact of the component whose bytes are `bytes`.
    pub fn compile(&self, bytes: &[u8]) -> wasmtime::Result<Vec<u8>> {
        self.engine()?.precompile_component(bytes)
    }
}
