//! What the gate protects, built from the paths the host hands it.

use crate::prelude::*;

use core::cell::OnceCell;

use crate::paths::{has_upper, meet, normalize};

/// The file whose key authenticates operator records: refused even to read.
pub const KEY_FILE: &str = "control.key";

/// Whether `text` spells the key file's name, in any case (see [`meet`]).
pub fn spells_key(text: &str) -> bool {
    text.contains(KEY_FILE) || (has_upper(text) && text.to_ascii_lowercase().contains(KEY_FILE))
}

/// How a command changes a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Writes, creates or changes the mode of the path itself.
    Write,
    /// Deletes or moves it away, or changes a whole tree: a folder that
    /// holds a protected path counts too.
    Remove,
}

/// One protected path and what it is, for the refusal.
struct Entry {
    path: String,
    what: &'static str,
}

/// The paths the gate protects.
pub struct Protected {
    entries: Vec<Entry>,
    pub home: String,
    pub tama_home: String,
    pub key: String,
    pub tama_binary: String,
    /// Follows the symbolic links on disk along an absolute path
    /// (`tama:gate/files.follow`); none where nothing is followed.
    follow: fn(&str) -> Option<String>,
    /// Where those of the paths above that are links lead, and the key's
    /// path with its links followed: found when first asked for.
    linked: OnceCell<Linked>,
}

/// Protected paths as their links on disk lead: `~/.claude/settings.json`
/// kept as a link into a dotfiles repository is changed there too.
struct Linked {
    entries: Vec<Entry>,
    key: Option<String>,
}

/// The host's paths, as `tama:gate/host-paths` gives them.
pub struct HostPaths {
    pub home: String,
    pub tama_home: String,
    pub registry: Option<String>,
    pub registry_components: Vec<String>,
    pub cache_dir: String,
    pub tama_binary: String,
    pub oko_home: String,
}

impl Protected {
    pub fn new(host: &HostPaths) -> Self {
        let home = clean(&host.home);
        let tama_home = clean(&host.tama_home);
        // `rest` is normal already: joined to a normal home, so is the whole.
        let at_home = |rest: &str| [home.trim_end_matches('/'), rest].join("/");
        let mut entries = vec![
            entry(
                tama_home.clone(),
                "Tama's home (session records, overrides, capabilities, peers, tama.log)",
            ),
            entry(
                at_home(".shared-hooks"),
                "the installed hook registry, its components and engine",
            ),
            entry(clean(&host.cache_dir), "Tama's compile cache"),
            entry(clean(&host.tama_binary), "the tama binary"),
            entry(clean(&host.oko_home), "the Oko state"),
            entry(
                at_home(".claude/settings.json"),
                "Claude Code's hook settings",
            ),
            entry(at_home(".codex/hooks.json"), "Codex's hook configuration"),
            entry(at_home(".codex/config.toml"), "Codex's hook trust"),
            entry(at_home(".omp/agent/extensions"), "oh-my-pi's extensions"),
            entry(at_home(".omp/agent/settings.json"), "oh-my-pi's settings"),
            entry(at_home(".omp/agent/config.yml"), "oh-my-pi's settings"),
            // Managed settings outrank the user's: they can turn every hook
            // off (`disableAllHooks`) or allow only managed ones.
            entry(
                "/etc/claude-code".to_owned(),
                "Claude Code's managed settings",
            ),
            entry(
                "/Library/Application Support/ClaudeCode".to_owned(),
                "Claude Code's managed settings",
            ),
            entry(
                "/etc/codex".to_owned(),
                "Codex's managed configuration and requirements",
            ),
        ];
        if let Some(registry) = &host.registry {
            entries.push(entry(clean(registry), "the hook registry in use"));
        }
        for component in &host.registry_components {
            entries.push(entry(
                clean(component),
                "a component of the hook registry in use",
            ));
        }
        entries.retain(|entry| entry.path.len() > 1);
        Protected {
            key: format!("{tama_home}/{KEY_FILE}"),
            entries,
            home,
            tama_home,
            tama_binary: clean(&host.tama_binary),
            follow: |_| None,
            linked: OnceCell::new(),
        }
    }

    /// These paths, checked also where the links on disk along a path
    /// lead (`follow`): a link made by an earlier call (`ln -s ~/.claude
    /// cfg`, a link checked out or unpacked) reaches what it points at.
    pub fn following_links(self, follow: fn(&str) -> Option<String>) -> Self {
        Protected {
            follow,
            linked: OnceCell::new(),
            ..self
        }
    }

    /// Where the links on disk along the absolute `path` lead, when
    /// anywhere else.
    pub fn followed(&self, path: &str) -> Option<String> {
        if !path.starts_with('/') || path.contains(shell_reader::field::UNKNOWN) {
            return None;
        }
        (self.follow)(path).map(|followed| clean(&followed))
    }

    fn linked(&self) -> &Linked {
        self.linked.get_or_init(|| Linked {
            entries: self
                .entries
                .iter()
                .filter_map(|protected| {
                    Some(entry(self.followed(&protected.path)?, protected.what))
                })
                .collect(),
            key: self.followed(&self.key),
        })
    }

    /// What `path` (resolved) would change of Tama's, if anything.
    pub fn hit(&self, path: &str, change: Change) -> Option<String> {
        // Read without regard to case, as [`meet`] reads it.
        let folded;
        let path = if has_upper(path) {
            folded = path.to_ascii_lowercase();
            &folded
        } else {
            path
        };
        for entry in self.entries.iter().chain(&self.linked().entries) {
            let meeting = meet(path, &entry.path);
            if meeting.inside || (change == Change::Remove && meeting.ancestor) {
                return Some(format!("{} at {}", entry.what, entry.path));
            }
        }
        harness_paths(path, change)
    }

    /// What protected path `code` spells, absolute or under the home folder
    /// in pieces (`Path.home() / ".claude" / "settings.json"`), relative to
    /// the working folder `cwd`, or works on by running in it.
    pub fn spelled_in(&self, code: &str, cwd: &str) -> Option<String> {
        for entry in &self.entries {
            let under_home = entry
                .path
                .strip_prefix(self.home.as_str())
                .and_then(|rest| rest.strip_prefix('/'))
                .filter(|_| self.home.len() > 1);
            // Relative to the working folder: `settings.json` in `~/.claude`.
            let below_cwd = entry
                .path
                .strip_prefix(cwd)
                .and_then(|rest| rest.strip_prefix('/'))
                .filter(|_| cwd.len() > 1);
            let spelled = code.contains(entry.path.as_str())
                || crate::paths::within(cwd, &entry.path)
                || below_cwd.is_some_and(|relative| code.contains(relative))
                || under_home.is_some_and(|rest| {
                    let first = rest.split('/').next().unwrap_or(rest);
                    let last = rest.rsplit('/').next().unwrap_or(rest);
                    code.contains(first) && code.contains(last)
                });
            if spelled {
                return Some(format!("{} at {}", entry.what, entry.path));
            }
        }
        let project = (code.contains(".claude") && code.contains("settings"))
            || (code.contains(".codex")
                && (code.contains("hooks.json") || code.contains("config.toml")))
            || (code.contains(".omp")
                && (code.contains("settings") || code.contains("extensions")));
        if project {
            return Some("a harness's hook settings".to_owned());
        }
        // What `harness_package` and `loaded_by_omp` protect, spelled in code.
        let harness_code = HARNESS_PACKAGES
            .iter()
            .any(|(package, _)| code.contains(package.trim_start_matches('/')))
            || (code.contains(".omp")
                && ["hooks", "plugins", "profiles"]
                    .iter()
                    .any(|folder| code.contains(folder)))
            || (code.contains(".claude")
                && (code.contains("hooks/pre") || code.contains("hooks/post")));
        harness_code.then(|| "a harness's installed code or code oh-my-pi imports".to_owned())
    }

    /// Whether `path` (resolved, perhaps a glob) names a folder that holds
    /// the key file.
    pub fn holds_key(&self, path: &str) -> bool {
        !self.tama_home.is_empty()
            && (meet(path, &self.key).ancestor
                || (self.linked().key.as_deref()).is_some_and(|key| meet(path, key).ancestor))
    }

    /// Whether `path` (resolved, perhaps a glob) is the folder that holds the
    /// key file, or a folder below it: a search that skips hidden folders
    /// still reads the key from there.
    pub fn in_key_folder(&self, path: &str) -> bool {
        let folder = |key: &str| key.rsplit_once('/').map(|(folder, _)| folder.to_owned());
        !self.tama_home.is_empty()
            && folder(&self.key)
                .into_iter()
                .chain(self.linked().key.as_deref().and_then(folder))
                .any(|folder| meet(path, &folder).inside)
    }

    /// Whether `path` (resolved, perhaps a glob or with parts the gate
    /// cannot know) names the key file. What follows the last open part
    /// must end the key's path: `~/$(whoami).txt` is no key.
    pub fn names_key(&self, path: &str) -> bool {
        if self.tama_home.is_empty() {
            return false;
        }
        let known_end = path
            .rsplit([shell_reader::field::UNKNOWN, '*', '?', ']'])
            .next()
            .unwrap_or(path);
        let names = |key: &str| {
            let key_bytes = key.as_bytes();
            key_bytes.len() >= known_end.len()
                && key_bytes[key_bytes.len() - known_end.len()..]
                    .eq_ignore_ascii_case(known_end.as_bytes())
                && meet(path, key).inside
        };
        names(&self.key) || self.linked().key.as_deref().is_some_and(names)
    }
}

/// What `path` would change of a harness, wherever it lies: a project's
/// `.claude/settings*.json`, Codex's hook files and configuration layers
/// (`hooks.json`, `config.toml`, a profile's `<name>.config.toml`, in the
/// home's `.codex` too), oh-my-pi's project settings and extensions (it
/// loads a project's extensions before the user's, with no trust prompt,
/// so one there runs before Tama's adapter and can unhook it; its project
/// settings can disable the adapter, `disabledExtensions`), a harness's
/// installed code (`harness_package`), the code oh-my-pi imports
/// (`loaded_by_omp`), and `/etc/ld.so.preload`.
fn harness_paths(path: &str, change: Change) -> Option<String> {
    let mut components = path.rsplit('/');
    let last = components.next().unwrap_or("");
    let parent = components.next().unwrap_or("");
    let grandparent = components.next().unwrap_or("");
    let settings_json = last.starts_with("settings") && last.ends_with(".json");
    let settings = match parent {
        ".claude" => settings_json || last.contains('*'),
        // `<name>.config.toml` is a profile's layer over `config.toml`.
        ".codex" => {
            matches!(last, "hooks.json" | "config.toml")
                || last.ends_with(".config.toml")
                || last.contains('*')
        }
        ".omp" => {
            settings_json
                || matches!(last, "config.yml" | "config.yaml" | "extensions")
                || last.contains('*')
        }
        _ => false,
    };
    let extension = parent == "extensions" && grandparent == ".omp";
    let removed = change == Change::Remove && matches!(last, ".claude" | ".codex" | ".omp");
    if let Some(harness) = harness_package(path) {
        let path = crate::walk::shown(path);
        return Some(format!(
            "the installed code of {harness}, which later sessions run as it stands ({path})"
        ));
    }
    if change == Change::Write && path == "/etc/ld.so.preload" {
        return Some(
            "the libraries every program loads first, Tama and the harnesses among them (/etc/ld.so.preload)"
                .to_owned(),
        );
    }
    if change == Change::Write && loaded_by_omp(path) {
        let path = crate::walk::shown(path);
        return Some(format!(
            "code oh-my-pi loads into its process beside the extension that runs Tama, where it can unhook it ({path})"
        ));
    }
    (settings || extension || removed).then(|| {
        let path = crate::walk::shown(path);
        format!("a harness's hook settings ({path})")
    })
}

/// The harness whose installed code `path` lies in: its npm packages
/// (oh-my-pi runs from its TypeScript sources, Codex's launcher and
/// Claude Code's wrapper are scripts, their native programs sit beside
/// them) and Claude Code's own installer's versions. Changing a file there
/// changes what the harness does, its hooks' handling included.
fn harness_package(path: &str) -> Option<&'static str> {
    // A package name is whole when a `/` or its platform's `-…` follows;
    // a scope ends with its `/`.
    let within = |package: &str| {
        path.match_indices(package).any(|(at, _)| {
            package.ends_with('/')
                || matches!(
                    path.as_bytes().get(at + package.len()),
                    None | Some(b'/' | b'-')
                )
        })
    };
    if path.contains("/.local/share/claude/") || path.ends_with("/.local/share/claude") {
        return Some("Claude Code");
    }
    HARNESS_PACKAGES
        .iter()
        .find(|(package, _)| within(package))
        .map(|(_, harness)| *harness)
}

/// Whether an npm package spec (`@openai/codex`, `@anthropic-ai/claude-code@1.0`)
/// names a harness's package.
pub fn names_harness_package(spec: &str) -> bool {
    HARNESS_PACKAGES.iter().any(|(package, _)| {
        let package = package.trim_start_matches('/');
        spec.strip_prefix(package)
            .is_some_and(|rest| package.ends_with('/') || rest.is_empty() || rest.starts_with('@'))
    })
}

/// The npm packages (or scope) each harness is installed as.
const HARNESS_PACKAGES: &[(&str, &str)] = &[
    ("/@anthropic-ai/claude-code", "Claude Code"),
    ("/@openai/codex", "Codex"),
    ("/@oh-my-pi/", "oh-my-pi"),
];

/// Whether `path` is, or holds, code oh-my-pi imports into its process at
/// start, wherever the folder is (the home's or a project's): the hooks in
/// `hooks/pre/` and `hooks/post/` of its own folders (`.omp`, `.omp/agent`)
/// and of Claude Code's, Codex's `hooks/pre-*` and `hooks/post-*`, its
/// plugins and Claude Code's with the registries that list them
/// (`installed_plugins.json`), and its profiles, each an agent folder of
/// its own.
fn loaded_by_omp(path: &str) -> bool {
    let parts: Vec<&str> = path.split('/').collect();
    parts.iter().enumerate().any(|(at, part)| {
        let rest = &parts[at + 1..];
        match *part {
            ".omp" => {
                let rest = rest.strip_prefix(&["agent"]).unwrap_or(rest);
                matches!(rest, ["hooks"] | ["hooks", "pre" | "post", ..])
                    || matches!(rest, ["plugins" | "profiles", ..])
            }
            ".claude" => matches!(
                rest,
                ["hooks", "pre" | "post", ..] | ["hooks"] | ["plugins", ..]
            ),
            ".codex" => match rest {
                ["hooks", name, ..] => name.starts_with("pre-") || name.starts_with("post-"),
                ["hooks"] => true,
                _ => false,
            },
            _ => false,
        }
    })
}

fn entry(path: String, what: &'static str) -> Entry {
    Entry { path, what }
}

/// A host path, normalized; empty stays empty.
fn clean(path: &str) -> String {
    if path.is_empty() {
        String::new()
    } else {
        normalize(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn protected(home: &str) -> Protected {
        Protected::new(&HostPaths {
            home: home.to_owned(),
            tama_home: format!("{home}/.tama"),
            registry: None,
            registry_components: Vec::new(),
            cache_dir: String::new(),
            tama_binary: String::new(),
            oko_home: String::new(),
        })
    }

    /// The home's files are protected however the host spells the home.
    #[test]
    fn home_files_are_protected_for_any_spelling_of_the_home() {
        for (home, file) in [
            ("/h", "/h/.codex/hooks.json"),
            ("/h/", "/h/.codex/hooks.json"),
            ("//h/./", "/h/.codex/hooks.json"),
            ("/", "/.codex/hooks.json"),
        ] {
            let hit = protected(home).hit(file, Change::Write);
            assert!(
                hit.as_deref() == Some(&format!("Codex's hook configuration at {file}")[..]),
                "{home}: {hit:?}"
            );
        }
    }
}
