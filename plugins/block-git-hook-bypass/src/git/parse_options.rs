//! How git's parse-options reads a command's arguments: long options by
//! unique prefix, `--no-` negations, clusters of short options, and option
//! arguments that swallow the next word.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arg {
    /// A flag.
    No,
    /// Takes a value: `--opt=v`, `--opt v`, `-ov`, `-o v`.
    Req,
    /// Takes a value only when attached: `--opt=v`, `-ov`.
    Opt,
}

#[derive(Debug)]
pub struct GitOption {
    /// Empty for a short-only option.
    pub long: &'static str,
    /// `0` when the option has no short form.
    pub short: u8,
    pub arg: Arg,
    /// Whether git accepts the `--no-` form (for `no-x` options: the `--x` form).
    pub negatable: bool,
}

pub const fn opt(long: &'static str, short: u8, arg: Arg, negatable: bool) -> GitOption {
    GitOption {
        long,
        short,
        arg,
        negatable,
    }
}

/// One option as git reads it.
#[derive(Debug, Clone, Copy)]
pub struct Resolved {
    pub option: &'static GitOption,
    /// Read in its negated form: `--no-x`, or `--x` for an option named `no-x`.
    pub negated: bool,
    /// The value is attached (`--opt=v`), so the next word is not taken.
    pub has_value: bool,
}

/// Resolves a long option, `arg` being the text after `--`, the way
/// parse-options.c `parse_long_opt` does; `None` when git would reject it as
/// unknown or ambiguous.
pub fn resolve_long(table: &'static [GitOption], arg: &str) -> Option<Resolved> {
    let name = arg.split_once('=').map_or(arg, |(name, _)| name);
    let has_value = name.len() < arg.len();
    let mut abbreviation: Option<(&'static GitOption, bool)> = None;
    let mut ambiguous = false;
    let exact = |option, negated| {
        Some(Resolved {
            option,
            negated,
            has_value,
        })
    };
    for option in table.iter().filter(|option| !option.long.is_empty()) {
        let mut long = option.long;
        let mut renamed = false;
        if !arg.starts_with("no-")
            && option.negatable
            && let Some(positive) = long.strip_prefix("no-")
        {
            long = positive;
            renamed = true;
        }
        if let Some(rest) = arg.strip_prefix(long) {
            if rest.is_empty() || rest.starts_with('=') {
                return exact(option, renamed);
            }
            continue;
        }
        let negated = if long.starts_with(name) {
            renamed
        } else if !option.negatable {
            continue;
        } else if "no-".starts_with(arg) {
            !renamed
        } else if let Some(positive) = arg.strip_prefix("no-") {
            if let Some(rest) = positive.strip_prefix(long)
                && (rest.is_empty() || rest.starts_with('='))
            {
                return exact(option, !renamed);
            }
            if !long.starts_with(positive) {
                continue;
            }
            !renamed
        } else {
            continue;
        };
        ambiguous |= abbreviation.is_some();
        abbreviation = Some((option, negated));
    }
    match abbreviation {
        Some((option, negated)) if !ambiguous => exact(option, negated),
        _ => None,
    }
}

pub fn find_short(table: &'static [GitOption], short: u8) -> Option<&'static GitOption> {
    table.iter().find(|option| option.short == short)
}
