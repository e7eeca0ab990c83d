//! The gate's policy, free of WebAssembly so `cargo test` runs it natively.
//!
//! Patterns match a target's file name (its last path component), ignoring
//! ASCII case. A pattern holding `*` or `?` is a glob over the whole name
//! (`*` any run of characters, `?` one). Any other pattern is a suffix: the
//! name ends with it, or starts with it followed by `.`. So the default `.env`
//! matches `.env`, `prod.env` and `.env.local` (also `.env.example`), but not
//! `.envrc`; add `".envrc"` to refuse that too.

use serde_json::Value;

const DEFAULT_PATTERNS: &[&str] = &[".env"];

#[derive(Debug, PartialEq)]
pub struct Config {
    patterns: Vec<String>,
}

impl Config {
    /// Reads the registry's `config`: `{"patterns": [...]}`, the key optional.
    /// An empty text or `null` means the defaults.
    pub fn parse(text: &str) -> Result<Self, String> {
        let value: Value = match text.trim() {
            "" => Value::Null,
            text => serde_json::from_str(text).map_err(|e| format!("config is not JSON: {e}"))?,
        };
        let fields = match value {
            Value::Null => return Ok(Self::default()),
            Value::Object(fields) => fields,
            other => {
                return Err(format!(
                    "config must be a JSON object such as {{\"patterns\": [\".env\"]}}, not {other}"
                ));
            }
        };
        if let Some(key) = fields.keys().find(|k| *k != "patterns") {
            return Err(format!(
                "config has an unknown key \"{key}\"; the only key is \"patterns\""
            ));
        }
        let Some(patterns) = fields.get("patterns") else {
            return Ok(Self::default());
        };
        let Value::Array(items) = patterns else {
            return Err(format!(
                "config \"patterns\" must be a list of file-name patterns such as [\".env\"], not {patterns}"
            ));
        };
        if items.is_empty() {
            return Err("config \"patterns\" is empty, so the gate would refuse nothing; name at least one pattern".into());
        }
        let patterns = items.iter().enumerate().map(|(i, item)| match item.as_str() {
            None => Err(format!("config \"patterns\"[{i}] must be a string, not {item}")),
            Some("") => Err(format!("config \"patterns\"[{i}] is empty")),
            Some(p) if p.contains(['/', '\\']) => {
                Err(format!("config \"patterns\"[{i}] \"{p}\" holds a path separator; patterns match file names only"))
            }
            Some(p) => Ok(p.to_ascii_lowercase()),
        });
        Ok(Self {
            patterns: patterns.collect::<Result<_, _>>()?,
        })
    }

    /// The first pattern the file name of `path` matches.
    pub fn matching_pattern(&self, path: &str) -> Option<&str> {
        let name = file_name(path).to_ascii_lowercase();
        self.patterns
            .iter()
            .map(String::as_str)
            .find(|p| matches(p, &name))
    }

    /// The refusal for the paths that match, or `None` when none does.
    pub fn refusal<'a>(&self, paths: impl IntoIterator<Item = &'a str>) -> Option<String> {
        let refused: Vec<String> = paths
            .into_iter()
            .filter_map(|path| {
                Some(format!(
                    "`{path}` (matches `{}`)",
                    self.matching_pattern(path)?
                ))
            })
            .collect();
        (!refused.is_empty()).then(|| {
            format!(
                "Writing {} is refused: such files hold secrets. Ask the user to make this change.",
                refused.join(", ")
            )
        })
    }
}

impl Default for Config {
    fn default() -> Self {
        Self {
            patterns: DEFAULT_PATTERNS.iter().map(|p| p.to_string()).collect(),
        }
    }
}

/// The last component of a `/` or `\` separated path, trailing separators ignored.
fn file_name(path: &str) -> &str {
    let path = path.trim_end_matches(['/', '\\']);
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

fn matches(pattern: &str, name: &str) -> bool {
    if pattern.contains(['*', '?']) {
        glob(
            &pattern.chars().collect::<Vec<_>>(),
            &name.chars().collect::<Vec<_>>(),
        )
    } else {
        name.ends_with(pattern)
            || name
                .strip_prefix(pattern)
                .is_some_and(|rest| rest.starts_with('.'))
    }
}

/// Wildcard match in O(pattern × name): on a mismatch, retry from the last `*`
/// with it taking one more character.
fn glob(pattern: &[char], name: &[char]) -> bool {
    let (mut p, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        match pattern.get(p) {
            Some('*') => {
                star = Some((p, n));
                p += 1;
            }
            Some(&c) if c == '?' || c == name[n] => (p, n) = (p + 1, n + 1),
            _ => match star {
                Some((sp, sn)) => {
                    star = Some((sp, sn + 1));
                    (p, n) = (sp + 1, sn + 1);
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::Config;

    fn refused(config: &Config, path: &str) -> bool {
        config.matching_pattern(path).is_some()
    }

    #[test]
    fn default_refuses_env_files_only() {
        let config = Config::default();
        for path in [
            ".env",
            "/repo/.env",
            "config/.env.local",
            "prod.env",
            ".env.example",
            "C:\\repo\\.ENV",
            ".env/",
        ] {
            assert!(refused(&config, path), "{path} should be refused");
        }
        for path in [
            ".envrc",
            "README.md",
            "env",
            "src/environment.rs",
            "/repo/.env/readme.md",
            "dotenv",
        ] {
            assert!(!refused(&config, path), "{path} should pass");
        }
    }

    #[test]
    fn globs_match_the_whole_file_name() {
        let config = Config::parse(r#"{"patterns": ["*.pem", "id_?sa", ".envrc"]}"#).unwrap();
        for path in ["keys/server.pem", "/home/u/.ssh/id_rsa", "/r/.envrc"] {
            assert!(refused(&config, path), "{path} should be refused");
        }
        for path in ["server.pem.txt", "id_rsa.pub", "/r/.env", "id_rsa_"] {
            assert!(!refused(&config, path), "{path} should pass");
        }
    }

    #[test]
    fn long_names_against_many_stars_stay_fast() {
        let config = Config::parse(r#"{"patterns": ["*a*a*a*a*a*b"]}"#).unwrap();
        assert!(!refused(&config, &"a".repeat(20_000)));
        assert!(refused(&config, &format!("{}b", "a".repeat(20_000))));
    }

    #[test]
    fn refusal_names_every_matching_path() {
        let reason = Config::default()
            .refusal(["a/.env", "b.rs", "c/.env.local"])
            .unwrap();
        assert!(
            reason.contains("`a/.env` (matches `.env`), `c/.env.local` (matches `.env`)"),
            "{reason}"
        );
        assert_eq!(Config::default().refusal(["README.md"]), None);
    }

    #[test]
    fn empty_config_means_defaults() {
        for text in ["", "null", "{}", " { } "] {
            assert_eq!(Config::parse(text), Ok(Config::default()), "{text:?}");
        }
    }

    #[test]
    fn bad_configs_say_what_is_wrong() {
        let cases = [
            ("[1]", "must be a JSON object"),
            ("{", "not JSON"),
            (r#"{"pattern": [".env"]}"#, "unknown key \"pattern\""),
            (r#"{"patterns": ".env"}"#, "must be a list"),
            (r#"{"patterns": []}"#, "is empty"),
            (r#"{"patterns": [".env", 3]}"#, "[1] must be a string"),
            (r#"{"patterns": [""]}"#, "[0] is empty"),
            (r#"{"patterns": ["config/.env"]}"#, "path separator"),
        ];
        for (text, expected) in cases {
            let error = Config::parse(text).unwrap_err();
            assert!(error.contains(expected), "{text}: {error}");
        }
    }
}
