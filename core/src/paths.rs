//! Where Tama keeps its files.

use std::path::PathBuf;

/// Tama's own folder: `TAMA_HOME`, else `~/.tama`.
pub fn tama_home() -> PathBuf {
    env_path("TAMA_HOME").unwrap_or_else(|| home().join(".tama"))
}

/// Compiled gate components: `TAMA_CACHE_DIR`, else `tama` in the user's cache folder.
pub fn cache_dir() -> PathBuf {
    env_path("TAMA_CACHE_DIR")
        .or_else(|| dirs::cache_dir().map(|d| d.join("tama")))
        .unwrap_or_else(|| tama_home().join("cache"))
}

/// The `tama` running now, by its absolute, resolved path.
pub fn this_tama() -> Result<PathBuf, String> {
    std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .map_err(|e| format!("cannot tell where this tama is: {e}"))
}

/// Oko's folder: `OKO_HOME`, else `~/.oko`.
pub fn oko_home() -> PathBuf {
    env_path("OKO_HOME").unwrap_or_else(|| home().join(".oko"))
}

/// The user's home folder; `/` when none is known, so paths stay absolute.
pub fn home() -> PathBuf {
    dirs::home_dir().unwrap_or_else(|| PathBuf::from("/"))
}

fn env_path(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}
