//! Files whose entries a task runner or a git hook manager hands a shell
//! when it is asked to run one, or when git runs its hooks: a package
//! manifest's scripts (`npm run`, `yarn`, `pnpm`, `bun run`, and the
//! `pre`/`post` scripts `npm install` or `npm test` run unasked) and the
//! hooks husky, lint-staged and simple-git-hooks keep in it or in files of
//! their own, Deno's and Composer's tasks, a justfile's recipes, a
//! Taskfile's commands, lefthook's and pre-commit's hook commands, and the
//! scripts and tasks of a `pyproject.toml` (PDM, Poe, Hatch) or a
//! `mise.toml`.

use crate::prelude::*;
use serde_json::Value;

/// The shell commands a task file at `name` (its file name) holds, or none
/// when `name` is no task file.
pub fn commands(name: &str, content: &str) -> Option<Vec<String>> {
    let lower = name.to_ascii_lowercase();
    if matches!(
        name,
        "package.json" | "deno.json" | "deno.jsonc" | "composer.json"
    ) {
        return Some(manifest_scripts(content));
    }
    if lower == "justfile" || lower == ".justfile" || lower.ends_with(".just") {
        return Some(just_recipes(content));
    }
    let yaml = lower.ends_with(".yml") || lower.ends_with(".yaml");
    let stem = lower.trim_start_matches('.');
    if yaml && lower.starts_with("taskfile") {
        return Some(yaml_commands(content, "cmd", true));
    }
    if yaml && (stem.starts_with("lefthook.") || stem.starts_with("lefthook-local.")) {
        return Some(yaml_commands(content, "run", false));
    }
    if yaml && matches!(stem, "pre-commit-config.yaml" | "pre-commit-config.yml") {
        return Some(yaml_commands(content, "entry", false));
    }
    if matches!(
        stem,
        "huskyrc" | "huskyrc.json" | "lintstagedrc" | "lintstagedrc.json" | "simple-git-hooks.json"
    ) {
        return Some(hook_manager_commands(content));
    }
    if matches!(stem, "pyproject.toml" | "mise.toml" | "mise.local.toml") {
        return Some(toml_tasks(content));
    }
    None
}

/// Every script of a manifest: the values under `scripts` and `tasks`, each
/// a command, a list of them or an object with a `command`. Text that is not
/// a whole manifest (an edit's new text) gives every string it holds as a
/// value rather than a key: which object it lands in cannot be told.
fn manifest_scripts(content: &str) -> Vec<String> {
    let Ok(manifest) = serde_json::from_str::<Value>(content) else {
        return value_strings(content);
    };
    let mut found = Vec::new();
    for key in ["scripts", "tasks"] {
        if let Some(Value::Object(scripts)) = manifest.get(key) {
            for script in scripts.values() {
                commands_of(script, &mut found);
            }
        }
    }
    for key in ["husky", "lint-staged", "simple-git-hooks"] {
        if let Some(hooks) = manifest.get(key) {
            strings_in(hooks, &mut found);
        }
    }
    found
}

/// Every string of a git hook manager's own file (`.huskyrc`,
/// `.lintstagedrc`, `.simple-git-hooks.json`), each a command it runs; the
/// JSON string literals of one it cannot read whole.
fn hook_manager_commands(content: &str) -> Vec<String> {
    let Ok(hooks) = serde_json::from_str::<Value>(content) else {
        return value_strings(content);
    };
    let mut found = Vec::new();
    strings_in(&hooks, &mut found);
    found
}

/// Every string in `value`, at any depth.
fn strings_in(value: &Value, found: &mut Vec<String>) {
    match value {
        Value::String(text) => found.push(text.clone()),
        Value::Array(values) => values.iter().for_each(|v| strings_in(v, found)),
        Value::Object(entries) => entries.values().for_each(|v| strings_in(v, found)),
        _ => {}
    }
}

fn commands_of(script: &Value, found: &mut Vec<String>) {
    match script {
        Value::String(command) => found.push(command.clone()),
        Value::Array(commands) => commands.iter().for_each(|c| commands_of(c, found)),
        Value::Object(task) => {
            if let Some(command) = task.get("command").or_else(|| task.get("cmd")) {
                commands_of(command, found);
            }
        }
        _ => {}
    }
}

/// A package manager asked to run one of `package.json`'s scripts with
/// words of its own, which the manager puts after the script's command
/// (`npm run commit -- -n`, `yarn commit -n`): the script's name and those
/// words. npm takes them only after `--`; yarn, pnpm and bun take every
/// word after the name.
pub fn script_call<'a>(manager: &str, args: &[&'a str]) -> Option<(&'a str, Vec<&'a str>)> {
    let at = args.iter().position(|arg| !arg.starts_with('-'))?;
    let (first, rest) = (args[at], &args[at + 1..]);
    let (name, rest) = match (manager, first) {
        ("npm", "run" | "run-script" | "rum" | "urn") | ("yarn" | "pnpm" | "bun", "run") => {
            rest.split_first()?
        }
        ("npm", "test" | "t" | "tst" | "start" | "stop" | "restart") => (&first, rest),
        ("yarn" | "pnpm" | "bun", _) => (&first, rest),
        _ => return None,
    };
    let words: Vec<&str> = match manager {
        "npm" => rest
            .iter()
            .skip_while(|word| **word != "--")
            .skip(1)
            .copied()
            .collect(),
        _ => rest.iter().copied().filter(|word| *word != "--").collect(),
    };
    (!words.is_empty()).then_some((*name, words))
}

/// The programs a cargo configuration file has cargo start, one command
/// each ([`cargo_setting_command`]).
pub fn cargo_config_commands(content: &str) -> Vec<String> {
    content
        .lines()
        .filter_map(|line| line.split_once('='))
        .filter_map(|(key, value)| cargo_setting_command(key, value))
        .collect()
}

/// The command a cargo setting (`KEY = VALUE` in a configuration file, or
/// `cargo --config KEY=VALUE`) has cargo start: a target's `runner` and
/// `linker`, and `rustc`, `rustdoc` and the wrappers of `[build]`, given as
/// a string (split at blanks) or a list of the program and its arguments.
pub fn cargo_setting_command(key: &str, value: &str) -> Option<String> {
    let name = key.trim().rsplit('.').next()?;
    let runs = matches!(
        name,
        "runner" | "linker" | "rustc" | "rustdoc" | "rustc-wrapper" | "rustc-workspace-wrapper"
    );
    if !runs {
        return None;
    }
    let strings = value.split(['"', '\'']).skip(1).step_by(2);
    let command = match value.trim_start().starts_with('[') {
        true => strings
            .map(crate::interpreters::quoted)
            .collect::<Vec<_>>()
            .join(" "),
        false => strings.collect::<Vec<_>>().join(" "),
    };
    Some(match command.is_empty() {
        true => value.trim().to_owned(),
        false => command,
    })
    .filter(|command| !command.is_empty())
}

/// The command of the script `name` in the manifest `content`.
pub fn manifest_script(content: &str, name: &str) -> Option<String> {
    let manifest: Value = serde_json::from_str(content).ok()?;
    let script = manifest.get("scripts")?.get(name)?;
    script.as_str().map(str::to_owned)
}

/// The scripts a package manager's command puts into `package.json`, to be
/// run later: `npm pkg set scripts.<name>=<command>` (also `scripts[<name>]`,
/// and `scripts={…}` with `--json`) and `npm set-script <name> <command>`;
/// `pnpm`, `yarn` and `bun pm` take the same words.
pub fn scripts_set(args: &[&str]) -> Vec<String> {
    let words: Vec<&str> = args
        .iter()
        .copied()
        .filter(|arg| !arg.starts_with('-'))
        .skip_while(|word| *word == "pm")
        .collect();
    match words.as_slice() {
        ["set-script", _, command, ..] => vec![(*command).to_owned()],
        ["pkg", "set", settings @ ..] => settings
            .iter()
            .flat_map(|setting| {
                let (key, value) = setting.split_once('=').unwrap_or((setting, ""));
                if key == "scripts" {
                    return manifest_scripts(&format!("{{\"scripts\":{value}}}"));
                }
                let named = key.starts_with("scripts.") || key.starts_with("scripts[");
                named.then(|| value.to_owned()).into_iter().collect()
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Every JSON string literal in `text` that is not followed by a `:`.
pub(super) fn value_strings(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find('"') {
        let literal = &rest[start..];
        let mut escaped = false;
        let end = literal[1..].char_indices().find_map(|(i, c)| {
            let closes = c == '"' && !escaped;
            escaped = c == '\\' && !escaped;
            closes.then_some(i + 2)
        });
        let Some(end) = end else { break };
        let after = literal[end..].trim_start();
        if !after.starts_with(':')
            && let Ok(value) = serde_json::from_str::<String>(&literal[..end])
        {
            found.push(value);
        }
        rest = &literal[end..];
    }
    found
}

/// A justfile's recipe lines, as `just` hands them to the shell: the
/// indented lines under a recipe, without the `@` and `-` prefixes.
fn just_recipes(justfile: &str) -> Vec<String> {
    justfile
        .lines()
        .filter(|line| line.starts_with([' ', '\t']))
        .map(|line| line.trim().trim_start_matches(['@', '-']).to_owned())
        .filter(|line| !line.is_empty())
        .collect()
}

/// The commands of a YAML file: every `key:` value (a Taskfile's `cmd:`,
/// lefthook's `run:`, pre-commit's `entry:`), with `list_items` every list
/// item too (a Taskfile's `- git push`), and the lines of a block (`- |`)
/// under them, unquoted. Items that are no command (`- build` under a
/// Taskfile's `deps:`) read as harmless commands.
pub(super) fn yaml_commands(yaml: &str, key: &str, list_items: bool) -> Vec<String> {
    let mut found = Vec::new();
    let mut block: Option<usize> = None;
    for line in yaml.lines() {
        let indent = line.len() - line.trim_start().len();
        if let Some(outer) = block {
            if indent > outer || line.trim().is_empty() {
                found.push(line.trim().to_owned());
                continue;
            }
            block = None;
        }
        let item = line.trim_start();
        let item = item.strip_prefix("- ").unwrap_or(item).trim_start();
        let listed = list_items && item.len() < line.trim_start().len();
        let keyed = item
            .strip_prefix(key)
            .and_then(|rest| rest.strip_prefix(':'));
        let Some(value) = keyed.or_else(|| listed.then_some(item)) else {
            continue;
        };
        match value.trim() {
            "|" | ">" | "|-" | ">-" => block = Some(indent),
            value => found.push(unquoted(value).to_owned()),
        }
    }
    found.retain(|command| !command.is_empty());
    found
}

/// Every quoted string in the tables of a TOML file that hold scripts or
/// tasks (`[tool.pdm.scripts]`, `[tool.poe.tasks]`, a Hatch environment's
/// `scripts`, mise's `[tasks.build]`), each a command or a piece of one.
fn toml_tasks(toml: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut in_tasks = false;
    for line in toml.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_tasks = line.contains("scripts") || line.contains("tasks");
            continue;
        }
        if in_tasks && let Some((_, value)) = line.split_once('=') {
            found.extend(quoted_strings(value));
        }
    }
    found
}

/// The strings quoted with `"` or `'` in `text`, without their quotes.
fn quoted_strings(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(['"', '\'']) {
        let quote = &rest[start..start + 1];
        let inner = &rest[start + 1..];
        let Some(end) = inner.find(quote) else { break };
        found.push(inner[..end].to_owned());
        rest = &inner[end + 1..];
    }
    found
}

/// A YAML scalar without the quotes around it.
fn unquoted(value: &str) -> &str {
    for quote in ['"', '\''] {
        if let Some(inner) = value
            .strip_prefix(quote)
            .and_then(|v| v.strip_suffix(quote))
        {
            return inner;
        }
    }
    value
}

#[cfg(test)]
mod tests {
    use super::commands;

    #[test]
    fn the_programs_a_cargo_configuration_starts() {
        let config = "[build]\nrustc-wrapper = \"sccache\"\n[target.x]\nrunner = [\"sh\", \"-c\", \"echo hi\"]\nrustflags = [\"-C\", \"x\"]\n";
        assert_eq!(
            super::cargo_config_commands(config),
            ["sccache", "'sh' '-c' 'echo hi'"]
        );
        assert_eq!(
            super::cargo_setting_command("target.x.linker", "\"clang -v\""),
            Some("clang -v".to_owned())
        );
        assert_eq!(
            super::cargo_setting_command("profile.release.lto", "true"),
            None
        );
    }

    #[test]
    fn words_a_package_manager_puts_after_a_script_are_found() {
        use super::script_call;
        assert_eq!(
            script_call("npm", &["run", "commit", "--", "-n", "-m", "x"]),
            Some(("commit", vec!["-n", "-m", "x"]))
        );
        assert_eq!(
            script_call("npm", &["test", "--", "--watch"]),
            Some(("test", vec!["--watch"]))
        );
        assert_eq!(script_call("npm", &["run", "commit", "-n"]), None);
        assert_eq!(
            script_call("yarn", &["commit", "-n"]),
            Some(("commit", vec!["-n"]))
        );
        assert_eq!(
            script_call("pnpm", &["run", "push", "--no-verify"]),
            Some(("push", vec!["--no-verify"]))
        );
        assert_eq!(script_call("npm", &["install", "x"]), None);
        assert_eq!(script_call("npm", &["run", "build"]), None);
    }

    #[test]
    fn a_manifests_scripts_and_tasks() {
        let manifest = r#"{"name":"a","description":"git commit --no-verify","scripts":{"test":"jest","ship":["git push"]}}"#;
        let mut scripts = commands("package.json", manifest).unwrap();
        scripts.sort();
        assert_eq!(scripts, ["git push", "jest"]);
        assert_eq!(
            commands(
                "deno.json",
                r#"{"tasks":{"dev":{"command":"deno run x.ts"}}}"#
            )
            .unwrap(),
            ["deno run x.ts"]
        );
        assert_eq!(commands("README.md", manifest), None);
    }

    #[test]
    fn an_edit_of_a_manifest_gives_its_values() {
        assert_eq!(
            commands("package.json", r#""c": "rm -rf \"x\"", "d": "ls""#).unwrap(),
            ["rm -rf \"x\"", "ls"]
        );
    }

    #[test]
    fn scripts_a_package_manager_sets() {
        assert_eq!(
            super::scripts_set(&["pkg", "set", "scripts.c=git commit -n", "name=x"]),
            ["git commit -n"]
        );
        assert_eq!(
            super::scripts_set(&["pkg", "set", r#"scripts={"c":"ls"}"#, "--json"]),
            ["ls"]
        );
        assert_eq!(super::scripts_set(&["set-script", "c", "ls -l"]), ["ls -l"]);
        assert_eq!(
            super::scripts_set(&["pm", "pkg", "set", "scripts[c]=pwd"]),
            ["pwd"]
        );
        assert!(super::scripts_set(&["run", "c"]).is_empty());
    }

    #[test]
    fn the_commands_git_hook_managers_run() {
        let manifest = r#"{"husky":{"hooks":{"pre-commit":"npm test"}},"lint-staged":{"*.js":["eslint --fix"]}}"#;
        let mut found = commands("package.json", manifest).unwrap();
        found.sort();
        assert_eq!(found, ["eslint --fix", "npm test"]);
        assert_eq!(
            commands(".huskyrc", r#"{"hooks":{"pre-push":"make check"}}"#).unwrap(),
            ["make check"]
        );
        let lefthook = "pre-commit:\n  commands:\n    lint:\n      glob: \"*.rs\"\n      run: cargo fmt --check\n";
        assert_eq!(
            commands("lefthook.yml", lefthook).unwrap(),
            ["cargo fmt --check"]
        );
        let pre_commit = "repos:\n- repo: local\n  hooks:\n  - id: fmt\n    name: fmt\n    entry: cargo fmt --check\n    language: system\n";
        assert_eq!(
            commands(".pre-commit-config.yaml", pre_commit).unwrap(),
            ["cargo fmt --check"]
        );
        assert_eq!(
            commands("mise.toml", "[tasks.build]\nrun = \"cargo build\"\n").unwrap(),
            ["cargo build"]
        );
    }

    #[test]
    fn a_taskfiles_commands() {
        let taskfile = "version: '3'\ntasks:\n  ship:\n    deps: [build]\n    cmds:\n      - git add -A\n      - cmd: \"git push\"\n      - |\n        echo a\n        echo b\n  build:\n    cmds:\n      - go build\n";
        assert_eq!(
            commands("Taskfile.yml", taskfile).unwrap(),
            ["git add -A", "git push", "echo a", "echo b", "go build"]
        );
    }

    #[test]
    fn a_pyprojects_scripts_and_tasks() {
        let pyproject = "[project]\nname = \"x\"\n[tool.pdm.scripts]\nlint = \"ruff check\"\nship = {cmd = 'git push'}\n[tool.poe.tasks]\nclean = \"rm -rf dist\"\n";
        assert_eq!(
            commands("pyproject.toml", pyproject).unwrap(),
            ["ruff check", "git push", "rm -rf dist"]
        );
    }

    #[test]
    fn a_justfiles_recipes() {
        assert_eq!(
            commands(
                "justfile",
                "set shell := [\"bash\", \"-c\"]\nship:\n    @git push\n\t-rm x\n"
            )
            .unwrap(),
            ["git push", "rm x"]
        );
    }
}
