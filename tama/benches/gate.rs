//! `cargo bench -p tama --bench gate`: what a harness waits for, each
//! figure against baselines measured in the same run. Medians and p99 are
//! printed; nothing here asserts a time.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tama_core::event::Event;
use tama_core::registry::{Loaded, tool_declaration};
use tama_core::wasm::{Gate, GateEvent, Host, NoState};

#[path = "../../tests/all/support/wake_ups.rs"]
mod wake_ups;

/// A named thing to time, for [`Sample::measure_in_turns`].
type Run<'a> = (&'a str, Box<dyn FnMut() + 'a>);

struct Sample {
    name: String,
    times: Vec<Duration>,
}

impl Sample {
    fn measure(name: &str, runs: usize, mut once: impl FnMut()) -> Sample {
        Sample::measure_prepared(name, runs, || (), |()| once())
    }

    /// Times `once` on what `prepare` made for it, leaving `prepare` out.
    fn measure_prepared<T>(
        name: &str,
        runs: usize,
        mut prepare: impl FnMut() -> T,
        mut once: impl FnMut(T),
    ) -> Sample {
        for _ in 0..runs.div_ceil(10) {
            once(prepare());
        }
        let times = (0..runs)
            .map(|_| {
                let input = prepare();
                let start = Instant::now();
                once(input);
                start.elapsed()
            })
            .collect::<Vec<_>>();
        Sample {
            name: name.to_string(),
            times,
        }
    }

    /// Times each of `runs` in turn, `block` calls back to back per turn,
    /// `rounds` times, so that all see the same load: a machine whose speed
    /// drifts moves them together, and their ratios hold.
    fn measure_in_turns(rounds: usize, block: usize, runs: &mut [Run<'_>]) -> Vec<Sample> {
        Sample::measure_in_turns_apart(rounds, block, Duration::ZERO, runs)
    }

    /// [`Sample::measure_in_turns`] with `pause` before each call, off the clock.
    fn measure_in_turns_apart(
        rounds: usize,
        block: usize,
        pause: Duration,
        runs: &mut [Run<'_>],
    ) -> Vec<Sample> {
        // The first rounds warm the caches and are not counted.
        let warm_up = rounds.div_ceil(10);
        let mut times = vec![Vec::with_capacity(rounds * block); runs.len()];
        for round in 0..warm_up + rounds {
            for ((_, once), times) in runs.iter_mut().zip(&mut times) {
                for _ in 0..block {
                    if !pause.is_zero() {
                        std::thread::sleep(pause);
                    }
                    let start = Instant::now();
                    once();
                    if round >= warm_up {
                        times.push(start.elapsed());
                    }
                }
            }
        }
        runs.iter()
            .zip(times)
            .map(|((name, _), times)| Sample {
                name: name.to_string(),
                times,
            })
            .collect()
    }

    fn quantile(&self, q: f64) -> Duration {
        let mut sorted = self.times.clone();
        sorted.sort();
        sorted[((sorted.len() - 1) as f64 * q).round() as usize]
    }

    fn report(&self, floor: Option<&Sample>) {
        let (median, p99) = (self.quantile(0.5), self.quantile(0.99));
        let ratio = floor.map(|f| {
            format!(
                "{:>7.2}x floor",
                median.as_secs_f64() / f.quantile(0.5).as_secs_f64()
            )
        });
        println!(
            "{:<44} median {:>10.1?}  p99 {:>10.1?}  {}",
            self.name,
            median,
            p99,
            ratio.unwrap_or_default()
        );
    }
}

/// A Claude Code `PreToolUse` payload, with everything Claude Code sends
/// (so a run records its session, as every real one does), whose shell
/// command of about `size` bytes ends in a `git commit --no-verify`.
fn payload(size: usize) -> String {
    let mut command = String::from("cd /work/repo && git add -A");
    while command.len() + 40 < size {
        command.push_str(" && echo 'building step' && make -j2 test");
    }
    command.push_str(" && git commit --no-verify -m x");
    serde_json::json!({
        "session_id": "3b5ed1ce-edc8-4d14-b62e-32bb4b70db6a",
        "transcript_path": "/home/user/.claude/projects/-work-repo/3b5ed1ce-edc8-4d14-b62e-32bb4b70db6a.jsonl",
        "cwd": "/work/repo",
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "Build, test and commit"},
        "tool_use_id": "toolu_6f8cfda763fc44a7a865608a",
    })
    .to_string()
}

/// Starts `program` with `stdin` written to it and its output dropped.
fn start(program: &Path, args: &[&str], stdin: &str, env: &[(&str, &Path)]) -> std::process::Child {
    let mut child = Command::new(program)
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("starting {}: {e}", program.display()));
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child
}

fn spawn(program: &Path, args: &[&str], stdin: &str, env: &[(&str, &Path)]) {
    start(program, args, stdin, env).wait().unwrap();
}

/// The default registry installed as a file, as `tama setup` users have it:
/// every dispatch then re-checks it, which the embedded default skips.
fn installed_registry(dir: &Path) -> PathBuf {
    let mut registry: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("core/default-registry.json")).unwrap(),
    )
    .unwrap();
    for event in registry["events"].as_object_mut().unwrap().values_mut() {
        for hook in event["hooks"].as_array_mut().unwrap() {
            let Some(name) = hook["component"].as_str().map(str::to_string) else {
                continue;
            };
            let bytes = std::fs::read(
                Path::new(tama_core::BUILT_COMPONENTS_DIR).join(name.replace('-', "_")),
            )
            .unwrap();
            hook["sha256"] = tama_core::registry::checksum::sha256_hex(&bytes).into();
            std::fs::write(dir.join(&name), bytes).unwrap();
        }
    }
    let path = dir.join("registry.json");
    std::fs::write(&path, registry.to_string()).unwrap();
    let sealed = Command::new(env!("CARGO_BIN_EXE_tama"))
        .args(["registry", "seal", path.to_str().unwrap()])
        .status()
        .unwrap();
    assert!(sealed.success(), "the installed registry seals");
    // Older than the engine's settling time, as an installed registry is.
    std::thread::sleep(Duration::from_secs(3));
    path
}

/// Where the client and the engine run. A round trip on one core hands
/// the CPU from one to the other; across two, each message wakes the other
/// core, which on a virtual machine whose idle core is halted costs tens of
/// microseconds. Left to the scheduler, a run gets either.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Placement {
    Scheduler,
    OneCore,
    TwoCores,
}

impl Placement {
    /// The CPUs of the client and of the engine, when pinned.
    fn cpus(self) -> Option<(usize, usize)> {
        match self {
            Placement::Scheduler => None,
            Placement::OneCore => Some((0, 0)),
            Placement::TwoCores => Some((0, 1)),
        }
    }

    fn label(self) -> &'static str {
        match self {
            Placement::Scheduler => "placed by the scheduler",
            Placement::OneCore => "client and engine pinned to one core",
            Placement::TwoCores => "client and engine pinned to two cores",
        }
    }
}

/// Pins the calling thread (and what it then starts) to `cpu`, or frees it
/// to run on every CPU.
fn pin(cpu: Option<usize>) {
    use nix::sched::{CpuSet, sched_setaffinity};
    let mut set = CpuSet::new();
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    for c in cpu.map_or(0..cpus, |c| c..c + 1) {
        set.set(c).expect("a CPU of this machine");
    }
    sched_setaffinity(nix::unistd::Pid::from_raw(0), &set).expect("affinity set");
}

/// Turns, and round trips of each kind per turn, of a serving engine's timing.
const SERVE_ROUNDS: usize = 10;
const SERVE_BLOCK: usize = 300;

/// The payload of the serving engine's benchmark call.
fn served_payload() -> serde_json::Value {
    serde_json::json!({"session_id": "bench", "tool_name": "bash", "tool_input": {"command": "git commit --no-verify -m x"}})
}

/// A `dispatch` of the benchmark's shell call, as a request frame.
fn dispatch_frame(id: usize) -> String {
    let payload = served_payload();
    format!(
        "{}\n",
        serde_json::json!({"id": id, "op": "dispatch", "event": "pre_tool_use", "payload": payload})
    )
}

/// A `reload`, the protocol's floor, as a request frame.
fn reload_frame(id: usize) -> String {
    format!(
        "{}\n",
        serde_json::json!({"id": 10_000 + id, "op": "reload"})
    )
}

/// A serving engine over pipes that has said it is ready.
struct Served {
    child: std::process::Child,
    input: std::process::ChildStdin,
    output: std::io::BufReader<std::process::ChildStdout>,
    line: String,
}

impl Served {
    /// Starts `program` serving `registry` (the one built into it when
    /// none), with `cache` as its home; it inherits the calling thread's
    /// affinity.
    fn start(program: &Path, registry: Option<&Path>, cache: &Path) -> Served {
        use std::io::BufRead;
        let mut child = Command::new(program)
            .args(["run-hook", "--serve", "omp"])
            .args(
                registry
                    .map(|registry| ["--registry".as_ref(), registry.as_os_str()])
                    .into_iter()
                    .flatten(),
            )
            .env("TAMA_CACHE_DIR", cache)
            .env("TAMA_HOME", cache)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine starts");
        let input = child.stdin.take().unwrap();
        let mut output = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        output.read_line(&mut line).unwrap();
        Served {
            child,
            input,
            output,
            line,
        }
    }

    /// Sends one request frame and reads its answer.
    fn round_trip(&mut self, frame: &str) {
        use std::io::BufRead;
        self.input.write_all(frame.as_bytes()).unwrap();
        self.line.clear();
        self.output.read_line(&mut self.line).unwrap();
    }

    fn close(mut self) {
        drop(self.input);
        let _ = self.child.wait();
    }
}

/// Round trips of `frames`, taken in a cycle, to `engine`.
fn timed<'a>(
    engine: &'a std::cell::RefCell<Served>,
    frames: &'a [String],
) -> Box<dyn FnMut() + 'a> {
    let mut frames = frames.iter().cycle();
    Box::new(move || {
        let frame = frames.next().expect("a cycle never ends");
        engine.borrow_mut().round_trip(frame);
    })
}

/// The serving engines of `before` and of this build, started side by
/// side as `placement` pins them, each with a home of its own and the
/// default registry built into it (an installed registry's components are
/// this build's, which another build would run as plugins), and timed in
/// turns, so that a machine whose speed drifts moves both alike: `dispatch`
/// and `reload` round trips of each, and this build's `dispatch` as a
/// multiple of the other's.
fn serve_side_by_side(before: &Path, this_build: &Path, placement: Placement) {
    println!(
        "\nserving engines side by side, before and this build, each its built-in default registry, one client over pipes, timed in turns, {}",
        placement.label()
    );
    let cpus = placement.cpus();
    pin(cpus.map(|(_, engine)| engine));
    let homes = [(); 2].map(|()| tempfile::tempdir().expect("scratch home"));
    let start = |program, home: &tempfile::TempDir| {
        std::cell::RefCell::new(Served::start(program, None, home.path()))
    };
    let (before, this_build) = (start(before, &homes[0]), start(this_build, &homes[1]));
    pin(cpus.map(|(client, _)| client));
    let dispatches: Vec<String> = (0..SERVE_BLOCK).map(dispatch_frame).collect();
    let reloads: Vec<String> = (0..SERVE_BLOCK).map(reload_frame).collect();
    let mut runs: [Run<'_>; 4] = [
        ("before: dispatch round trip", timed(&before, &dispatches)),
        ("before: reload round trip", timed(&before, &reloads)),
        (
            "this build: dispatch round trip",
            timed(&this_build, &dispatches),
        ),
        (
            "this build: reload round trip",
            timed(&this_build, &reloads),
        ),
    ];
    let samples = Sample::measure_in_turns(SERVE_ROUNDS, SERVE_BLOCK, &mut runs);
    drop(runs);
    samples.iter().for_each(|sample| sample.report(None));
    let median = |index: usize| samples[index].quantile(0.5).as_secs_f64();
    for (label, dispatch) in [("before", 0), ("this build", 2)] {
        println!(
            "{:<44} {:.2}x its reload round trip",
            format!("{label}: dispatch median"),
            median(dispatch) / median(dispatch + 1)
        );
    }
    println!(
        "{:<44} {:.2}x before's",
        "this build: dispatch median",
        median(2) / median(0)
    );
    pin(None);
    before.into_inner().close();
    this_build.into_inner().close();
}

/// Reports a `reload` sample, then a `dispatch` sample and its median as a
/// multiple of the reload's.
fn report_against_reload(dispatch: &Sample, reload: &Sample) {
    reload.report(None);
    dispatch.report(None);
    println!(
        "{:<44} {:.2}x the reload round trip",
        "dispatch median",
        dispatch.quantile(0.5).as_secs_f64() / reload.quantile(0.5).as_secs_f64()
    );
}

/// How often an answer had to wake a halted CPU: the wake-up interrupts of
/// `/proc/interrupts` over a block of round trips of each kind, per round
/// trip. The engine's reader looks for input between requests and needs
/// none; the client sleeps, and once its CPU has halted (on a virtual
/// machine, a few microseconds after it went idle) waking it costs tens of
/// microseconds more.
fn report_client_wake_ups(
    engine: &std::cell::RefCell<Served>,
    dispatches: &[String],
    reloads: &[String],
) {
    let per_round_trip = |frames: &[String]| {
        let before = wake_up_interrupts()?;
        for frame in frames {
            engine.borrow_mut().round_trip(frame);
        }
        let woken = wake_up_interrupts()?.saturating_sub(before);
        Some(woken as f64 / frames.len() as f64)
    };
    let (Some(reload), Some(dispatch)) = (per_round_trip(reloads), per_round_trip(dispatches))
    else {
        return println!(
            "{:<44} not counted: /proc/interrupts cannot be read",
            "wake-up interrupts"
        );
    };
    println!(
        "{:<44} reload {reload:.2}, dispatch {dispatch:.2} per round trip",
        "wake-up interrupts (CAL + RES, all CPUs)"
    );
}

/// Interrupts sent to wake a CPU's threads, summed over every CPU: function
/// calls (`CAL`, how Linux hands a woken thread to its CPU) and reschedules
/// (`RES`).
fn wake_up_interrupts() -> Option<u64> {
    let table = std::fs::read_to_string("/proc/interrupts").ok()?;
    let counts = table
        .lines()
        .map(str::trim_start)
        .filter(|line| line.starts_with("CAL:") || line.starts_with("RES:"))
        .flat_map(|line| {
            line.split_whitespace()
                .skip(1)
                .map_while(|count| count.parse::<u64>().ok())
        });
    Some(counts.sum())
}

/// `dispatch` and `reload` round trips as a harness sends requests: one now
/// and then, each to an engine (and CPUs) gone idle since the last answer.
/// The two take turns, so the reload is the floor under the same pauses.
///
/// Not 50 ms apart: a dispatch's component calls arm the epoch timer, and
/// its first expiry, 50 ms later, would wake the engine just before the
/// next request.
fn paced_round_trips(
    engine: &std::cell::RefCell<Served>,
    dispatches: &[String],
    reloads: &[String],
) -> [Sample; 2] {
    const PAUSE: Duration = Duration::from_millis(70);
    let mut runs: [Run<'_>; 2] = [
        (
            "dispatch round trip, one every 70 ms",
            timed(engine, dispatches),
        ),
        ("reload round trip, one every 70 ms", timed(engine, reloads)),
    ];
    Sample::measure_in_turns_apart(100, 1, PAUSE, &mut runs)
        .try_into()
        .unwrap_or_else(|_| unreachable!("two runs give two samples"))
}

/// One serving engine of `program` on `registry`: dispatch round trips over
/// the pipe, one at a time, against the reload round trip (the protocol's
/// floor); placed by the scheduler, then both sent one every 70 ms,
/// a burst sent without waiting, the idle engine's resident set and how
/// often it wakes.
fn serve_engine(label: &str, program: &Path, registry: &Path, cache: &Path, placement: Placement) {
    use std::io::BufRead;
    println!(
        "\nserving engine (tama run-hook --serve omp), {label}, installed default registry, one client over pipes, {}",
        placement.label()
    );
    let cpus = placement.cpus();
    // The engine inherits the affinity of the thread that starts it.
    pin(cpus.map(|(_, engine)| engine));
    let engine = std::cell::RefCell::new(Served::start(program, Some(registry), cache));
    pin(cpus.map(|(client, _)| client));
    let rss = |pid: u32| {
        std::fs::read_to_string(format!("/proc/{pid}/status"))
            .ok()
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("VmRSS"))
                    .map(|l| l.split_whitespace().nth(1).unwrap_or("?").to_string())
            })
            .unwrap_or_default()
    };
    // Requests are made before the clock starts, so only the engine is
    // timed (a block's worth, sent again each round: one request is answered
    // before the next is sent). Dispatches and reloads take turns in blocks,
    // so both see the same load, and each block runs back to back, so a
    // reload is not charged for the cache a dispatch just used.
    let dispatches: Vec<String> = (0..SERVE_BLOCK).map(dispatch_frame).collect();
    let reloads: Vec<String> = (0..SERVE_BLOCK).map(reload_frame).collect();
    let mut runs: [Run<'_>; 2] = [
        (
            "dispatch round trip, pre_tool_use:bash",
            timed(&engine, &dispatches),
        ),
        (
            "reload round trip (the protocol floor)",
            timed(&engine, &reloads),
        ),
    ];
    let [dispatch, reload]: [Sample; 2] =
        Sample::measure_in_turns(SERVE_ROUNDS, SERVE_BLOCK, &mut runs)
            .try_into()
            .unwrap_or_else(|_| unreachable!("two runs give two samples"));
    drop(runs);
    report_against_reload(&dispatch, &reload);
    if placement == Placement::TwoCores {
        report_client_wake_ups(&engine, &dispatches, &reloads);
    }
    pin(None);
    if placement != Placement::Scheduler {
        return engine.into_inner().close();
    }
    let [paced_dispatch, paced_reload] = paced_round_trips(&engine, &dispatches, &reloads);
    report_against_reload(&paced_dispatch, &paced_reload);
    let mut engine = engine.into_inner();
    // One burst on a shared machine is one sample of its noise: the median
    // of several, each sent whole before its answers are read.
    let (burst, bursts) = (5000, 5);
    let mut rates = Vec::with_capacity(bursts);
    for round in 0..bursts {
        let requests: String = (0..burst)
            .map(|i| dispatch_frame(100_000 * (round + 1) + i))
            .collect();
        let Served {
            input,
            output,
            line,
            ..
        } = &mut engine;
        let start = Instant::now();
        std::thread::scope(|scope| {
            scope.spawn(|| input.write_all(requests.as_bytes()).unwrap());
            for _ in 0..burst {
                line.clear();
                output.read_line(line).unwrap();
            }
        });
        rates.push(burst as f64 / start.elapsed().as_secs_f64());
    }
    rates.sort_by(f64::total_cmp);
    println!(
        "{:<44} {:.0} dispatches/s median of {bursts} bursts of {burst} sent without waiting (slowest {:.0}, fastest {:.0})",
        "pipelined throughput",
        rates[bursts / 2],
        rates[0],
        rates[bursts - 1]
    );
    std::thread::sleep(Duration::from_secs(1));
    let wakeups = |pid| wake_ups::wake_ups(pid).unwrap_or(0);
    let pid = engine.child.id();
    let (before, idle) = (wakeups(pid), Duration::from_secs(5));
    std::thread::sleep(idle);
    let woke = wakeups(pid).saturating_sub(before);
    println!("{:<44} {} KiB", "idle engine RSS after the runs", rss(pid));
    println!(
        "{:<44} {:.1} per second ({woke} in {idle:?})",
        "idle engine wake-ups",
        woke as f64 / idle.as_secs_f64()
    );
    engine.close();
}

/// The serving engine of this build, first side by side with that of
/// `TAMA_BENCH_BEFORE` (another `tama` binary) when it is set.
fn serve(cache: &tempfile::TempDir) {
    let installed = tempfile::tempdir().expect("scratch registry folder");
    let registry = installed_registry(installed.path());
    let this_build = Path::new(env!("CARGO_BIN_EXE_tama"));
    let two_cores = std::thread::available_parallelism().is_ok_and(|n| n.get() >= 2);
    if let Some(before) = std::env::var_os("TAMA_BENCH_BEFORE").filter(|_| two_cores) {
        // Pinned: the scheduler would place each engine as it liked, and
        // one beside the client answers faster than one a CPU away.
        for placement in [Placement::OneCore, Placement::TwoCores] {
            serve_side_by_side(Path::new(&before), this_build, placement);
        }
    }
    serve_engine(
        "this build",
        this_build,
        &registry,
        cache.path(),
        Placement::Scheduler,
    );
    if two_cores {
        for placement in [Placement::OneCore, Placement::TwoCores] {
            serve_engine("this build", this_build, &registry, cache.path(), placement);
        }
        pipe_round_trips();
    }
}

/// What a round trip over pipes costs by itself, for the serving engine's
/// figures beside it: two threads pinned to the two cores pass a byte back
/// and forth, the answering one looking for input for 200 µs before it
/// sleeps, as the engine's reader does (`LOOK` in `tama/src/serve/input.rs`,
/// which a benchmark cannot call), and answering after as much work as given. A
/// client that waits longer than a few microseconds sleeps, and waking it
/// costs more than finding it awake.
fn pipe_round_trips() {
    use std::io::Read;
    use std::os::fd::AsFd;
    println!(
        "\npipe round trips, two threads pinned to two cores, the answering one looking for input first"
    );
    let ((mut asks, mut asked), (mut answers, mut answered)) = (pipe(), pipe());
    let answering = std::thread::spawn(move || {
        pin(Some(1));
        let mut work = [0u8; 1];
        loop {
            let started = Instant::now();
            let mut fds = [nix::poll::PollFd::new(
                asked.as_fd(),
                nix::poll::PollFlags::POLLIN,
            )];
            while nix::poll::poll(&mut fds, nix::poll::PollTimeout::ZERO) == Ok(0)
                && started.elapsed() < Duration::from_micros(200)
            {
                std::thread::yield_now();
            }
            if asked.read(&mut work).unwrap() == 0 {
                return;
            }
            let working = Instant::now();
            while working.elapsed() < Duration::from_micros(u64::from(work[0])) {
                std::hint::spin_loop();
            }
            answers.write_all(&work).unwrap();
        }
    });
    pin(Some(0));
    for micros in [0u8, 5, 10, 20, 30, 50] {
        let sample = Sample::measure(
            &format!("round trip, answered after {micros} µs of work"),
            3000,
            || {
                let mut work = [micros];
                asks.write_all(&work).unwrap();
                answered.read_exact(&mut work).unwrap();
            },
        );
        sample.report(None);
    }
    pin(None);
    drop(asks);
    answering.join().unwrap();
}

/// A pipe's two ends as files: the one written, then the one read.
fn pipe() -> (std::fs::File, std::fs::File) {
    let (read, write) = nix::unistd::pipe().expect("a pipe");
    (std::fs::File::from(write), std::fs::File::from(read))
}

/// The peak resident set of one run, from the kernel's accounting of that child.
#[allow(
    clippy::zombie_processes,
    reason = "wait4 reaps the child, with its resource usage"
)]
fn peak_rss(program: &Path, args: &[&str], stdin: &str, env: &[(&str, &Path)]) -> i64 {
    let child = start(program, args, stdin, env);
    let mut status = 0;
    // SAFETY: rusage is plain data, and the pid is our own unreaped child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    usage.ru_maxrss
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The floor, built as `tama` is (static, at a fixed address: see
/// `.cargo/config.toml`), beside this benchmark's own build.
fn floor_binary() -> PathBuf {
    let status = Command::new(env!("CARGO"))
        .args(["build", "--release", "-p", "tama-floor", "--quiet"])
        .current_dir(root())
        .status()
        .expect("cargo runs");
    assert!(status.success(), "the floor binary builds");
    let bench = std::env::current_exe().expect("the benchmark's path");
    let release = bench
        .parent()
        .and_then(Path::parent)
        .expect("the benchmark lies in <target>/release/deps");
    release.join("tama-floor")
}

/// A copy of `binary` in `folder`, as an install (`cargo install`, a release
/// archive) puts it. The file the linker just wrote starts slower than any
/// copy of it: its pages lie in the page cache in smaller pieces.
fn installed(binary: &Path, folder: &Path) -> PathBuf {
    let copy = folder.join(binary.file_name().unwrap());
    std::fs::copy(binary, &copy).unwrap();
    copy
}

fn available(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Each peer hook as a whole process, with two sessions live in two git
/// checkouts, against the floor. With `TAMA_BENCH_BEFORE` naming another
/// `tama` (one built before a change), the same hooks of that one run in
/// the same loop, each in its own peers folder, one call of each in turn so
/// both see the same load, and every hook of this `tama` is given as a
/// multiple of the baseline's.
fn peer_hooks(tama: &Path, cache: &Path, floor: &Sample) {
    println!("\npeer hooks, whole process (two live sessions)");
    let mine = PeerScratch::new(tama, cache);
    let baseline =
        std::env::var_os("TAMA_BENCH_BEFORE").map(|b| PeerScratch::new(Path::new(&b), cache));
    let mut ratios = Vec::new();
    for case in PeerScratch::CASES {
        let name = format!("tama peer-hook claude {case}");
        let baseline_name = format!("baseline {name}");
        let mut runs: Vec<Run> = vec![(&name, Box::new(mine.call(case)))];
        if let Some(baseline) = &baseline {
            runs.push((&baseline_name, Box::new(baseline.call(case))));
        }
        let samples = Sample::measure_in_turns(200, 1, &mut runs);
        for sample in &samples {
            sample.report(Some(floor));
        }
        if let [now, before] = &samples[..] {
            ratios.push((
                name.clone(),
                now.quantile(0.5).as_secs_f64() / before.quantile(0.5).as_secs_f64(),
            ));
        }
    }
    if !ratios.is_empty() {
        println!("\nthis tama against the baseline (median)");
        for (name, ratio) in ratios {
            println!("{name:<44} {ratio:>7.2}x baseline");
        }
    }
}

/// Two checkouts with a session each, and a peers folder, for one `tama`.
struct PeerScratch {
    tama: PathBuf,
    cache: PathBuf,
    dir: tempfile::TempDir,
}

impl PeerScratch {
    const CASES: [&str; 5] = [
        "session-start",
        "prompt",
        "pre-tool (own checkout)",
        "pre-tool (refused)",
        "stop (nothing unread)",
    ];

    fn new(tama: &Path, cache: &Path) -> PeerScratch {
        let scratch = PeerScratch {
            tama: tama.to_path_buf(),
            cache: cache.to_path_buf(),
            dir: tempfile::tempdir().expect("scratch folder"),
        };
        for repo in ["A", "B"] {
            std::fs::create_dir_all(scratch.dir.path().join(repo).join(".git")).unwrap();
        }
        scratch.run(
            "codex",
            "session-start",
            &scratch.input("c9", "B", serde_json::json!({})),
        );
        scratch
    }

    fn input(&self, id: &str, repo: &str, extra: serde_json::Value) -> String {
        let mut input = serde_json::json!({"session_id": id, "cwd": self.dir.path().join(repo)});
        input
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        input.to_string()
    }

    fn run(&self, kind: &str, event: &str, payload: &str) {
        let peers = self.dir.path().join("peers");
        let env: [(&str, &Path); 3] = [
            ("TAMA_CACHE_DIR", &self.cache),
            ("TAMA_HOME", &self.cache),
            ("TAMA_PEERS", &peers),
        ];
        spawn(&self.tama, &["peer-hook", kind, event], payload, &env);
    }

    /// A call of `case`, its payload made once, outside what is timed.
    fn call(&self, case: &'static str) -> impl FnMut() + '_ {
        let edit = |repo: &str| {
            let path = self.dir.path().join(repo).join("x.rs");
            serde_json::json!({"tool_name": "Edit", "tool_input": {"file_path": path, "old_string": "a", "new_string": "b"}})
        };
        let payload = match case {
            "prompt" => self.input("s1", "A", serde_json::json!({"prompt": "go on"})),
            "pre-tool (own checkout)" => self.input("s1", "A", edit("A")),
            "pre-tool (refused)" => self.input("s1", "A", edit("B")),
            _ => self.input("s1", "A", serde_json::json!({})),
        };
        let event = case.split(' ').next().unwrap_or(case);
        move || self.run("claude", event, &payload)
    }
}

fn main() {
    let only_peers = std::env::args().any(|a| a == "peers");
    let cache = tempfile::tempdir().expect("scratch cache");
    if std::env::args().any(|a| a == "serve") {
        return serve(&cache);
    }
    if only_peers {
        let tama = PathBuf::from(env!("CARGO_BIN_EXE_tama"));
        let floor = Sample::measure("floor: static Rust binary, fixed decision", 300, || {
            spawn(&floor_binary_path(), &[], "{}", &[])
        });
        floor.report(Some(&floor));
        return peer_hooks(&tama, cache.path(), &floor);
    }
    let host = Host::new(cache.path().to_path_buf(), &tool_declaration()).expect("host starts");
    let registry = Loaded::embedded().expect("default registry");
    let load = |id: &str| {
        let entry = registry
            .registry
            .hooks_named(id)
            .next()
            .unwrap_or_else(|| panic!("{id} is a gate of the default registry"));
        let component = registry.component(entry).unwrap();
        Gate::load(&host, &entry.id, &component, &serde_json::json!({}), &[]).unwrap()
    };
    let one_kb = payload(1024);
    let two_kb_command = payload(2048);
    let mut args = std::env::args().skip_while(|a| a != "callgrind");
    if args.next().is_some() {
        let id = args.find(|a| !a.starts_with('-'));
        let counted = load(id.as_deref().unwrap_or("block-git-hook-bypass"));
        return counted_evaluations(&counted, &two_kb_command);
    }
    let gate = load("block-git-hook-bypass");

    println!(
        "in-process, as a serving engine calls them: built-in gates in an idle instance, the template (a plugin) in a fresh one"
    );
    let input = serde_json::json!({"command": "git commit --no-verify -m x"}).to_string();
    Sample::measure("tool declaration: classify", 3000, || {
        host.classify("Bash", &input).unwrap();
    })
    .report(None);
    // The cost of a fresh instance and one call, apart from any gate's own work.
    let template_bytes =
        std::fs::read(Path::new(tama_core::BUILT_COMPONENTS_DIR).join("gate_template.wasm"))
            .expect("the template is built");
    let template_sha = tama_core::registry::checksum::sha256_hex(&template_bytes);
    let template_source =
        tama_core::wasm::ComponentBytes::checked(template_bytes, &template_sha).unwrap();
    let template = Gate::load(
        &host,
        "gate-template",
        &template_source,
        &serde_json::json!({}),
        &[],
    )
    .unwrap();
    // Decoding a payload is the engine's work once per event, shared by every
    // gate; each evaluation below gets a fresh, unclassified event, so its
    // time includes the gate's call to the tool declaration.
    Sample::measure("event decode (once per event, all gates)", 3000, || {
        GateEvent::new(Event::decode(&one_kb, None).unwrap());
    })
    .report(None);
    let fresh_event = |text: &str| Arc::new(GateEvent::new(Event::decode(text, None).unwrap()));
    Sample::measure_prepared(
        "gate-template (instance + call floor): 1 KB",
        3000,
        || fresh_event(&one_kb),
        |event| {
            template.evaluate(&event, Arc::new(NoState)).unwrap();
        },
    )
    .report(None);
    // The same gate given a call it passes at once: its own call floor.
    let non_shell = serde_json::json!({"hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": {"file_path": "/work/repo/README.md"}}).to_string();
    let served_call = served_payload().to_string();
    let protect = load("protect-tama");
    for (name, text) in [
        ("protect-tama: non-shell call", &non_shell),
        ("protect-tama: the serving benchmark's call", &served_call),
        ("protect-tama: 1 KB payload", &one_kb),
        ("protect-tama: 2 KB command", &two_kb_command),
    ] {
        Sample::measure_prepared(
            name,
            3000,
            || fresh_event(text),
            |event| {
                protect.evaluate(&event, Arc::new(NoState)).unwrap();
            },
        )
        .report(None);
    }
    for (name, text) in [
        ("block-git-hook-bypass: non-shell call", &non_shell),
        (
            "block-git-hook-bypass: the serving benchmark's call",
            &served_call,
        ),
        ("block-git-hook-bypass: 1 KB payload", &one_kb),
        ("block-git-hook-bypass: 2 KB command", &two_kb_command),
    ] {
        Sample::measure_prepared(
            name,
            3000,
            || fresh_event(text),
            |event| {
                gate.evaluate(&event, Arc::new(NoState)).unwrap();
            },
        )
        .report(None);
    }

    if std::env::args().any(|a| a == "gates") {
        return;
    }
    if std::env::args().any(|a| a == "protect") {
        let binaries = tempfile::tempdir().expect("scratch folder for the binaries");
        let floor = installed(&floor_binary_path(), binaries.path());
        let tama = installed(Path::new(env!("CARGO_BIN_EXE_tama")), binaries.path());
        return protect_tama_cost(&tama, cache.path(), &one_kb, &floor);
    }
    serve(&cache);

    println!(
        "\nwhole process, one payload each, copies of the binaries as an install puts them, one run of each in turn"
    );
    // A baseline `tama` caches components of its own, apart from this one's.
    let before_cache = tempfile::tempdir().expect("scratch cache");
    let binaries = tempfile::tempdir().expect("scratch folder for the binaries");
    let tama = installed(Path::new(env!("CARGO_BIN_EXE_tama")), binaries.path());
    let floor_binary = installed(&floor_binary_path(), binaries.path());
    let env: [(&str, &Path); 2] = [
        ("TAMA_CACHE_DIR", cache.path()),
        ("TAMA_HOME", cache.path()),
    ];
    let before_env: [(&str, &Path); 2] = [
        ("TAMA_CACHE_DIR", before_cache.path()),
        ("TAMA_HOME", before_cache.path()),
    ];
    let before = std::env::var_os("TAMA_BENCH_BEFORE").map(|before| {
        let copy = binaries.path().join("before");
        std::fs::create_dir(&copy).unwrap();
        installed(Path::new(&before), &copy)
    });
    let hook: &[&str] = &["hook", "block-git-hook-bypass"];
    let run_hook: &[&str] = &["run-hook", "pre_tool_use", "bench"];
    let mut runs: Vec<Run> = vec![
        (
            "floor: static Rust binary, fixed decision",
            Box::new(|| spawn(&floor_binary, &[], &one_kb, &[])),
        ),
        (
            "tama hook block-git-hook-bypass",
            Box::new(|| spawn(&tama, hook, &one_kb, &env)),
        ),
        (
            "tama run-hook pre_tool_use (Claude payload)",
            Box::new(|| spawn(&tama, run_hook, &one_kb, &env)),
        ),
    ];
    if let Some(before) = &before {
        runs.push((
            "baseline tama hook",
            Box::new(|| spawn(before, hook, &one_kb, &before_env)),
        ));
        runs.push((
            "baseline tama run-hook",
            Box::new(|| spawn(before, run_hook, &one_kb, &before_env)),
        ));
    }
    let samples = Sample::measure_in_turns(300, 1, &mut runs);
    let floor = &samples[0];
    for sample in &samples {
        sample.report(Some(floor));
    }
    if let [_, hook_now, run_hook_now, hook_before, run_hook_before] = &samples[..] {
        for (now, baseline) in [(hook_now, hook_before), (run_hook_now, run_hook_before)] {
            let ratio = now.quantile(0.5).as_secs_f64() / baseline.quantile(0.5).as_secs_f64();
            println!("{:<44} {ratio:>7.2}x baseline", now.name);
        }
    }
    protect_tama_cost(&tama, cache.path(), &one_kb, &floor_binary);
    peer_hooks(&tama, cache.path(), floor);
    for args in [hook, run_hook] {
        println!(
            "{:<44} {} KiB",
            format!("peak RSS: tama {}", args[0]),
            peak_rss(&tama, args, &one_kb, &env)
        );
    }
    let baselines = root().join("bench/baselines");
    let baselines_list: [(&str, &str, &str, usize); 3] = [
        ("script gate: bash + jq + grep", "bash", "gate.sh", 40),
        ("script gate: python3", "python3", "gate.py", 40),
        ("script gate: node", "node", "gate.mjs", 20),
    ];
    let python = python();
    for (name, program, script, runs) in baselines_list {
        let program = if program == "python3" {
            python.as_str()
        } else {
            program
        };
        if name.contains("jq") && !available("jq") || !available(program) {
            println!("{name:<44} skipped: {program} or jq is not installed");
            continue;
        }
        let script = baselines.join(script);
        Sample::measure(name, runs, || {
            spawn(
                Path::new(program),
                &[script.to_str().unwrap()],
                &one_kb,
                &[],
            )
        })
        .report(Some(floor));
    }
}

/// Evaluations of each `counted_*` function below in the `callgrind` mode.
const COUNTED_RUNS: usize = 20;

/// `gate callgrind [<gate id>]`: a gate of the default registry
/// (`block-git-hook-bypass` unless named) on the 2 KB command, on the call
/// the serving benchmark dispatches, and on a non-shell call (its instance
/// floor), for instruction counts, which unlike
/// times do not move with the machine's load. Under
/// `valgrind --tool=callgrind --collect-atstart=no --toggle-collect='gate::counted_*'`,
/// `callgrind_annotate --inclusive=yes` gives each function's count for
/// [`COUNTED_RUNS`] evaluations. Valgrind cannot reserve the address space
/// of the instance pool as configured: lower `POOL_INSTANCES` in
/// `core/src/wasm/config.rs` (to 8, say) for the measurement.
fn counted_evaluations(gate: &Gate, two_kb_command: &str) {
    let served_call = served_payload().to_string();
    let non_shell = serde_json::json!({"tool_name": "Read", "tool_input": {"file_path": "/work/repo/README.md"}}).to_string();
    let fresh = |text: &str| Arc::new(GateEvent::new(Event::decode(text, None).unwrap()));
    for text in [two_kb_command, &served_call, &non_shell] {
        gate.evaluate(&fresh(text), Arc::new(NoState)).unwrap();
    }
    for _ in 0..COUNTED_RUNS {
        counted_two_kb_command(gate, fresh(two_kb_command));
        counted_served_call(gate, fresh(&served_call));
        counted_non_shell_call(gate, fresh(&non_shell));
    }
}

#[inline(never)]
fn counted_served_call(gate: &Gate, event: Arc<GateEvent>) {
    gate.evaluate(&event, Arc::new(NoState)).unwrap();
}

#[inline(never)]
fn counted_two_kb_command(gate: &Gate, event: Arc<GateEvent>) {
    gate.evaluate(&event, Arc::new(NoState)).unwrap();
}

#[inline(never)]
fn counted_non_shell_call(gate: &Gate, event: Arc<GateEvent>) {
    gate.evaluate(&event, Arc::new(NoState)).unwrap();
}

/// The interpreter itself, not a version manager's shim in front of it,
/// which would add its own start-up to the baseline.
fn python() -> String {
    Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| "python3".into())
}

fn floor_binary_path() -> PathBuf {
    static FLOOR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    FLOOR.get_or_init(floor_binary).clone()
}

/// `tama run-hook` for a shell call with and without `protect-tama`, in one
/// run: the default registry as a file beside its components, once as built
/// and once with protect-tama taken out, one run of each and of the floor in turn.
fn protect_tama_cost(tama: &Path, cache: &Path, payload: &str, floor: &Path) {
    let folder = tempfile::tempdir().expect("scratch registry folder");
    let with = default_registry_file(folder.path(), "with.json", true);
    let without = default_registry_file(folder.path(), "without.json", false);
    let env: [(&str, &Path); 2] = [("TAMA_CACHE_DIR", cache), ("TAMA_HOME", cache)];
    let run = |registry: &Path| {
        spawn(
            tama,
            &[
                "run-hook",
                "pre_tool_use",
                "bench",
                "--registry",
                registry.to_str().unwrap(),
            ],
            payload,
            &env,
        )
    };
    let samples = Sample::measure_in_turns(
        300,
        1,
        &mut [
            (
                "floor: static Rust binary, fixed decision",
                Box::new(|| spawn(floor, &[], payload, &[])),
            ),
            (
                "tama run-hook shell call, without it",
                Box::new(|| run(&without)),
            ),
            (
                "tama run-hook shell call, with protect-tama",
                Box::new(|| run(&with)),
            ),
        ],
    );
    let [floor, without, with] = &samples[..] else {
        unreachable!("three runs were measured")
    };
    for sample in [floor, without, with] {
        sample.report(Some(floor));
    }
    let cost = with.quantile(0.5).as_secs_f64() / without.quantile(0.5).as_secs_f64() - 1.0;
    println!(
        "{:<44} {:+.1}% of the median",
        "protect-tama's cost",
        cost * 100.0
    );
}

/// Writes the default registry, sealed, to `folder/name` with its
/// components beside it, keeping protect-tama or leaving it out.
fn default_registry_file(folder: &Path, name: &str, keep_protect: bool) -> PathBuf {
    let mut raw = Loaded::embedded().expect("default registry").raw;
    if !keep_protect {
        raw["events"]
            .as_object_mut()
            .unwrap()
            .shift_remove("pre_tool_use");
        raw["catalog"]["agentHooks"]
            .as_array_mut()
            .unwrap()
            .retain(|hook| hook["id"] != "protect-tama");
    }
    for component in [
        "protect-tama",
        "block-git-hook-bypass",
        "block-supervisor-stop",
    ] {
        let built = Path::new(tama_core::BUILT_COMPONENTS_DIR)
            .join(format!("{}.wasm", component.replace('-', "_")));
        std::fs::copy(&built, folder.join(format!("{component}.wasm")))
            .expect("copying a built component");
    }
    tama_core::registry::checksum::seal(&mut raw);
    let path = folder.join(name);
    std::fs::write(&path, serde_json::to_string_pretty(&raw).unwrap()).unwrap();
    path
}
