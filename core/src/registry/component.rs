//! Where a wasm hook's component may be: inside the registry's folder. An
//! absolute path, a `..` or a symbolic link leading out would let whoever
//! writes the registry load a file from anywhere under a sealed name.

use std::borrow::Cow;
use std::path::{Component, Path, PathBuf};

use sha2::{Digest, Sha256};

/// `name` as a relative path that never climbs: no root, no `..`.
pub fn relative(name: &str) -> Result<&Path, &'static str> {
    let path = Path::new(name);
    if name.is_empty() {
        return Err("is empty");
    }
    for part in path.components() {
        match part {
            Component::Normal(_) | Component::CurDir => {}
            Component::ParentDir => return Err("climbs out of the registry's folder with `..`"),
            Component::RootDir | Component::Prefix(_) => {
                return Err("is an absolute path, not one inside the registry's folder");
            }
        }
    }
    Ok(path)
}

/// The file `name` names inside `folder`, once every symbolic link on the
/// way is resolved; an error when it lies outside `folder` or cannot be found.
pub fn inside(folder: &Path, name: &str) -> Result<PathBuf, String> {
    let path = relative(name).map_err(str::to_string)?;
    let folder = folder
        .canonicalize()
        .map_err(|e| format!("the registry's folder {}: {e}", folder.display()))?;
    let file = folder.join(path);
    let real = file
        .canonicalize()
        .map_err(|e| format!("{}: {e}", file.display()))?;
    if !real.starts_with(&folder) {
        return Err(format!(
            "{} leads out of the registry's folder {} (to {})",
            file.display(),
            folder.display(),
            real.display()
        ));
    }
    Ok(real)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_paths_inside_the_folder_pass() {
        assert!(relative("gates/a.wasm").is_ok());
        assert!(relative("../a.wasm").is_err());
        assert!(relative("gates/../../a.wasm").is_err());
        assert!(relative("/etc/a.wasm").is_err());
        assert!(relative("").is_err());
    }
}

/// A component's bytes and the sha256 they were checked against.
#[derive(Clone)]
pub struct ComponentBytes {
    pub bytes: Cow<'static, [u8]>,
    pub sha256: String,
}

impl ComponentBytes {
    /// Bytes read from a file, which must digest to `declared` (lower-case hex sha256).
    pub fn checked(bytes: Vec<u8>, declared: &str) -> Result<Self, String> {
        let actual = hex::encode(Sha256::digest(&bytes));
        if !actual.eq_ignore_ascii_case(declared) {
            return Err(format!(
                "component digest mismatch: expected {declared}, actual {actual}"
            ));
        }
        Ok(ComponentBytes {
            bytes: Cow::Owned(bytes),
            sha256: actual,
        })
    }

    /// Bytes built into the `tama` binary, whose digest the build computed.
    pub fn embedded(bytes: &'static [u8], sha256: &str) -> Self {
        ComponentBytes {
            bytes: Cow::Borrowed(bytes),
            sha256: sha256.to_string(),
        }
    }
}
