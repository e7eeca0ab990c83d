//! Wall-clock time as Tama's records write it.

use std::time::{SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// Now as RFC 3339 in UTC with microseconds: such stamps sort as text in time order.
pub fn now_iso() -> String {
    humantime::format_rfc3339_micros(SystemTime::now()).to_string()
}
