//! A written path as the harness that writes it reads it. oh-my-pi, which
//! hands its tools' paths over as the model wrote them, takes `@/x`,
//! `@~/x`, `:/x`, `:~/x` and `file:///x` for the paths they name and `~x`
//! for `~/x` (`tools/path-utils.ts`, `expandPath`); the other harnesses
//! send absolute paths, which pass through unchanged.

use crate::prelude::*;

/// `path` spelled plainly: the prefixes above taken off, a file URL
/// decoded, and a `~` that opens a path made `~/`.
pub fn plain(path: &str) -> String {
    let path = match path.strip_prefix(':') {
        Some(rest)
            if rest.starts_with(['/', '\\', '~'])
                || rest.starts_with("./")
                || rest.starts_with("../") =>
        {
            rest
        }
        _ => path,
    };
    let path = match path.strip_prefix('@') {
        Some(rest) if rest.starts_with('/') || rest == "~" || rest.starts_with("~/") => rest,
        _ => path,
    };
    let path = file_url(path).unwrap_or_else(|| path.to_owned());
    match path.strip_prefix('~') {
        Some(rest) if !rest.is_empty() && !rest.starts_with('/') => {
            format!("~/{}", rest.trim_start_matches('\\'))
        }
        _ => path,
    }
}

/// The path a `file://` URL names on this machine, decoded; `None` for
/// another host's, which the harness refuses.
fn file_url(path: &str) -> Option<String> {
    let scheme = path
        .get(..7)
        .filter(|s| s.eq_ignore_ascii_case("file://"))?;
    let rest = &path[scheme.len()..];
    let rest = match rest.get(..9) {
        Some(host) if host.eq_ignore_ascii_case("localhost") => &rest[9..],
        _ => rest,
    };
    if !rest.starts_with('/') {
        return None;
    }
    let decoded = percent_encoding::percent_decode_str(rest)
        .decode_utf8()
        .ok()?;
    Some(decoded.into_owned())
}

#[cfg(test)]
mod tests {
    use super::plain;

    #[test]
    fn paths_read_as_oh_my_pi_reads_them() {
        for (given, read) in [
            ("/home/u/.tama/x", "/home/u/.tama/x"),
            ("@~/.tama/x", "~/.tama/x"),
            ("@/home/u/.tama", "/home/u/.tama"),
            (":~/.tama/x", "~/.tama/x"),
            (":/home/u/x", "/home/u/x"),
            ("file:///home/u/%2etama/x", "/home/u/.tama/x"),
            ("FILE://localhost/home/u/x", "/home/u/x"),
            ("file://other/x", "file://other/x"),
            ("~.tama/x", "~/.tama/x"),
            ("~", "~"),
            ("~/x", "~/x"),
            ("@my-file.txt", "@my-file.txt"),
            (":x", ":x"),
            ("src/a.rs", "src/a.rs"),
        ] {
            assert_eq!(plain(given), read, "{given}");
        }
    }
}
