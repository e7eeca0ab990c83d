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
        fields.shift_remove(CHECKSUM_KEY);
    }
    // serde_json writes no spaces and leaves non-ASCII characters as they are.
    sha256_hex(sorted(&unsealed).to_string().as_bytes())
}

/// `value` with the keys of every object in sorted order.
fn sorted(value: &Value) -> Value {
    match value {
        Value::Object(fields) => {
            let mut entries: Vec<(&String, &Value)> = fields.iter().collect();
            entries.sort_by_key(|(key, _)| *key);
            Value::Object(
                entries
                    .into_iter()
                    .map(|(key, value)| (key.clone(), sorted(value)))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
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
