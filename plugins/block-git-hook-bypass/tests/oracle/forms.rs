//! Shell commands as agents and people write them around a git call that
//! runs hooks. Each is built from a git call (subcommand, an option that may
//! or may not skip hooks, its operands) and a form that spells it: the form
//! knows nothing of which options skip hooks, so whether a command bypasses
//! is left to real git.

use proptest::prelude::RngExt;
use proptest::test_runner::TestRng;

/// A git call that runs client-side hooks when git honours them.
pub struct Call {
    /// Assignments before `git`, such as `GIT_CONFIG_PARAMETERS=…`.
    pub env: &'static str,
    /// Options before the subcommand, such as `-c core.hooksPath=/dev/null`.
    pub global: &'static str,
    pub sub: &'static str,
    /// One option fragment, possibly empty or several words.
    pub option: &'static str,
    /// What follows: a message, a remote and branch, a patch.
    pub rest: &'static str,
    /// What gives a commit something to record, run first.
    pub stage: &'static str,
}

/// Option fragments per subcommand: ones that skip hooks, ones that do
/// not, and spellings git rejects.
const COMMIT_OPTIONS: &[&str] = &[
    "--no-verify",
    "-n",
    "--no-verif",
    "--no-veri",
    "--no-ver",
    "-qn",
    "-nq",
    "-vn",
    "--verify --no-verify",
    "--no-verify --verify",
    "--verify",
    "-q",
    "-s",
    "",
    "",
    "--no-verity",
    "--no-no-verify",
    "--amend --no-edit -n",
    "--amend --no-edit",
    "-s -n",
];
const COMMIT_REST: &[&str] = &[
    "-m wip",
    "-m 'fix: tests'",
    "-m \"--no-verify\"",
    "--message=x",
    "-mx",
    "-m -n",
];
const PUSH_OPTIONS: &[&str] = &[
    "--no-verify",
    "--no-verif",
    "-n",
    "--dry-run",
    "-q",
    "--verify",
    "--no-verify --verify",
    "--verify --no-verify",
    "-f --no-verify",
    "--force-with-lease",
    "-u",
    "",
];
const PUSH_REST: &[&str] = &["origin main", "origin HEAD", "origin", "-- origin main"];
const MERGE_OPTIONS: &[&str] = &[
    "--no-verify",
    "--verify",
    "--no-ff",
    "-q",
    "--no-verify --verify",
    "--no-verif",
    "--no-edit --no-verify",
    "",
];
const MERGE_REST: &[&str] = &["side", "topic", "-m merged side", "side -m 'merge side'"];
const REBASE_OPTIONS: &[&str] = &[
    "--no-verify",
    "--verify",
    "-q",
    "--no-verify --verify",
    "--no-verif",
    "-n",
    "",
];
const REBASE_REST: &[&str] = &["side", "topic"];
const AM_OPTIONS: &[&str] = &["--no-verify", "-n", "--verify", "-q", "-3 --no-verify", ""];
const AM_REST: &[&str] = &["../fix.patch", "< ../fix.patch"];

const STAGES: &[&str] = &["git add -A && ", "git add new.txt; ", "git add . &&\n"];

const GLOBALS: &[&str] = &[
    "-c core.hooksPath=/dev/null",
    "-c core.hookspath=/nonexistent",
    "-c core.hooksPath=",
    "-c user.name=x",
    "--no-pager",
    "-C .",
    "-c color.ui=false",
];
const ENVS: &[&str] = &[
    "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/dev/null",
    "GIT_CONFIG_PARAMETERS=\"'core.hooksPath'='/dev/null'\"",
    "GIT_AUTHOR_NAME=x",
    "GIT_EDITOR=true",
    "GIT_TRACE=0",
    "LANG=C",
];

fn pick<T: Copy>(rng: &mut TestRng, items: &[T]) -> T {
    items[rng.random_range(0..items.len())]
}

pub fn call(rng: &mut TestRng) -> Call {
    let (sub, options, rests, stage) = match rng.random_range(0..10) {
        0..=4 => ("commit", COMMIT_OPTIONS, COMMIT_REST, pick(rng, STAGES)),
        5 | 6 => ("push", PUSH_OPTIONS, PUSH_REST, ""),
        7 => ("merge", MERGE_OPTIONS, MERGE_REST, ""),
        8 => ("rebase", REBASE_OPTIONS, REBASE_REST, ""),
        _ => ("am", AM_OPTIONS, AM_REST, ""),
    };
    Call {
        env: if rng.random_ratio(1, 8) {
            pick(rng, ENVS)
        } else {
            ""
        },
        global: if rng.random_ratio(1, 8) {
            pick(rng, GLOBALS)
        } else {
            ""
        },
        sub,
        option: pick(rng, options),
        rest: pick(rng, rests),
        stage,
    }
}

fn join(words: &[&str]) -> String {
    words
        .iter()
        .filter(|w| !w.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" ")
}

impl Call {
    fn env_prefix(&self) -> String {
        if self.env.is_empty() {
            String::new()
        } else {
            format!("{} ", self.env)
        }
    }

    /// `git [global] sub`, without the environment.
    fn head(&self) -> String {
        join(&["git", self.global, self.sub])
    }

    /// The whole call as one command.
    fn plain(&self) -> String {
        format!(
            "{}{}",
            self.env_prefix(),
            join(&[&self.head(), self.option, self.rest])
        )
    }

    /// The call with `option` spelled as `spelled`.
    fn with(&self, spelled: &str) -> String {
        format!(
            "{}{}",
            self.env_prefix(),
            join(&[&self.head(), spelled, self.rest])
        )
    }

    /// `option` inside single quotes, for a shell that word-splits it later.
    fn quoted_option(&self) -> String {
        format!("'{}'", self.option)
    }
}

/// The forms, by the name the agreement table uses.
pub const FORMS: &[&str] = &[
    "plain",
    "quoting",
    "alias",
    "function",
    "sh -c",
    "read",
    "printf -v",
    "declare",
    "expansion",
    "wrapper",
    "list",
    "branch",
    "eval",
    "substitution",
    "git alias",
    "config",
    "text",
];

/// One generated command: its form and its text.
pub fn command(rng: &mut TestRng) -> (&'static str, String) {
    let call = call(rng);
    let form = pick(rng, FORMS);
    let text = spell(rng, form, &call);
    (form, format!("{}{}", call.stage, text))
}

fn spell(rng: &mut TestRng, form: &str, c: &Call) -> String {
    let o = c.option;
    let q = c.quoted_option();
    let env = c.env_prefix();
    let head = c.head();
    let rest = c.rest;
    let choices: Vec<String> = match form {
        "plain" => vec![c.plain()],
        "quoting" => vec![
            c.with(&format!("\"{o}\"")),
            c.with(&q),
            c.with(
                &o.strip_prefix("--")
                    .map_or_else(|| q.clone(), |tail| format!("--'{tail}'")),
            ),
            c.with(&o.replace("verify", "ver\\ify")),
            c.with(&format!("$'{}'", o.replace('-', "\\x2d"))),
            format!(
                "{env}'git' {} {o} {rest}",
                join(&[c.global, &format!("\"{}\"", c.sub)])
            ),
        ],
        "alias" => vec![
            format!("shopt -s expand_aliases\nalias g='{head} {o}'\n{env}g {rest}"),
            format!(
                "shopt -s expand_aliases\nalias g=git\n{env}g {} {} {o} {rest}",
                c.global, c.sub
            ),
            format!("shopt -s expand_aliases\nalias g='{head}' o='{o}'\ng {o} {rest}"),
        ],
        "function" => vec![
            format!(
                "f() {{ git \"$@\"; }}\n{env}f {} {} {o} {rest}",
                c.global, c.sub
            ),
            format!("f() {{ {head} {o} \"$@\"; }}; {env}f {rest}"),
            format!("f() {{ local opt=$1; shift; {head} $opt \"$@\"; }}\nX=1 f {q} {rest}"),
            format!("function g {{ {head} \"$@\"; }}; {env}g {o} {rest}"),
            format!("f() {{ {head} {rest}; }}; f"),
        ],
        "sh -c" => vec![
            format!(
                "{env}sh -c 'git \"$@\"' sh {} {} {o} {rest}",
                c.global, c.sub
            ),
            format!("bash -c '{head} $1 \"${{@:2}}\"' _ {q} {rest}"),
            format!("{env}sh -c \"{head} {o} {}\"", rest.replace('"', "")),
            format!("bash -c '{head} \"$@\"' bash {o} {rest}"),
            format!("sh -c 'git $0 {o} \"$@\"' {} {rest}", c.sub),
        ],
        "read" => vec![
            format!("read -r opt <<< {q}\n{head} $opt {rest}"),
            format!("echo {q} | {{ read -r opt; {env}{head} $opt {rest}; }}"),
            format!(
                "read -r sub opt <<'EOF'\n{} {o}\nEOF\ngit $sub $opt {rest}",
                c.sub
            ),
            format!("IFS= read -r opt <<< {q}; {head} \"$opt\" {rest}"),
            format!(
                "read -ra args <<< '{} {o}'; git \"${{args[@]}}\" {rest}",
                c.sub
            ),
        ],
        "printf -v" => vec![
            format!("printf -v opt '%s' {q}; {env}{head} $opt {rest}"),
            format!("printf -v opt -- '%s' {q}\n{head} \"$opt\" {rest}"),
            format!("printf -v cmd '%s %s' {} {q}; git $cmd {rest}", c.sub),
            format!(
                "printf -v opt '%s%s' '{}' '{}'; {head} $opt {rest}",
                &o[..o.len() / 2],
                &o[o.len() / 2..]
            ),
        ],
        "declare" => vec![
            format!("declare opt={q}; {env}{head} $opt {rest}"),
            format!(
                "declare -a args=({} {o}); git \"${{args[@]}}\" {rest}",
                c.sub
            ),
            format!("typeset opt={q}\n{head} $opt {rest}"),
            format!("declare -r opt={q}; {head} ${{opt}} {rest}"),
            format!(
                "declare -x {}\n{head} {o} {rest}",
                if c.env.is_empty() { "X=1" } else { c.env }
            ),
            format!("local opt={q} 2>/dev/null; {head} $opt {rest}"),
        ],
        "expansion" => vec![
            format!("{head} ${{opt:-{o}}} {rest}"),
            format!("opt={q}; {head} ${{opt:+$opt}} {rest}"),
            format!("opt=x; {head} ${{opt:+{o}}} {rest}"),
            format!("{head} ${{opt:+{o}}} {rest}"),
            format!(": \"${{opt:={o}}}\"; {head} $opt {rest}"),
            format!("opt=x{q}; {head} ${{opt#x}} {rest}"),
            format!("opt={}; {head} ${{opt,,}} {rest}", o.to_uppercase()),
            format!("opt={q}; {head} ${{opt/verify/verify}} {rest}"),
            format!("{head} ${{opt-{o}}} {rest}"),
            format!("{head} {o}$unset {rest}"),
            format!("{head} $unset{o} {rest}"),
            format!("{head} {o}\"$unset\" {rest}"),
            format!("{head} {o}${{HOME:0:0}} {rest}"),
            format!("{head} {o}${{IFS}}{rest}"),
            format!("IFS=,; opt={}; {head} $opt {rest}", o.replace(" ", ",")),
        ],
        "wrapper" => vec![
            format!("env {}", c.plain()),
            format!("env -u HUSKY {}", c.plain()),
            format!("{env}env -S '{head} {o}' {rest}"),
            format!("{env}env --split-string='{head} {o}' {rest}"),
            format!("timeout 60 {}", c.plain()),
            format!("{env}nice -n 1 {head} {o} {rest}"),
            format!("{env}command {head} {o} {rest}"),
            format!("echo {q} | xargs {head} {}", rest.replace('<', "")),
            format!(
                "find . -maxdepth 0 -exec {head} {o} {} \\;",
                rest.replace('<', "")
            ),
            format!("{env}exec {head} {o} {rest}"),
            format!("time {}", c.plain()),
        ],
        "list" => vec![
            format!("true && {}", c.plain()),
            format!("false || {}", c.plain()),
            format!("git status --short >/dev/null; {}", c.plain()),
            format!("{} || true", c.plain()),
            format!("{} | cat", c.plain()),
            format!("({})", c.plain()),
            format!("{{ {}; }}", c.plain()),
            format!("{} & wait", c.plain()),
            format!("git diff --quiet && echo clean\n{}\necho done", c.plain()),
        ],
        "branch" => vec![
            format!("if true; then {}; fi", c.plain()),
            format!("if [ -d .git ]; then {}; else echo no; fi", c.plain()),
            format!("if [ -f /nonexistent ]; then {}; fi", c.plain()),
            format!("case main in main) {};; *) echo other;; esac", c.plain()),
            format!("for opt in {q}; do {head} $opt {rest}; done"),
            format!("while read -r opt; do {head} $opt {rest}; done <<< {q}"),
            format!("[ -d .git ] && {} || echo failed", c.plain()),
            format!("test -e /nonexistent && {}", c.plain()),
        ],
        "eval" => vec![
            format!("eval \"{}\"", c.plain().replace('"', "\\\"")),
            format!(
                "cmd=\"{head} {}\"; eval \"$cmd\" '{}'",
                o.replace('"', ""),
                rest.replace('\'', "'\\''")
            ),
            format!("cmd='{head} {o}'; $cmd {rest}"),
            format!("eval {head} {q} {rest}"),
        ],
        "substitution" => vec![
            format!("{head} $(echo {q}) {rest}"),
            format!("$(echo git) {} {} {o} {rest}", c.global, c.sub),
            format!("{head} `printf %s {q}` {rest}"),
            format!("opt=$(printf '%s' {q}); {head} $opt {rest}"),
            format!("\"$(command -v git)\" {} {} {o} {rest}", c.global, c.sub),
        ],
        "git alias" => vec![
            format!("git -c alias.x='{} {o}' x {rest}", c.sub),
            format!("git config alias.x '{} {o}' && git x {rest}", c.sub),
            format!("git -c alias.x='!git {} {o}' x {rest}", c.sub),
            format!("git config --global alias.x '{} {o}'; git x {rest}", c.sub),
        ],
        "config" => vec![
            format!("git config core.hooksPath /dev/null && {}", c.with("")),
            format!(
                "git config --global core.hooksPath /tmp/nohooks; {}",
                c.with("")
            ),
            format!(
                "export GIT_CONFIG_PARAMETERS=\"'core.hooksPath'='/dev/null'\"\n{}",
                c.with("")
            ),
            format!("rm -rf .git/hooks && {}", c.with("")),
            format!("mv .git/hooks .git/hooks.off; {}", c.with("")),
            format!("chmod -x .git/hooks/*; {}", c.with("")),
            format!("git config --unset core.hooksPath; {}", c.with("")),
            format!("cat .git/hooks/pre-commit >/dev/null; {}", c.with("")),
            format!("git config --get core.hooksPath; {}", c.with("")),
            format!(
                "export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=\nHP=/dev/null {}",
                c.with("")
            ),
            format!(
                "HP=/dev/null git --config-env=core.hooksPath=HP {} {rest}",
                c.sub
            ),
        ],
        "text" => vec![
            format!("echo \"{}\"", c.plain().replace('"', "'")),
            format!("# {}\ngit status --short", c.plain()),
            format!("cat <<'EOF'\n{}\nEOF", c.plain()),
            format!(
                "printf '%s\\n' \"{}\" > notes.txt",
                c.plain().replace('"', "'")
            ),
            format!("git log -1 --format=%s --grep={q}"),
            format!("grep -r -- {q} . || true"),
            format!("echo 'run: {}' >&2", c.plain().replace('\'', "")),
        ],
        _ => vec![c.plain()],
    };
    pick_owned(rng, choices)
}

fn pick_owned(rng: &mut TestRng, mut items: Vec<String>) -> String {
    let index = rng.random_range(0..items.len());
    items.swap_remove(index)
}
