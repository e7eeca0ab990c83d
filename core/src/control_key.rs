//! `$TAMA_HOME/control.key`: the secret by which Tama knows a file is its
//! own. The agent Tama polices runs as the same user and can write any file
//! Tama reads; it cannot write one that carries a tag made with a key it
//! cannot read (the `protect-tama` gate refuses every tool call naming this
//! file). Compiled artifacts in the cache, session overrides and capabilities
//! carry such a tag: an HMAC-SHA256 over what they assert.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

use std::fs::OpenOptions;
use std::io::{self, Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::PathBuf;

use sha2::{Digest, Sha256};

/// Bytes of key, and of every tag.
pub const KEY_LEN: usize = 32;

/// Why the key cannot be had.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("{} does not exist, so no record can be Tama's", .0.display())]
    Missing(PathBuf),
    #[error("reading {}: {source}", path.display())]
    Read { path: PathBuf, source: io::Error },
    #[error("{} holds {len} bytes, not a key of {KEY_LEN}", path.display())]
    Malformed { path: PathBuf, len: usize },
    #[error("creating {}: {source}", path.display())]
    Create { path: PathBuf, source: io::Error },
}

/// What a tag is made for: a tag made for one purpose never verifies for another.
#[derive(Debug, Clone, Copy)]
pub enum Purpose {
    /// A compiled component in the cache.
    Artifact,
    /// A session's `<controlKey>.override.json`.
    Override,
    /// A capability in a session record.
    Capability,
}

impl Purpose {
    fn label(self) -> &'static [u8] {
        match self {
            Purpose::Artifact => b"tama artifact v1",
            Purpose::Override => b"tama override v1",
            Purpose::Capability => b"tama capability v1",
        }
    }
}

pub struct ControlKey([u8; KEY_LEN]);

impl ControlKey {
    /// `$TAMA_HOME/control.key`.
    pub fn path() -> PathBuf {
        crate::paths::tama_home().join("control.key")
    }

    /// The key; an error when there is none yet.
    pub fn read() -> Result<ControlKey, KeyError> {
        let path = Self::path();
        // Never through a link: the key is the file Tama created, or none.
        let mut file = match crate::files::open_regular(&path, nix::libc::O_NOFOLLOW) {
            Ok(file) => file,
            Err(err) if err.kind() == io::ErrorKind::NotFound => {
                return Err(KeyError::Missing(path));
            }
            Err(source) => return Err(KeyError::Read { path, source }),
        };
        let mut bytes = Vec::with_capacity(KEY_LEN + 1);
        if let Err(source) = Read::by_ref(&mut file)
            .take(KEY_LEN as u64 + 1)
            .read_to_end(&mut bytes)
        {
            return Err(KeyError::Read { path, source });
        }
        match <[u8; KEY_LEN]>::try_from(bytes.as_slice()) {
            Ok(key) => Ok(ControlKey(key)),
            Err(_) => Err(KeyError::Malformed {
                path,
                len: bytes.len(),
            }),
        }
    }

    /// The key, created 0600 in a 0700 `TAMA_HOME` when there is none. Two
    /// processes creating it at once agree on one: each writes a key of its
    /// own beside it and links it into place, which only the first does.
    pub fn read_or_create() -> Result<ControlKey, KeyError> {
        match Self::read() {
            Err(KeyError::Missing(path)) => Self::create(path),
            found => found,
        }
    }

    fn create(path: PathBuf) -> Result<ControlKey, KeyError> {
        let failed = |source: io::Error| KeyError::Create {
            path: path.clone(),
            source,
        };
        let mut key = [0u8; KEY_LEN];
        // The kernel's generator, read directly: one read of 32 bytes needs no crate.
        std::fs::File::open("/dev/urandom")
            .and_then(|mut r| r.read_exact(&mut key))
            .map_err(failed)?;
        crate::files::create_private_dir(&crate::paths::tama_home()).map_err(failed)?;
        let partial = path.with_file_name(format!(".control.key.{}.tmp", std::process::id()));
        let written = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&partial)
            .and_then(|mut f| f.write_all(&key).and_then(|_| f.sync_all()));
        let linked = written.and_then(|_| std::fs::hard_link(&partial, &path));
        let _ = std::fs::remove_file(&partial);
        match linked {
            Ok(()) => Ok(ControlKey(key)),
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => Self::read(),
            Err(err) => Err(failed(err)),
        }
    }

    /// A key of the given bytes, for tests.
    #[cfg(test)]
    pub(crate) fn from_bytes(key: [u8; KEY_LEN]) -> ControlKey {
        ControlKey(key)
    }

    /// The tag of `parts` for `purpose`: HMAC-SHA256 (RFC 2104) with the key
    /// over the purpose's label and the parts, each preceded by its length,
    /// so no two lists of parts feed the same bytes. Written out here: the
    /// `hmac` crate switches on a feature of `digest`, which wasmtime's own
    /// dependencies share, and so would rebuild all of wasmtime.
    pub fn tag(&self, purpose: Purpose, parts: &[&[u8]]) -> [u8; KEY_LEN] {
        let all = || std::iter::once(purpose.label()).chain(parts.iter().copied());
        let lengths: Vec<[u8; 8]> = all().map(|p| (p.len() as u64).to_le_bytes()).collect();
        hmac_sha256(
            &self.0,
            all().zip(&lengths).flat_map(|(part, len)| [&len[..], part]),
        )
    }

    /// [`ControlKey::tag`] in lower-case hex, as records carry it.
    pub fn tag_hex(&self, purpose: Purpose, parts: &[&[u8]]) -> String {
        hex::encode(self.tag(purpose, parts))
    }

    /// Whether `tag` is the tag of `parts` for `purpose`, compared in
    /// constant time, so how long the comparison takes says nothing of the tag.
    pub fn verifies(&self, purpose: Purpose, parts: &[&[u8]], tag: &[u8]) -> bool {
        let expected = self.tag(purpose, parts);
        tag.len() == KEY_LEN
            && expected
                .iter()
                .zip(tag)
                .fold(0u8, |differ, (a, b)| differ | (a ^ b))
                == 0
    }

    /// [`ControlKey::verifies`] for a tag in hex.
    pub fn verifies_hex(&self, purpose: Purpose, parts: &[&[u8]], tag: &str) -> bool {
        hex::decode(tag).is_ok_and(|tag| self.verifies(purpose, parts, &tag))
    }
}

/// HMAC-SHA256 (RFC 2104) of the concatenated `message` under a key of at most 64 bytes.
fn hmac_sha256<'m>(key: &[u8; KEY_LEN], message: impl Iterator<Item = &'m [u8]>) -> [u8; KEY_LEN] {
    const BLOCK: usize = 64;
    let mut padded = [0u8; BLOCK];
    padded[..key.len()].copy_from_slice(key);
    let mut inner = Sha256::new().chain_update(padded.map(|b| b ^ 0x36));
    for chunk in message {
        inner.update(chunk);
    }
    Sha256::new()
        .chain_update(padded.map(|b| b ^ 0x5c))
        .chain_update(inner.finalize())
        .finalize()
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_matches_rfc_4231() {
        // Test case 2 ("Jefe"), its key zero-padded to 32 bytes: HMAC pads
        // every key shorter than a block with zeros, so the tag is the same.
        let mut key = [0u8; KEY_LEN];
        key[..4].copy_from_slice(b"Jefe");
        let tag = hmac_sha256(
            &key,
            [&b"what do ya want "[..], b"for nothing?"].into_iter(),
        );
        assert_eq!(
            hex::encode(tag),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn a_tag_verifies_only_for_its_key_purpose_and_parts() {
        let key = ControlKey::from_bytes([7; KEY_LEN]);
        let tag = key.tag(Purpose::Override, &[b"ab", b"c"]);
        assert!(key.verifies(Purpose::Override, &[b"ab", b"c"], &tag));
        assert!(
            !key.verifies(Purpose::Override, &[b"a", b"bc"], &tag),
            "parts are length-prefixed"
        );
        assert!(!key.verifies(Purpose::Capability, &[b"ab", b"c"], &tag));
        assert!(!ControlKey::from_bytes([8; KEY_LEN]).verifies(
            Purpose::Override,
            &[b"ab", b"c"],
            &tag
        ));
        assert!(!key.verifies_hex(Purpose::Override, &[b"ab", b"c"], "not hex"));
    }
}
