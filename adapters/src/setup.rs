//! `tama setup claude|codex [--remove]`: puts Tama's hooks into a harness's
//! user config, or takes them out, leaving everything else in the file as it
//! was.
//!
//! Tama installs one handler per harness event. Tool events get the matcher
//! `"*"`: which tool calls a hook sees is the engine's decision, made through
//! its one tool declaration. A narrower matcher would be a second list of tool
//! names in the harness's config, and a list that falls behind the
//! declaration lets calls through unread.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

use std::collections::HashMap;
use std::fmt;
use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value, json};

pub use crate::Harness;
use tama_core::dispatch::{Decision, Fault, Infrastructure};
use tama_core::event::EventName;

/// Registry phase → harness event, and whether the event is about a tool call.
const EVENTS: &[(&str, &str, bool)] = &[
    ("pre_tool_use", "PreToolUse", true),
    ("post_tool_use", "PostToolUse", true),
    ("post_tool_use_failure", "PostToolUseFailure", true),
    ("permission_request", "PermissionRequest", true),
    ("user_prompt_submit", "UserPromptSubmit", false),
    ("stop", "Stop", false),
    ("subagent_stop", "SubagentStop", false),
    ("session_start", "SessionStart", false),
    ("session_end", "SessionEnd", false),
    ("pre_compact", "PreCompact", false),
    ("notification", "Notification", false),
];

/// One handler Tama installs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookEvent {
    /// The harness's spelling, e.g. `PreToolUse`; the command passes it to
    /// `tama run-hook` in registry spelling (`pre_tool_use`).
    pub harness_event: String,
    /// `Some("*")` on tool events, `None` elsewhere.
    pub matcher: Option<String>,
    /// Seconds the harness waits for the hook.
    pub timeout_secs: u64,
}

/// The harness events for registry keys (`pre_tool_use:bash`, `stop`, ...):
/// one per harness event, in the keys' order. Tool suffixes are dropped, since
/// the engine matches tools itself; phases no harness config has (OMP's
/// `before_provider_request`) are left out.
pub fn events_from_registry_keys(keys: &[&str], timeout_secs: u64) -> Vec<HookEvent> {
    let mut events: Vec<HookEvent> = Vec::new();
    for key in keys {
        let phase = key.split(':').next().unwrap_or(key);
        let Some(&(_, name, tool)) = EVENTS.iter().find(|(p, _, _)| *p == phase) else {
            continue;
        };
        if events.iter().all(|e| e.harness_event != name) {
            events.push(HookEvent {
                harness_event: name.to_string(),
                matcher: tool.then(|| "*".to_string()),
                timeout_secs,
            });
        }
    }
    events
}

/// Seconds a harness should wait for Tama on `event`, so Tama always
/// answers first, with its refusal: Tama's own timeouts of every hook the
/// event may run one after another (each hook of every registry key of the
/// phase), or on a stop the gates one after another and then the slowest of
/// the command hooks that run side by side, plus time to start and answer.
pub fn entry_timeout(
    registry: &tama_core::registry::Registry,
    event: tama_core::event::EventName,
) -> u64 {
    /// Starting the engine, compiling gates on first use, writing the answer.
    const MARGIN_SECS: f64 = 10.0;
    let mut seen: Vec<&str> = Vec::new();
    let (mut in_turn, mut side_by_side) = (0.0_f64, 0.0_f64);
    let hooks = registry
        .events
        .iter()
        .filter(|(key, _)| tama_core::event::EventName::parse(key) == Some(event))
        .flat_map(|(_, e)| &e.hooks);
    for hook in hooks {
        if seen.contains(&hook.id.as_str()) {
            continue;
        }
        seen.push(&hook.id);
        let bound = tama_core::dispatch::hook_timeout(hook).as_secs_f64();
        if event == tama_core::event::EventName::Stop
            && hook.kind() == tama_core::registry::HookKind::Command
        {
            side_by_side = side_by_side.max(bound);
        } else {
            in_turn += bound;
        }
    }
    (in_turn + side_by_side + MARGIN_SECS).ceil() as u64
}

/// What `install` or `remove` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The harness config.
    pub path: PathBuf,
    /// The copy of the file taken before it was changed.
    pub backup: Option<PathBuf>,
    /// Whether the file was written.
    pub changed: bool,
    /// The harness events Tama's hooks now run on (none after `remove`).
    pub events: Vec<String>,
    /// What the user has to know or do next.
    pub notices: Vec<String>,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display();
        let events = self.events.join(", ");
        match (self.events.is_empty(), self.changed) {
            (false, true) => write!(f, "Tama's hooks for {events} written to {path}")?,
            (false, false) => write!(
                f,
                "Tama's hooks for {events} already in {path}; nothing changed"
            )?,
            (true, true) => write!(f, "Tama's hooks removed from {path}")?,
            (true, false) => write!(f, "no Tama hooks in {path}; nothing changed")?,
        }
        if let Some(backup) = &self.backup {
            write!(f, "\nthe previous file is kept as {}", backup.display())?;
        }
        self.notices
            .iter()
            .try_for_each(|notice| write!(f, "\n{notice}"))
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("unknown harness `{0}`: expected claude, codex or omp")]
    UnknownHarness(String),
    #[error("the tama path {} is not an absolute UTF-8 path; hooks run from any folder, \
             so they name tama by its absolute path", .0.display())]
    TamaPath(PathBuf),
    #[error("`{0}` is not a harness event name such as PreToolUse")]
    BadEvent(String),
    #[error("cannot read {}: {source}; it was left untouched", path.display())]
    Read { path: PathBuf, source: io::Error },
    #[error("{} is not JSON ({source}); it was left untouched: \
             fix it or move it away, then run tama setup again", path.display())]
    NotJson {
        path: PathBuf,
        source: serde_json::Error,
    },
    #[error("{} is not a JSON object; it was left untouched: \
             fix it or move it away, then run tama setup again", path.display())]
    NotObject { path: PathBuf },
    #[error("{}: `{key}` is not {expected}; the file was left untouched", path.display())]
    Shape {
        path: PathBuf,
        key: String,
        expected: &'static str,
    },
    #[error("{} is not TOML ({source}); it was left untouched: \
             fix it or move it away, then run tama setup again", path.display())]
    NotToml {
        path: PathBuf,
        source: toml_edit::TomlError,
    },
    #[error("cannot back up {} before changing it: {source}; it was left untouched", path.display())]
    Backup { path: PathBuf, source: io::Error },
    #[error("cannot write {}: {source}", path.display())]
    Write { path: PathBuf, source: io::Error },
}

/// Makes Tama's hooks in the harness's config under `home` exactly `events`,
/// each running `'<tama>' run-hook --provider <harness> <event> <harness>`.
/// Tama's earlier entries, the older installer's included, are replaced in
/// place; everything else is kept.
pub fn install(
    harness: Harness,
    home: &Path,
    tama: &Path,
    events: &[HookEvent],
) -> Result<Report, SetupError> {
    let program = program(tama)?;
    let (mut groups, mut skipped) = (Vec::new(), Vec::new());
    for event in events {
        let name = event.harness_event.as_str();
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(SetupError::BadEvent(name.to_string()));
        }
        if !harness.supports(name) {
            skipped.push(name);
        } else if groups.iter().all(|(n, _)| n != name) {
            groups.push((name.to_string(), group(harness, program, event)));
        }
    }
    let owned = |handler: &Value| is_tama(handler, tama);
    let groups: Vec<(String, Vec<Value>)> = groups
        .into_iter()
        .map(|(name, group)| (name, vec![group]))
        .collect();
    let mut report = update(harness.config_path(home), &owned, &groups)?;
    report.events = groups.into_iter().map(|(name, _)| name).collect();
    if !skipped.is_empty() {
        let (name, skipped) = (harness.name(), skipped.join(", "));
        report.notices.push(format!(
            "{name} has no {skipped} event; Tama's hooks for it are not installed"
        ));
    }
    if let Some(notice) = harness.setup_notice().filter(|_| !report.events.is_empty()) {
        report.notices.push(notice.to_string());
    }
    Ok(report)
}

/// `tama` as hooks name it: an absolute UTF-8 path, since hooks run from any folder.
pub fn program(tama: &Path) -> Result<&str, SetupError> {
    tama.to_str()
        .filter(|_| tama.is_absolute())
        .ok_or_else(|| SetupError::TamaPath(tama.into()))
}

/// Takes Tama's hooks (this `tama`'s, any program named `tama` running
/// `run-hook`, and the older installer's) out of the harness's config under
/// `home`, with the matcher groups and event keys that leaves empty.
pub fn remove(harness: Harness, home: &Path, tama: &Path) -> Result<Report, SetupError> {
    update(
        harness.config_path(home),
        &|handler| is_tama(handler, tama),
        &[],
    )
}

fn group(harness: Harness, tama: &str, event: &HookEvent) -> Value {
    let command = hook_command(harness, tama, &event.harness_event);
    let handler = json!({"type": "command", "command": command, "timeout": event.timeout_secs});
    match &event.matcher {
        Some(matcher) => json!({"matcher": matcher, "hooks": [handler]}),
        None => json!({"hooks": [handler]}),
    }
}

/// The command of Tama's entry for `event` (the harness's spelling): `tama
/// run-hook`, guarded so that its end without an answer is refused too.
pub fn hook_command(harness: Harness, tama: &str, event: &str) -> String {
    let event = snake_case(event);
    let name = harness.name();
    harness.hook_command(
        &tama_core::command::shell_quote(tama),
        &format!("run-hook --provider {name} {event} {name}"),
        &fallback(harness, &event),
    )
}

/// A POSIX shell script that answers the harness as `tama run-hook` answers
/// its own faults on `event`, for a run that ended without an answer. It
/// may sit inside `'…'` of a shell that may be fish, which reads `\'` and
/// `\\` there: the reason is Tama's own text, with no `'` or `\`, so the only
/// backslashes are those quoting `"`, `$` and `` ` `` for `echo "…"`.
fn fallback(harness: Harness, event: &str) -> String {
    let fault = Fault::Ended {
        event: event.to_string(),
    };
    let decision =
        Decision::infrastructure(EventName::parse(event), None, Infrastructure::new(fault));
    let answer = harness.encode(&decision);
    let mut script = String::new();
    for (text, redirect) in [(&answer.stdout, ""), (&answer.stderr, " >&2")] {
        for line in text.lines() {
            script.push_str("echo \"");
            for c in line.chars() {
                if matches!(c, '"' | '$' | '`') {
                    script.push('\\');
                }
                script.push(c);
            }
            script.push_str(&format!("\"{redirect}; "));
        }
    }
    script.push_str(&format!("exit {}", answer.exit));
    script
}

/// Matcher groups to install, by harness event, in order.
pub type EventGroups = [(String, Vec<Value>)];

/// Replaces the handlers `owned` recognises in the hook config at `path` by
/// `groups` and writes it back, backed up first, when that changed anything.
pub fn update(
    path: PathBuf,
    owned: &dyn Fn(&Value) -> bool,
    groups: &EventGroups,
) -> Result<Report, SetupError> {
    let text = match fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(err) if err.kind() == io::ErrorKind::NotFound => None,
        Err(source) => return Err(SetupError::Read { path, source }),
    };
    let before = match &text {
        None => Map::new(),
        Some(text) => match serde_json::from_str(text) {
            Ok(Value::Object(map)) => map,
            Ok(_) => return Err(SetupError::NotObject { path }),
            Err(source) => return Err(SetupError::NotJson { path, source }),
        },
    };
    let mut after = before.clone();
    place(&mut after, &path, owned, groups)?;
    let mut report = Report {
        path,
        backup: None,
        changed: after != before,
        events: Vec::new(),
        notices: Vec::new(),
    };
    if !report.changed {
        return Ok(report);
    }
    // Write through a symlink (a dotfiles checkout, say) rather than replacing it.
    let target = match text {
        None => report.path.clone(),
        Some(_) => fs::canonicalize(&report.path).map_err(|source| SetupError::Read {
            path: report.path.clone(),
            source,
        })?,
    };
    if let Some(text) = &text {
        let backup = back_up(&target, text).map_err(|source| SetupError::Backup {
            path: report.path.clone(),
            source,
        })?;
        report.backup = Some(backup);
    }
    let written = serde_json::to_string_pretty(&Value::Object(after))
        .map_err(io::Error::other)
        .and_then(|json| tama_core::files::write_whole_synced(&target, (json + "\n").as_bytes()));
    written.map_err(|source| SetupError::Write {
        path: report.path.clone(),
        source,
    })?;
    Ok(report)
}

/// Takes the handlers `owned` recognises out of `root.hooks` and puts `groups`
/// where the first of them was in each event, else at the end.
fn place(
    root: &mut Map<String, Value>,
    path: &Path,
    owned: &dyn Fn(&Value) -> bool,
    groups: &EventGroups,
) -> Result<(), SetupError> {
    let shape = |key: String, expected| SetupError::Shape {
        path: path.into(),
        key,
        expected,
    };
    if !root.contains_key("hooks") {
        if groups.is_empty() {
            return Ok(());
        }
        root.insert("hooks".into(), json!({}));
    }
    let hooks = root
        .get_mut("hooks")
        .and_then(Value::as_object_mut)
        .ok_or_else(|| shape("hooks".into(), "an object"))?;
    let mut places = HashMap::new();
    for (event, list) in hooks.iter_mut() {
        if let Some(at) = list.as_array_mut().and_then(|list| strip(list, owned)) {
            places.insert(event.clone(), at);
        }
    }
    for (event, event_groups) in groups {
        let list = hooks.entry(event.clone()).or_insert_with(|| json!([]));
        let list = list
            .as_array_mut()
            .ok_or_else(|| shape(format!("hooks.{event}"), "a list"))?;
        let at = places
            .get(event)
            .map_or(list.len(), |&at| at.min(list.len()));
        list.splice(at..at, event_groups.iter().cloned());
    }
    hooks.retain(|event, list| {
        !(places.contains_key(event) && list.as_array().is_some_and(Vec::is_empty))
    });
    if hooks.is_empty() && !places.is_empty() {
        root.remove("hooks");
    }
    Ok(())
}

/// Removes the handlers `owned` recognises from one event's matcher groups,
/// and the groups that leaves empty. Returns where the first of them was, if any.
fn strip(groups: &mut Vec<Value>, owned: &dyn Fn(&Value) -> bool) -> Option<usize> {
    let mut first = None;
    let mut kept = Vec::with_capacity(groups.len());
    for mut group in groups.drain(..) {
        if let Some(handlers) = group.get_mut("hooks").and_then(Value::as_array_mut) {
            let count = handlers.len();
            handlers.retain(|handler| !owned(handler));
            if handlers.len() < count {
                first.get_or_insert(kept.len());
                if handlers.is_empty() {
                    continue;
                }
            }
        }
        kept.push(group);
    }
    *groups = kept;
    first
}

/// A handler is Tama's when it runs `run-hook` with `tama` (or any program
/// named `tama`), or is the older installer's `.shared-hooks/run-hook.mjs`.
fn is_tama(handler: &Value, tama: &Path) -> bool {
    let command = handler
        .get("command")
        .and_then(Value::as_str)
        .unwrap_or_default();
    command.contains(".shared-hooks/run-hook.mjs") || runs_tama(handler, tama, "run-hook")
}

/// Whether a handler runs `tama` (or any program named `tama`) with the word
/// `subcommand` after it.
pub fn runs_tama(handler: &Value, tama: &Path, subcommand: &str) -> bool {
    let Some(command) = handler.get("command").and_then(Value::as_str) else {
        return false;
    };
    // With `args` (Claude Code's exec form) `command` is the program itself.
    let words: Vec<String> = match handler.get("args").and_then(Value::as_array) {
        Some(args) => std::iter::once(command)
            .chain(args.iter().filter_map(Value::as_str))
            .map(String::from)
            .collect(),
        None => command_words(command),
    };
    let program = |word: &String| {
        Path::new(word) == tama || Path::new(word).file_name().is_some_and(|n| n == "tama")
    };
    words
        .iter()
        .skip_while(|w| !program(w))
        .skip(1)
        .any(|w| w == subcommand)
}

/// The words of a hook command, the script of `/bin/sh -c '<script>' <$0>`
/// (the form [`Spec::hook_command`] writes for a harness that runs it
/// through the user's shell) read with `$0` in place.
///
/// [`Spec::hook_command`]: crate::Spec::hook_command
pub fn command_words(command: &str) -> Vec<String> {
    let words = shell_words(command);
    match words.as_slice() {
        [shell, c, script, zero] if shell.ends_with("sh") && c == "-c" => shell_words(script)
            .into_iter()
            .map(|word| if word == "$0" { zero.clone() } else { word })
            .collect(),
        _ => words,
    }
}

/// Splits a command line into words the way a shell would, roughly: quotes
/// and backslashes are honoured, expansions are not.
pub fn shell_words(line: &str) -> Vec<String> {
    let (mut words, mut word, mut quote) = (Vec::new(), None::<String>, None);
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_default();
            }
            (Some(q), c) if c == q => quote = None,
            (None | Some('"'), '\\') => word.get_or_insert_default().extend(chars.next()),
            (_, c) => word.get_or_insert_default().push(c),
        }
    }
    words.extend(word);
    words
}

/// `PreToolUse` → `pre_tool_use`.
fn snake_case(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_uppercase() && !out.is_empty() {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// Copies `text`, the file's content, to `<path>.bak-<unix seconds>`
/// (mode 0600) and returns that path.
pub(crate) fn back_up(path: &Path, text: &str) -> io::Result<PathBuf> {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut n = 0;
    loop {
        let suffix = if n == 0 {
            format!(".bak-{secs}")
        } else {
            format!(".bak-{secs}-{n}")
        };
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        let backup = PathBuf::from(name);
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&backup)
        {
            Ok(mut file) => {
                file.write_all(text.as_bytes())?;
                file.sync_all()?;
                return Ok(backup);
            }
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => n += 1,
            Err(err) => return Err(err),
        }
    }
}
