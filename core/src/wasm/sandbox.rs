//! What a component's instance holds: an empty WASI context and its bounds.
//!
//! The WASI context has no preopened directory, no environment variable, no
//! argument and no socket address it may use; its clocks are frozen at zero
//! and its stdout and stderr are captured for Tama's log, so a component can
//! reach nothing its WIT interface does not hand it. It is made on the
//! component's first WASI call: Tama's own components make none.

use std::time::Duration;

use wasmtime::component::{Linker, Resource, ResourceTable};
use wasmtime_wasi::p2::DynPollable;
use wasmtime_wasi::p2::pipe::MemoryOutputPipe;
use wasmtime_wasi::{HostMonotonicClock, HostWallClock, WasiCtx, WasiCtxView, WasiView};

pub use super::config::{MEMORY_BOUND, STACK_BOUND};

/// Longest one call may run: far beyond what any decision needs.
pub const TIME_BOUND: Duration = Duration::from_millis(500);
/// How often the engine's epoch advances while calls run (see `ticker.rs`),
/// so an idle engine never wakes for it.
pub const EPOCH_TICK: Duration = Duration::from_millis(50);
/// The deadline each call is given, in epoch ticks: its [`TIME_BOUND`], and
/// one more, since its first tick may come at once (the ticker's period
/// began with an earlier call). A call runs at least its bound, and is
/// stopped at most one tick past it.
pub const DEADLINE_TICKS: u64 = (TIME_BOUND.as_millis() / EPOCH_TICK.as_millis()) as u64 + 1;
/// Most bytes of stdout or stderr kept from one call for the log.
const OUTPUT_BOUND: usize = 64 << 10;

/// Store data: the sandbox every component gets, plus `host`, what its own
/// imports need.
pub struct Sandboxed<T> {
    /// Made on the component's first WASI call.
    wasi: Option<Wasi>,
    pub bounds: Bounds,
    pub host: T,
}

/// The WASI context of one instance, and where its output is kept.
struct Wasi {
    ctx: WasiCtx,
    table: ResourceTable,
    stdout: MemoryOutputPipe,
    stderr: MemoryOutputPipe,
}

impl Wasi {
    fn new() -> Self {
        let stdout = MemoryOutputPipe::new(OUTPUT_BOUND);
        let stderr = MemoryOutputPipe::new(OUTPUT_BOUND);
        let ctx = WasiCtx::builder()
            .stdout(stdout.clone())
            .stderr(stderr.clone())
            .wall_clock(FrozenClock)
            .monotonic_clock(FrozenClock)
            .allow_tcp(false)
            .allow_udp(false)
            .allow_ip_name_lookup(false)
            .build();
        Wasi {
            ctx,
            table: ResourceTable::new(),
            stdout,
            stderr,
        }
    }
}

impl<T> Sandboxed<T> {
    pub fn new(host: T) -> Self {
        Sandboxed {
            wasi: None,
            bounds: Bounds::default(),
            host,
        }
    }

    /// Whether the component made a WASI call (and so has a WASI context).
    pub fn made_wasi_calls(&self) -> bool {
        self.wasi.is_some()
    }

    /// What the component wrote to stdout and stderr, when it made a WASI call.
    pub fn output(&self) -> Option<(String, String)> {
        let text = |pipe: &MemoryOutputPipe| String::from_utf8_lossy(&pipe.contents()).into_owned();
        let wasi = self.wasi.as_ref()?;
        Some((text(&wasi.stdout), text(&wasi.stderr)))
    }
}

impl<T: Send> WasiView for Sandboxed<T> {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        let wasi = self.wasi.get_or_insert_with(Wasi::new);
        WasiCtxView {
            ctx: &mut wasi.ctx,
            table: &mut wasi.table,
        }
    }
}

/// The memory bound of one evaluation, over all of its memories together,
/// remembering whether it was hit so the error can say so.
#[derive(Default)]
pub struct Bounds {
    pub memory_hit: bool,
    /// Bytes of every linear memory of the instance, together.
    memory_total: usize,
}

impl Bounds {
    /// Bytes of every linear memory of the instance, together.
    pub fn memory_total(&self) -> usize {
        self.memory_total
    }
}

impl wasmtime::ResourceLimiter for Bounds {
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        _max: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let total = self
            .memory_total
            .saturating_sub(current)
            .saturating_add(desired);
        if total > MEMORY_BOUND {
            self.memory_hit = true;
            return Err(wasmtime::format_err!(
                "memory bound of {} MiB hit",
                MEMORY_BOUND >> 20
            ));
        }
        self.memory_total = total;
        Ok(true)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _max: Option<usize>,
    ) -> wasmtime::Result<bool> {
        Ok(desired <= 100_000)
    }
}

/// The interface whose waits [`deny_clock_waits`] refuses, as WASI names it.
const MONOTONIC_CLOCK: &str = "wasi:clocks/monotonic-clock@0.2.12";

/// A component's clocks read zero, so no wait on them can mean real time,
/// and a wait is a host call, where the epoch deadline cannot stop the
/// guest: a gate that slept would hold its call past the time bound. Both
/// of the clock's subscriptions trap instead, naming why.
pub fn deny_clock_waits<T: 'static>(linker: &mut Linker<T>) -> wasmtime::Result<()> {
    let refuse = |what: &str| {
        wasmtime::format_err!(
            "the component waited on a clock ({what}); Tama's clocks read zero and a gate may not wait"
        )
    };
    linker.allow_shadowing(true);
    let mut clock = linker.instance(MONOTONIC_CLOCK)?;
    clock.func_wrap(
        "subscribe-duration",
        move |_, (_,): (u64,)| -> wasmtime::Result<(Resource<DynPollable>,)> {
            Err(refuse("subscribe-duration"))
        },
    )?;
    clock.func_wrap(
        "subscribe-instant",
        move |_, (_,): (u64,)| -> wasmtime::Result<(Resource<DynPollable>,)> {
            Err(refuse("subscribe-instant"))
        },
    )?;
    linker.allow_shadowing(false);
    Ok(())
}

/// A clock that always reads zero: a gate decides from its input alone.
struct FrozenClock;

impl HostWallClock for FrozenClock {
    fn resolution(&self) -> Duration {
        Duration::from_secs(1)
    }
    fn now(&self) -> Duration {
        Duration::ZERO
    }
}

impl HostMonotonicClock for FrozenClock {
    fn resolution(&self) -> u64 {
        1_000_000_000
    }
    fn now(&self) -> u64 {
        0
    }
}
