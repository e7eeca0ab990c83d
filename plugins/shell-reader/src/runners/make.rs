//! What `make` hands a shell from a makefile: its recipe lines with make's
//! variables expanded (from the makefile and the command line), and the
//! commands `$(shell …)` runs while make reads the makefile.

use crate::prelude::*;

/// How deep variables whose values name other variables are expanded.
const MOST_DEPTH: usize = 8;

/// The shell text make runs for `makefile`, given the command line's
/// `NAME=value` assignments, which win over the makefile's.
pub(super) fn commands(makefile: &str, assigned: &[(&str, &str)]) -> Vec<String> {
    let mut variables: Vec<(String, String)> = Vec::new();
    let mut recipes = Vec::new();
    for line in makefile.lines() {
        if let Some(recipe) = line.strip_prefix('\t') {
            recipes.push(recipe.trim_start_matches(['@', '-', '+']));
        } else if let Some((name, value)) = assignment(line) {
            variables.push((name.to_owned(), value.to_owned()));
        } else {
            recipes.extend(shell_calls(line));
        }
    }
    variables.extend(
        assigned
            .iter()
            .map(|(name, value)| ((*name).to_owned(), (*value).to_owned())),
    );
    let mut commands = Vec::new();
    for (_, value) in &variables {
        commands.extend(shell_calls(value).map(|call| expand(call, &variables, 0)));
    }
    for recipe in recipes {
        commands.extend(shell_calls(recipe).map(|call| expand(call, &variables, 0)));
        commands.push(expand(recipe, &variables, 0));
    }
    commands
}

/// `NAME = value` and its kin (`:=`, `::=`, `?=`, `+=`, `override`,
/// `export`): the name and the value as written.
fn assignment(line: &str) -> Option<(&str, &str)> {
    let line = line.trim_start();
    let line = line
        .strip_prefix("override ")
        .or_else(|| line.strip_prefix("export "))
        .unwrap_or(line);
    let at = line.find('=')?;
    let name = line[..at].trim_end_matches([':', '?', '+', '!']).trim();
    let valid = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b));
    valid.then(|| (name, line[at + 1..].trim()))
}

/// The commands of the `$(shell …)` calls in `text`.
fn shell_calls(text: &str) -> impl Iterator<Item = &str> {
    text.match_indices("$(shell ").filter_map(|(at, opener)| {
        let rest = &text[at + opener.len()..];
        let mut depth = 1usize;
        let end = rest.char_indices().find_map(|(index, c)| {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            (depth == 0).then_some(index)
        })?;
        Some(&rest[..end])
    })
}

/// `text` with make's variable references replaced by their values (the
/// last assignment of each), `$$` as `$`; a variable the makefile does not
/// set is the environment's, read as the shell's `${NAME}`, and a function
/// call (`$(subst …)`) or an automatic variable (`$@`) is left as written.
fn expand(text: &str, variables: &[(String, String)], depth: usize) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let (name, used) = match after.chars().next() {
            Some('$') => {
                out.push('$');
                rest = &after[1..];
                continue;
            }
            Some(open @ ('(' | '{')) => {
                let close = if open == '(' { ')' } else { '}' };
                match after.find(close) {
                    Some(end) => (&after[1..end], end + 1),
                    None => (after, after.len()),
                }
            }
            Some(c) => (&after[..c.len_utf8()], c.len_utf8()),
            None => ("", 0),
        };
        let variable =
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        match variables.iter().rev().find(|(known, _)| known == name) {
            Some((_, value)) if variable && depth < MOST_DEPTH => {
                out.push_str(&expand(value, variables, depth + 1));
            }
            // make takes the rest from its environment, as the shell does.
            _ if variable => {
                out.push_str("${");
                out.push_str(name);
                out.push('}');
            }
            _ => out.push_str(&rest[at..at + 1 + used]),
        }
        rest = &after[used..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recipes_expand_the_variables_of_the_makefile_and_the_command_line() {
        let makefile =
            "N=n\nFLAGS := -q$(N)\nexport X ?= unused\na:\n\t@git commit $(FLAGS) -m x -$N ${Y}\n";
        assert_eq!(
            commands(makefile, &[("Y", "z")]),
            ["git commit -qn -m x -n z"]
        );
        assert_eq!(
            commands("a:\n\techo $$HOME $(HOME) $@ $(subst a,b,c)\n", &[]),
            ["echo $HOME ${HOME} $@ $(subst a,b,c)"]
        );
    }

    #[test]
    fn shell_calls_run_while_make_reads() {
        let makefile = "$(shell git commit -qnm x)\nV = $(shell date)\na:\n\ttrue\n";
        assert_eq!(
            commands(makefile, &[]),
            ["date", "git commit -qnm x", "true"]
        );
        let in_recipe = commands("a:\n\techo $(shell git push -n)\n", &[]);
        assert_eq!(in_recipe, ["git push -n", "echo $(shell git push -n)"]);
    }

    #[test]
    fn a_variable_that_names_itself_ends() {
        assert_eq!(commands("A = $(A)x\nb:\n\techo $(A)\n", &[]).len(), 1);
    }
}
