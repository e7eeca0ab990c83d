//! A harness started from the agent's own shell with Tama's hooks left out:
//! `claude --bare`, `codex --disable hooks`, `omp --no-extensions`, or one
//! pointed at a configuration of its own (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`,
//! `HOME`, an oh-my-pi profile), or with settings for the `tama` its hooks
//! run (`TAMA_REGISTRY=…`, `TAMA_DISABLED_HOOKS=…`). What that harness then
//! runs, no hook of Tama's sees as configured, so starting it so is refused
//! like changing the hooks is.

use crate::prelude::*;

use crate::commands::{basename, option_values};
use crate::walk::{Result, Walker, shown};

#[derive(Clone, Copy)]
pub(crate) enum Harness {
    Claude,
    Codex,
    Omp,
}

impl Harness {
    fn named(name: &str) -> Option<Harness> {
        match name {
            "claude" | "@anthropic-ai/claude-code" => Some(Harness::Claude),
            "codex" | "@openai/codex" => Some(Harness::Codex),
            "omp" | "@oh-my-pi/pi-coding-agent" => Some(Harness::Omp),
            _ => None,
        }
    }

    /// The harness whose installed package holds the script at `path`.
    fn of_script(path: &str) -> Option<Harness> {
        [
            ("/@anthropic-ai/claude-code/", Harness::Claude),
            ("/@openai/codex/", Harness::Codex),
            ("/@oh-my-pi/pi-coding-agent/", Harness::Omp),
        ]
        .into_iter()
        .find(|(package, _)| path.contains(package))
        .map(|(_, harness)| harness)
    }

    fn label(self) -> &'static str {
        match self {
            Harness::Claude => "Claude Code",
            Harness::Codex => "Codex",
            Harness::Omp => "oh-my-pi",
        }
    }

    /// Variables, besides `HOME`, that point the harness at another
    /// configuration, where Tama's hooks are not.
    fn elsewhere(self) -> &'static [&'static str] {
        match self {
            // The last three name policy settings, which may turn every other hook off.
            Harness::Claude => &[
                "CLAUDE_CONFIG_DIR",
                "CLAUDE_CODE_MANAGED_SETTINGS_PATH",
                "CLAUDE_CODE_REMOTE_SETTINGS_PATH",
                "CLAUDE_CODE_MOCK_REMOTE_SETTINGS",
            ],
            Harness::Codex => &["CODEX_HOME"],
            // `PI_CONFIG_FILES` adds settings files over the user's, as
            // `--config` does; `PI_PACKAGE_DIR` is where oh-my-pi loads its
            // own code from, `PI_SUBPROCESS_CMD` the command its subagents start.
            Harness::Omp => &[
                "PI_CODING_AGENT_DIR",
                "PI_CONFIG_DIR",
                "PI_PROFILE",
                "OMP_PROFILE",
                "PI_CONFIG_FILES",
                "PI_PACKAGE_DIR",
                "PI_SUBPROCESS_CMD",
            ],
        }
    }

    /// Variables that turn the harness's user hooks off: `--bare` and
    /// `--safe-mode` as set in the environment.
    fn switches(self) -> &'static [&'static str] {
        match self {
            Harness::Claude => &["CLAUDE_CODE_SIMPLE", "CLAUDE_CODE_SAFE_MODE"],
            Harness::Codex | Harness::Omp => &[],
        }
    }
}

/// Whether `name` is a harness's program or package (`claude`, `@openai/codex`).
pub fn is_harness(name: &str) -> bool {
    Harness::named(name).is_some()
}

/// Refuses a harness's program (`claude` in a `bin` folder, as `which`
/// finds it) or package script, the resolved `source`, copied,
/// moved or linked to `destination` under a name no harness has (`cp
/// "$(which claude)" /tmp/x`): started by that name, it is no harness to
/// this gate, and `/tmp/x --bare` would pass. The `tama` running now
/// (`tama_binary`) alike: `/tmp/x sessions override` would pass.
pub fn renamed(source: &str, destination: &str, tama_binary: &str) -> Result<()> {
    let name = basename(destination.trim_end_matches('/'));
    if !tama_binary.is_empty()
        && source == tama_binary
        && !destination.ends_with('/')
        && name != "tama"
    {
        return Err(format!(
            "the tool call puts the `tama` program (`{}`) at `{}`, a name Tama does not know it by, so that the operator's commands run from there (`sessions override`, `setup --remove`) go unchecked",
            shown(source),
            shown(destination)
        ));
    }
    let harness = harness_script(source);
    let keeps_name = destination.ends_with('/') || is_harness(name);
    match harness {
        Some(harness) if !keeps_name => Err(format!(
            "the tool call puts {} (`{}`) at `{}`, a name Tama does not know it by, so that started from there its command line goes unchecked. Start it as it is configured",
            harness.label(),
            shown(source),
            shown(destination)
        )),
        _ => Ok(()),
    }
}

/// The files a command prints whole, byte for byte (`cat FILE`, `dd
/// if=FILE`): redirected into another file, it copies them as `cp` does.
pub fn copied_to_output(argv: &[String]) -> Vec<&str> {
    let Some((name, args)) = argv.split_first() else {
        return Vec::new();
    };
    let args = args.iter().map(String::as_str);
    match basename(name) {
        "cat" => args.filter(|arg| !arg.starts_with('-')).collect(),
        "dd" => args.filter_map(|arg| arg.strip_prefix("if=")).collect(),
        _ => Vec::new(),
    }
}

/// Words in a harness's options or settings that leave Tama's hooks out.
const OFF_SWITCHES: &[&str] = &[
    "--bare",
    "--safe-mode",
    "--managed-settings",
    "allowmanagedhooksonly",
    "--no-extensions",
    "--setting-sources",
    "disableallhooks",
];

/// Whether lower-cased shell text (a start-up file's line) names a switch
/// that starts a harness without Tama's hooks: one of its configuration
/// variables but `HOME`, an option or setting that leaves them out, or a
/// variable that loads code into it or that its hooks run through
/// ([`crate::loaded::named_in`]).
pub fn names_off_switch(lowercase: &str) -> bool {
    let names = |variable: &&str| lowercase.contains(&variable.to_ascii_lowercase());
    OFF_SWITCHES.iter().any(|switch| lowercase.contains(switch))
        || [Harness::Claude, Harness::Codex, Harness::Omp]
            .iter()
            .flat_map(|harness| harness.elsewhere().iter().chain(harness.switches()))
            .any(names)
        || crate::loaded::named_in(lowercase)
}

/// Refuses `name args…`, the command `argv` runs, when it starts a harness
/// without Tama's hooks.
pub fn check(walker: &Walker<'_>, name: &str, args: &[String]) -> Result<()> {
    let runtime_options = match name {
        "node" | "nodejs" | "bun" => options_before(args),
        _ => &[],
    };
    let Some((harness, args)) = harness_call(name, args) else {
        return Ok(());
    };
    if let Some(change) = settings_change(harness, args) {
        return Err(format!(
            "the tool call changes {}'s settings: {change}. Changing Tama's hooks is the operator's act, not the agent's",
            harness.label()
        ));
    }
    // The first of `variables` the command set, with what setting it does.
    let assigned = |variables: &[&str], does: &str| {
        variables.iter().find_map(|variable| {
            let value = walker.assigned(variable)?;
            Some(format!("`{variable}={}` {does}", shown(value)))
        })
    };
    let moved = |variables: &[&str]| assigned(variables, "points it at another configuration");
    // Its hooks' `tama` processes inherit the variable, and decide by it.
    let tama_set = || {
        walker
            .own_variables()
            .find(|(variable, _)| configures_tama(variable))
            .map(|(variable, value)| {
                format!(
                    "`{variable}={}` changes which hooks Tama runs there and what it reads",
                    shown(value)
                )
            })
    };
    // `sudo -u other claude`, `su -c claude`: another user's configuration,
    // not this one's (see `commands::run`).
    let how = match walker.other_user {
        Some(switch) => Some(format!(
            "`{switch}` runs it as another user, whose configuration Tama's set-up did not touch"
        )),
        None => match harness {
            Harness::Claude => claude(walker, args),
            Harness::Codex => codex(args),
            Harness::Omp => omp(walker, args),
        }
        .or_else(|| moved(&["HOME"]))
        .or_else(|| moved(harness.elsewhere()))
        .or_else(|| assigned(harness.switches(), "turns its hooks off"))
        .or_else(tama_set)
        .or_else(|| crate::loaded::into_harness(walker, harness, runtime_options))
        .or_else(|| {
            let path = walker.assigned("PATH")?;
            Some(format!(
                "`PATH={}` chooses the node or bun its program runs on (`#!/usr/bin/env node`), and so what runs inside it",
                shown(path)
            ))
        }),
    };
    match how {
        Some(how) => Err(format!(
            "the tool call starts {} without Tama's hooks: {how}, and what it then runs no hook sees. Start it as it is configured",
            harness.label()
        )),
        None => Ok(()),
    }
}

/// The options a runtime (node, bun) is given before the script it runs.
fn options_before(args: &[String]) -> &[String] {
    let script = args
        .iter()
        .position(|arg| harness_script(arg).is_some())
        .unwrap_or(0);
    &args[..script]
}

/// The harness whose program or package script `path` is: its program in a
/// `bin` folder (`node "$(which claude)"`), or a script of its package.
fn harness_script(path: &str) -> Option<Harness> {
    let folder = path.rsplit_once('/').map_or("", |(folder, _)| folder);
    let program = matches!(basename(folder), "bin" | ".bin");
    Harness::named(basename(path))
        .filter(|_| program)
        .or_else(|| Harness::of_script(path))
}

/// What a harness's own settings command changes about Tama's hooks:
/// `codex features disable hooks` turns them off in `config.toml`, and
/// `omp config set|reset` of an extension setting changes which extensions
/// oh-my-pi loads or how long it waits on them, Tama's among them.
fn settings_change(harness: Harness, args: &[String]) -> Option<String> {
    // Codex's `-c key=value` and `-p profile` take a value before the
    // subcommand (`codex -c x=1 features disable hooks`).
    let words = crate::commands::operands(args, &["-c", "--config", "-p", "--profile"]);
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    match (harness, words.as_slice()) {
        (Harness::Codex, ["features", "disable", features @ ..]) => features
            .iter()
            .find(|feature| is_hooks_name(feature))
            .map(|feature| format!("`codex features disable {feature}` turns hooks off")),
        // A plugin or extension package runs in oh-my-pi's process in
        // later sessions, where it can unhook the extension that runs Tama.
        (Harness::Omp, ["install", ..] | ["plugin", "install" | "link" | "enable", ..])
            if !args.iter().any(|arg| arg == "--dry-run") =>
        {
            Some(format!(
                "`omp {}` adds code that runs in oh-my-pi's process beside the extension that runs Tama, where it can unhook it",
                words.iter().take(2).copied().collect::<Vec<_>>().join(" ")
            ))
        }
        (Harness::Omp, ["config", action @ ("set" | "reset"), key, ..])
            if key.to_ascii_lowercase().contains("extension") =>
        {
            Some(format!(
                "`omp config {action} {}` changes which extensions it loads or how long it waits on them, and one of them runs Tama's hooks",
                shown(key)
            ))
        }
        _ => None,
    }
}

/// Whether `variable` configures the `tama` a harness's hooks run: its
/// registry, home, cache, the hooks it runs (`TAMA_DISABLED_HOOKS`, ...), or
/// the Oko state `block-supervisor-stop` reads.
fn configures_tama(variable: &str) -> bool {
    variable.starts_with("TAMA_") || variable == "OKO_HOME"
}

/// Programs that run a command as another user: `su` and `runuser` the
/// shell text of their `-c`, the others the command they are given.
const USER_SWITCHES: &[&str] = &["sudo", "doas", "runuser", "pkexec", "setpriv", "su"];

/// The program among the words of a command that runs what follows as
/// another user, if any.
pub fn user_switch(argv: &[String]) -> Option<&'static str> {
    argv.iter().find_map(|word| {
        let name = basename(word);
        USER_SWITCHES
            .iter()
            .find(|switch| **switch == name)
            .copied()
    })
}

/// The harness a command starts and the arguments it gets: `claude …`, its
/// package run by a package runner (`npx -y @openai/codex exec …`, `npm
/// exec`, `pnpm dlx`, `yarn dlx`, `bun x`), or its script run by node or bun
/// (`node …/@anthropic-ai/claude-code/cli.js …`).
fn harness_call<'a>(name: &str, args: &'a [String]) -> Option<(Harness, &'a [String])> {
    if let Some(harness) = Harness::named(name) {
        return Some((harness, args));
    }
    let first = |args: &'a [String]| args.iter().position(|arg| !arg.starts_with('-'));
    let runs_package = |at: usize| matches!(args[at].as_str(), "exec" | "x" | "dlx");
    let (args, at) = match name {
        "npx" | "bunx" | "pnpx" => (args, first(args)?),
        "npm" | "pnpm" | "yarn" | "bun" if first(args).is_some_and(runs_package) => {
            let rest = args.get(first(args)? + 1..)?;
            (rest, first(rest)?)
        }
        "node" | "nodejs" | "bun" => {
            return args
                .iter()
                .enumerate()
                .find_map(|(at, arg)| Some((harness_script(arg)?, args.get(at + 1..)?)));
        }
        _ => return None,
    };
    let package = args.get(at)?;
    // `@scope/name@1.2.3` and `name@latest` name the package without the version.
    let unversioned = match package.rfind('@') {
        Some(0) | None => package.as_str(),
        Some(version) => package.get(..version)?,
    };
    Some((Harness::named(unversioned)?, args.get(at + 1..)?))
}

/// Claude Code: `--bare` skips hooks, and `--safe-mode` every hook but the
/// policy tier's; `--settings` may turn them all off (`disableAllHooks`), and
/// `--managed-settings` is that policy tier; `--setting-sources` without
/// `user` leaves out the user settings where `tama setup` puts them.
fn claude(walker: &Walker<'_>, args: &[String]) -> Option<String> {
    if args.iter().any(|arg| arg == "--bare") {
        return Some("`--bare` skips every hook".to_owned());
    }
    if args.iter().any(|arg| arg == "--safe-mode") {
        return Some("`--safe-mode` skips every hook but managed ones".to_owned());
    }
    if args
        .iter()
        .any(|arg| arg == "--managed-settings" || arg.starts_with("--managed-settings="))
    {
        return Some(
            "`--managed-settings` are policy settings, which may turn every other hook off"
                .to_owned(),
        );
    }
    for settings in option_values(args, &["--settings"]) {
        let text = if settings.trim_start().starts_with('{') {
            Some(settings.as_str())
        } else {
            walker.written(&walker.resolve(&settings))
        };
        match text {
            Some(text) if !turns_hooks_off(text) => {}
            Some(_) => return Some("its `--settings` turn every hook off".to_owned()),
            None => {
                return Some(format!(
                    "its `--settings {}` come from a file Tama cannot see, which may turn every hook off",
                    shown(&settings)
                ));
            }
        }
    }
    option_values(args, &["--setting-sources"])
        .into_iter()
        .find(|sources| !sources.split(',').any(|source| source.trim() == "user"))
        .map(|sources| {
            format!(
                "`--setting-sources {}` leaves out the user settings that hold them",
                shown(&sources)
            )
        })
}

/// Whether Claude Code settings text names `disableAllHooks`, as written or
/// once JSON's escapes are read (`"disable\u0041llHooks"`).
fn turns_hooks_off(text: &str) -> bool {
    let names = |text: &str| text.to_ascii_lowercase().contains("disableallhooks");
    names(text)
        || serde_json::from_str::<serde_json::Value>(text)
            .ok()
            .and_then(|value| serde_json::to_string(&value).ok())
            .is_some_and(|read| names(&read))
}

/// Codex: `--disable hooks`, `-c features.hooks=false` (or the older
/// `codex_hooks`) and `--ignore-user-config` turn hooks off. Any other `-c`
/// that touches hooks is refused too: the hooks and the trust Codex keeps for each (`hooks.state`,
/// an untrusted hook being skipped without a word) live in the same layered
/// configuration, though Codex 0.171.0 ignores such overrides.
fn codex(args: &[String]) -> Option<String> {
    // Without `config.toml`, Codex holds none of the trust Tama's hooks run
    // by, and skips them as untrusted.
    if args.iter().any(|arg| arg == "--ignore-user-config") {
        return Some(
            "`--ignore-user-config` leaves out `config.toml`, where Codex keeps the trust Tama's hooks run by"
                .to_owned(),
        );
    }
    if let Some(feature) = option_values(args, &["--disable"])
        .into_iter()
        .find(|feature| is_hooks_name(feature.trim()))
    {
        return Some(format!("`--disable {feature}` turns hooks off"));
    }
    option_values(args, &["-c", "--config"])
        .into_iter()
        .find_map(|setting| {
            let how = codex_setting(&setting)?;
            Some(format!("`-c {}` {how}", shown(&setting)))
        })
}

/// What a Codex `-c key=value` does to hooks, when it touches them: a key
/// with a `hooks` part anywhere (`hooks.state…`, `features.hooks`,
/// `profiles.p.features.hooks`), or a table value that names them
/// (`features={hooks=false}`). Only switching the feature on is harmless.
fn codex_setting(setting: &str) -> Option<&'static str> {
    let (key, value) = setting.split_once('=').unwrap_or((setting, ""));
    let key = key.to_ascii_lowercase();
    let parts: Vec<&str> = key
        .split('.')
        .map(|part| part.trim().trim_matches('"'))
        .collect();
    let value = value.trim().to_ascii_lowercase();
    let feature = matches!(parts.as_slice(), [.., "features", name] if is_hooks_name(name));
    if feature {
        return (value != "true").then_some("turns hooks off");
    }
    if parts.iter().any(|part| is_hooks_name(part)) {
        return Some(
            "overrides its hook settings, which hold Tama's hooks and the trust they run by",
        );
    }
    (value.starts_with('{') && value.contains("hooks")).then_some("turns hooks off")
}

/// Codex's name for hooks, as a feature and as a settings table, and the
/// feature's older name.
fn is_hooks_name(name: &str) -> bool {
    matches!(name, "hooks" | "codex_hooks")
}

/// oh-my-pi: `--no-extensions` leaves out the extension that runs Tama, an
/// extension added with `-e` can unhook it, a profile reads another agent
/// folder, without it, and a `--config` overlay may disable it.
fn omp(walker: &Walker<'_>, args: &[String]) -> Option<String> {
    if args.iter().any(|arg| arg == "--no-extensions") {
        return Some("`--no-extensions` leaves out the extension that runs Tama".to_owned());
    }
    // An extension runs in oh-my-pi's process with no isolation: one the
    // command adds can unhook the extension that runs Tama.
    if let Some(extension) = option_values(args, &["-e", "--extension", "--hook"]).first() {
        return Some(format!(
            "`{}` loads an extension beside the one that runs Tama, in the same process, where it can unhook it",
            shown(extension)
        ));
    }
    if let Some(profile) = option_values(args, &["--profile"]).first() {
        return Some(format!(
            "`--profile {}` reads another agent folder, without the extension that runs Tama",
            shown(profile)
        ));
    }
    // A settings overlay may list Tama's extension in `disabledExtensions`.
    option_values(args, &["--config"])
        .into_iter()
        .find_map(|overlay| match walker.written(&walker.resolve(&overlay)) {
            Some(text) if !text.to_ascii_lowercase().contains("extensions") => None,
            Some(_) => Some(format!(
                "its `--config {}` turns extensions off",
                shown(&overlay)
            )),
            None => Some(format!(
                "its `--config {}` comes from a file Tama cannot see, which may turn off the extension that runs Tama",
                shown(&overlay)
            )),
        })
}
