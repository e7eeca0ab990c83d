//! The shell reader's oracle: generated shell commands run in real `bash`
//! against real git, whose every hook refuses and leaves a marker; a commit,
//! merge, rebase, am or push that happened anyway is a bypass. The gate's
//! verdict must match what git did, never its own reading of git's options.
//!
//! It runs as `nobody` without network (`unshare -n setpriv …`), so it needs
//! root; `scripts/test` runs it where that works and says so where it does
//! not. `TAMA_ORACLE_CASES` (default 600) and `TAMA_ORACLE_SEED` choose the
//! generated cases; `TAMA_ORACLE_REPORT=<file>` writes the agreement table;
//! `TAMA_ORACLE_GROW=1` adds each disagreement to `oracle/corpus.json`, whose
//! cases run first on every run.

#[path = "oracle/forms.rs"]
mod forms;
#[path = "oracle/scratch.rs"]
mod scratch;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use block_git_hook_bypass::refusal_reason;
use proptest::test_runner::{RngAlgorithm, TestRng};
use serde_json::{Value, json};

const DEFAULT_CASES: usize = 600;
const DEFAULT_SEED: u64 = 0x7a3a_0015;

#[derive(Default)]
struct Tally {
    cases: usize,
    agreed: usize,
    bypasses: usize,
    missed: usize,
    over_refused: usize,
}

impl Tally {
    fn add(&mut self, bypassed: bool, refused: bool) {
        self.cases += 1;
        self.bypasses += usize::from(bypassed);
        match (bypassed, refused) {
            (true, false) => self.missed += 1,
            (false, true) => self.over_refused += 1,
            _ => self.agreed += 1,
        }
    }

    fn agreement(&self) -> f64 {
        percent(self.agreed, self.cases)
    }

    fn missed_share(&self) -> f64 {
        percent(self.missed, self.bypasses)
    }
}

fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        100.0 * f64::from(u8::from(part > 0))
    } else {
        100.0 * part as f64 / whole as f64
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn corpus_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/corpus.json")
}

fn corpus() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(corpus_path()).unwrap_or_else(|_| "[]".into());
    let cases: Vec<Value> =
        serde_json::from_str(&text).expect("oracle/corpus.json is a JSON array");
    cases
        .iter()
        .map(|case| {
            (
                case["form"].as_str().unwrap_or("corpus").to_owned(),
                case["command"].as_str().expect("command").to_owned(),
            )
        })
        .collect()
}

#[test]
#[ignore = "runs real bash and git as `nobody` without network; scripts/test runs it where unshare and setpriv work"]
fn the_gate_refuses_exactly_what_real_git_lets_past_its_hooks() {
    if let Some(why) = scratch::unavailable() {
        panic!("the oracle cannot run here: {why}");
    }
    // Each case copies the template afresh: in memory where there is a tmpfs.
    let base = tempfile::Builder::new()
        .prefix("tama-oracle")
        .tempdir_in("/dev/shm")
        .or_else(|_| tempfile::tempdir())
        .expect("a scratch directory");
    let scratch = scratch::Scratch::new(base.path());
    let cases = env_number("TAMA_ORACLE_CASES", DEFAULT_CASES as u64);
    let seed = env_number("TAMA_ORACLE_SEED", DEFAULT_SEED);
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let mut rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes);

    let mut commands = corpus();
    let known = commands.len();
    commands.extend((0..cases).map(|_| {
        let (form, text) = forms::command(&mut rng);
        (form.to_owned(), text)
    }));

    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    let mut total = Tally::default();
    // The corpus holds commands that once disagreed: reported apart, so
    // that the rates describe the forms as generated.
    let mut corpus_tally = Tally::default();
    let mut disagreements = Vec::new();
    for (index, (form, command)) in commands.iter().enumerate() {
        let effect = scratch.effect(command);
        let reason = refusal_reason(command);
        let (bypassed, refused) = (effect.bypassed(), reason.is_some());
        if index < known {
            corpus_tally.add(bypassed, refused);
        } else {
            tallies
                .entry(form.clone())
                .or_default()
                .add(bypassed, refused);
            total.add(bypassed, refused);
        }
        if bypassed != refused {
            disagreements.push((index >= known, form.clone(), command.clone()));
            eprintln!(
                "{}: [{form}] {command:?}\n    git did: {}\n    gate: {}\n    calls:\n{}",
                if bypassed { "MISSED" } else { "OVER-REFUSED" },
                if bypassed {
                    format!("{:?} pushed={}", effect.unhooked, effect.pushed)
                } else {
                    "nothing unhooked".into()
                },
                reason.as_deref().unwrap_or("pass"),
                scratch
                    .calls()
                    .lines()
                    .map(|l| format!("      {l}\n"))
                    .collect::<String>(),
            );
        }
    }

    let table = report(&tallies, &total, &corpus_tally, seed, cases);
    println!("{table}");
    if let Ok(path) = std::env::var("TAMA_ORACLE_REPORT") {
        std::fs::write(&path, &table).expect("the report is written");
    }
    if std::env::var("TAMA_ORACLE_GROW").is_ok_and(|v| v == "1") {
        grow(&disagreements);
    }
    drop(scratch);
    assert!(
        total.agreement() >= 98.0 && total.missed_share() <= 1.0,
        "the gate agrees with real git on {:.1}% of {} commands (at least 98% needed) and misses {:.1}% of {} bypasses (at most 1%):\n{table}",
        total.agreement(),
        total.cases,
        total.missed_share(),
        total.bypasses,
    );
}

fn report(
    tallies: &BTreeMap<String, Tally>,
    total: &Tally,
    corpus: &Tally,
    seed: u64,
    cases: u64,
) -> String {
    let mut table = format!(
        "Oracle: {cases} commands generated with seed {seed:#x}; the corpus's {} earlier disagreements now agree on {}\n\n\
         | form | commands | agreement | bypasses | missed | over-refused |\n|---|---:|---:|---:|---:|---:|\n",
        corpus.cases, corpus.agreed,
    );
    for (form, tally) in tallies.iter().chain([(&"all".to_owned(), total)]) {
        let _ = writeln!(
            table,
            "| {form} | {} | {:.1}% | {} | {} | {} |",
            tally.cases,
            tally.agreement(),
            tally.bypasses,
            tally.missed,
            tally.over_refused
        );
    }
    table
}

/// Adds new disagreements to the corpus, keeping it sorted and unique.
fn grow(disagreements: &[(bool, String, String)]) {
    let mut cases: Vec<Value> = serde_json::from_str(
        &std::fs::read_to_string(corpus_path()).unwrap_or_else(|_| "[]".into()),
    )
    .expect("oracle/corpus.json is a JSON array");
    for (_, form, command) in disagreements.iter().filter(|(new, ..)| *new) {
        if !cases.iter().any(|case| case["command"] == command.as_str()) {
            cases.push(json!({ "form": form, "command": command }));
        }
    }
    let text = serde_json::to_string_pretty(&cases).expect("JSON") + "\n";
    std::fs::write(corpus_path(), text).expect("the corpus is written");
}
