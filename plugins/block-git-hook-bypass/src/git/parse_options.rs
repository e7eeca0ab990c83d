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

/// Resolves a long option, `arg` being the text after `--`, the way git
/// 2.45+ parse-options.c `parse_long_opt` does: `no-` negates, `no-no-`
/// reaches options named `no-…`, and a prefix counts when it is unique.
/// `None` when git would reject `arg` as unknown or ambiguous.
pub fn resolve_long(table: &'static [GitOption], arg: &str) -> Option<Resolved> {
    let (body, has_value) = match arg.split_once('=') {
        Some((body, _)) => (body, true),
        None => (arg, false),
    };
    let (stem, arg_unset, no_no) = match body.strip_prefix("no-") {
        Some(rest) => match rest.strip_prefix("no-") {
            Some(rest) => (rest, false, true),
            None => (rest, true, false),
        },
        None => (body, false, false),
    };
    let mut abbreviation: Option<(&'static GitOption, bool)> = None;
    let mut ambiguous = false;
    let mut register = |option, negated| {
        ambiguous |= abbreviation.is_some();
        abbreviation = Some((option, negated));
    };
    for option in table.iter().filter(|option| !option.long.is_empty()) {
        let (long, option_unset) = match option.long.strip_prefix("no-") {
            Some(long) => (long, true),
            None if no_no => continue,
            None => (option.long, false),
        };
        let negated = arg_unset != option_unset;
        if negated && !option.negatable {
            continue;
        }
        if stem == long {
            return Some(Resolved {
                option,
                negated,
                has_value,
            });
        }
        if stem.starts_with(long) {
            continue;
        }
        if long.starts_with(stem) {
            register(option, negated);
        }
        if option.negatable && "no-".starts_with(arg) {
            register(option, !option_unset);
        }
    }
    match abbreviation {
        Some((option, negated)) if !ambiguous => Some(Resolved {
            option,
            negated,
            has_value,
        }),
        _ => None,
    }
}

pub fn find_short(table: &'static [GitOption], short: u8) -> Option<&'static GitOption> {
    table.iter().find(|option| option.short == short)
}
