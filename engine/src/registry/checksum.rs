//! The registry's `catalogChecksum`: the sha256, in lower-case hex, of the
//! registry with that one key removed, serialized with sorted keys, no spaces
//! and non-ASCII characters unescaped, as the existing Tama installer does.

use serde_json::Value;
use sha2::{Digest, Sha256};

pub const CHECKSUM_KEY: &str = "catalogChecksum";

/// The checksum `registry` should declare.
pub fn catalog_checksum(registry: &Value) -> String {
    let mut unsealed = registry.clone();
    if let Value::Object(fields) = &mut unsealed {
        fields.remove(CHECKSUM_KEY);
    }
    // serde_json's maps are ordered by key and it writes no spaces and leaves
    // non-ASCII characters as they are: the canonical form, as it stands.
    sha256_hex(unsealed.to_string().as_bytes())
}

/// Writes the checksum into `registry`.
pub fn seal(registry: &mut Value) {
    let checksum = catalog_checksum(registry);
    if let Value::Object(fields) = registry {
        fields.insert(CHECKSUM_KEY.to_string(), Value::String(checksum));
    }
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}
