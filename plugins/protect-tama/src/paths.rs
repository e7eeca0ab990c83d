//! Paths as a shell resolves them, and matching a path that may hold parts
//! the gate cannot know against the paths it protects.

use crate::prelude::*;

use shell_reader::field::UNKNOWN;
use shell_reader::values::{class_end, class_matches};

/// `path` made absolute against `cwd` (asked only for a relative path) and
/// `home`, with `.` and `..` resolved lexically (a symbolic link is not
/// followed: the gate sees no files).
pub fn resolve<'c>(path: &str, cwd: impl FnOnce() -> &'c str, home: &str) -> String {
    let joined = if let Some(rest) = path.strip_prefix('~') {
        if rest.is_empty() || rest.starts_with('/') {
            format!("{home}{rest}")
        } else {
            // `~user`: someone's home, which the gate cannot know.
            format!("{UNKNOWN}/{rest}")
        }
    } else if let Some(rest) = own_working_folder(path) {
        format!("{}{rest}", cwd())
    } else if path.starts_with('/') || path.starts_with(UNKNOWN) {
        path.to_owned()
    } else {
        format!("{}/{path}", cwd())
    };
    normalize(&through_proc(tidy(&joined)))
}

/// What follows `/proc/self/cwd`, the shell's own working folder, in `path`.
fn own_working_folder(path: &str) -> Option<&str> {
    ["/proc/self/cwd", "/proc/thread-self/cwd"]
        .iter()
        .find_map(|link| path.strip_prefix(link))
        .filter(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// A path through a process's links in `/proc` (or `/dev/fd`) as the file
/// it reaches: under `/proc/<pid>/root` the root folder, and under a
/// process's working folder (`cwd`) or an open file (`fd/<n>`) a folder the
/// gate cannot know (the shell's own is read as its working folder, by
/// [`resolve`]). `rm -rf /proc/self/root/root/.tama` is `/root/.tama`. The
/// links are followed before `..` is resolved: `/proc/1/cwd/..` is the
/// folder above one the gate cannot know, not `/proc/1`.
fn through_proc(mut path: String) -> String {
    loop {
        path = match proc_link(&path) {
            Some(Through::Root(rest)) => tidy(&format!("/{rest}")),
            Some(Through::Unknown(rest)) => format!("{UNKNOWN}/{rest}"),
            None => return path,
        };
    }
}

/// `path` without empty and `.` components, its `..` kept.
fn tidy(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for (index, part) in path.split('/').enumerate() {
        if index > 0 && matches!(part, "" | ".") {
            continue;
        }
        if index > 0 {
            out.push('/');
        }
        out.push_str(part);
    }
    out
}

/// Where a link of `/proc` or `/dev/fd` that starts a path leads, with
/// what follows the link.
enum Through<'p> {
    Root(&'p str),
    Unknown(&'p str),
}

fn proc_link(path: &str) -> Option<Through<'_>> {
    // An open file itself (`/dev/fd/63`, a process substitution) stays as
    // it is: only a path through an open folder is unknown.
    if let Some(rest) = path.strip_prefix("/dev/fd/") {
        return Some(Through::Unknown(rest.split_once('/')?.1));
    }
    let (_pid, rest) = path.strip_prefix("/proc/")?.split_once('/')?;
    let rest = match rest.strip_prefix("task/") {
        Some(task) => task.split_once('/')?.1,
        None => rest,
    };
    let (name, after) = rest.split_once('/').unwrap_or((rest, ""));
    match name {
        "root" => Some(Through::Root(after)),
        "cwd" => Some(Through::Unknown(after)),
        "fd" => Some(Through::Unknown(after.split_once('/')?.1)),
        _ => None,
    }
}

/// `.` and `..` components and repeated slashes removed.
pub fn normalize(path: &str) -> String {
    if is_normal(path) {
        return path.to_owned();
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            // Above a folder the gate cannot know is one it cannot know.
            ".." if path.starts_with(UNKNOWN) && parts.len() == 1 => {}
            ".." => {
                parts.pop();
            }
            _ => parts.push(part),
        }
    }
    if path.starts_with(UNKNOWN) {
        return parts.join("/");
    }
    let mut out = String::with_capacity(path.len());
    for part in parts {
        out.push('/');
        out.push_str(part);
    }
    if out.is_empty() {
        out.push('/');
    }
    out
}

/// Whether `path` is already as [`normalize`] makes it: absolute, without
/// empty, `.` or `..` components, and no slash at its end. Most paths are,
/// and the gate normalizes every path it protects on every call.
fn is_normal(path: &str) -> bool {
    path == "/"
        || path.starts_with('/')
            && path[1..]
                .split('/')
                .all(|part| !matches!(part, "" | "." | ".."))
}

/// Whether `path` holds an ASCII capital.
pub fn has_upper(path: &str) -> bool {
    path.bytes().any(|b| b.is_ascii_uppercase())
}

/// Whether `path` (absolute, normalized) is `root` or lies inside it.
pub fn within(path: &str, root: &str) -> bool {
    if root.is_empty() {
        return false;
    }
    if root == "/" {
        return true;
    }
    path.strip_prefix(root)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// How `pattern`, a resolved path that may hold glob characters and
/// unknown parts, can meet `target`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Meeting {
    /// It can name `target` or something inside it.
    pub inside: bool,
    /// It can name a folder that holds `target`.
    pub ancestor: bool,
}

/// Matches `pattern` against `target`, without regard to ASCII case (the
/// file systems macOS and Windows use by default take `~/.TAMA` for
/// `~/.tama`). `*`, `?` and `[…]` match as a shell glob does (not across
/// `/`); an unknown part matches anything. A pattern
/// that starts unknown matches only when its known tail spells `target`'s
/// distinctive end, so that `rm -rf "$tmp"` is not read as touching
/// everything.
pub fn meet(pattern: &str, target: &str) -> Meeting {
    if has_upper(pattern) || has_upper(target) {
        return meet(&pattern.to_ascii_lowercase(), &target.to_ascii_lowercase());
    }
    let none = Meeting {
        inside: false,
        ancestor: false,
    };
    if target.is_empty() {
        return none;
    }
    if pattern.starts_with(UNKNOWN) {
        let tail = pattern.rsplit(UNKNOWN).next().unwrap_or("");
        let end = distinctive_end(target);
        let inside = tail == end
            || tail.starts_with(&format!("{end}/"))
            || tail.contains(&format!("{end}/"));
        let inside = inside || tail.ends_with(end);
        return Meeting {
            inside,
            ancestor: false,
        };
    }
    // A path is checked against every protected one: rather than search it
    // for the marker each time, an ASCII path (nearly every one) has none.
    let unknown = !pattern.is_ascii() && pattern.contains(UNKNOWN);
    if !unknown && !pattern.bytes().any(|b| matches!(b, b'*' | b'?' | b'[')) {
        return Meeting {
            inside: within(pattern, target),
            ancestor: within(target, pattern) && pattern != target,
        };
    }
    let pattern: Vec<char> = pattern.chars().collect();
    let text: Vec<char> = target.chars().collect();
    let mut inside = false;
    let mut ancestor = false;
    // Pattern positions reachable after each prefix of the target.
    let mut states = closure(&pattern, vec![0]);
    for (index, &c) in text.iter().enumerate() {
        let boundary = c == '/';
        if boundary && states.contains(&pattern.len()) && index > 0 {
            ancestor = true;
        }
        states = closure(&pattern, step(&pattern, &states, c));
        if states.is_empty() {
            break;
        }
    }
    for &state in &states {
        if state == pattern.len() {
            inside = true;
        } else if let Some(&next) = pattern.get(state) {
            inside |= next == '/' || next == UNKNOWN || next == '*';
        }
    }
    Meeting { inside, ancestor }
}

/// The last component of `target` when it is a dotted name (`/.tama`),
/// else its last two (`/.claude/settings.json`).
fn distinctive_end(target: &str) -> &str {
    let mut cut = target.rmatch_indices('/');
    match (cut.next(), cut.next()) {
        (Some((last, _)), _) if target[last + 1..].starts_with('.') => &target[last..],
        (Some(_), Some((second, _))) => &target[second..],
        _ => target,
    }
}

/// Adds the positions reachable by letting `*` and unknown parts match nothing.
fn closure(pattern: &[char], mut states: Vec<usize>) -> Vec<usize> {
    let mut index = 0;
    while let Some(&state) = states.get(index) {
        if matches!(pattern.get(state), Some('*') | Some(&UNKNOWN))
            && !states.contains(&(state + 1))
        {
            states.push(state + 1);
        }
        index += 1;
    }
    states
}

fn step(pattern: &[char], states: &[usize], c: char) -> Vec<usize> {
    let mut next = Vec::new();
    let mut add = |state: usize| {
        if !next.contains(&state) {
            next.push(state);
        }
    };
    for &state in states {
        match pattern.get(state) {
            Some(&UNKNOWN) => add(state),
            Some('*') if c != '/' => add(state),
            Some('?') if c != '/' => add(state + 1),
            Some('[') => match class_end(pattern, state) {
                Some(close) if c != '/' && class_matches(&pattern[state + 1..close], c) => {
                    add(close + 1)
                }
                Some(_) => {}
                None if c == '[' => add(state + 1),
                None => {}
            },
            Some(&p) if p == c => add(state + 1),
            _ => {}
        }
    }
    next
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_resolve_as_a_shell_would() {
        assert_eq!(resolve("~/.tama/x", || "/w", "/h"), "/h/.tama/x");
        assert_eq!(resolve("../.tama", || "/h/p", "/h"), "/h/.tama");
        assert_eq!(resolve("a/./b//c", || "/w", "/h"), "/w/a/b/c");
        assert_eq!(resolve("/", || "/w", "/h"), "/");
    }

    #[test]
    fn normal_paths_are_kept_and_others_normalized() {
        for normal in ["/", "/h", "/h/.tama/x", "/h/.ta*/x.json"] {
            assert_eq!(normalize(normal), normal);
        }
        assert_eq!(normalize("/h/"), "/h");
        assert_eq!(normalize("//h//.tama"), "/h/.tama");
        assert_eq!(normalize("/h/./.tama/."), "/h/.tama");
        assert_eq!(normalize("/h/p/../.tama/.."), "/h");
        assert_eq!(normalize("/.."), "/");
        assert_eq!(normalize(""), "/");
        assert_eq!(normalize("h/x"), "/h/x");
    }

    #[test]
    fn globs_and_unknown_parts_meet_targets() {
        let yes = |p: &str, t: &str| meet(p, t).inside;
        assert!(yes("/h/.tama/*", "/h/.tama"));
        assert!(yes("/h/.ta*/x", "/h/.tama"));
        assert!(yes("/h/.tama", "/h/.tama"));
        assert!(!yes("/h/.tamarind", "/h/.tama"));
        assert!(yes("/h/.claude/settings.*", "/h/.claude/settings.json"));
        assert!(!yes("/h/.claude/projects/x", "/h/.claude/settings.json"));
        assert!(meet("/h/*", "/h/.tama/x").ancestor);
        assert!(meet("/h", "/h/.tama").ancestor);
        assert!(!meet("/h/p/*", "/h/.tama").ancestor);
        let unknown = format!("{UNKNOWN}/.tama/sessions");
        assert!(yes(&unknown, "/h/.tama"));
        assert!(!yes(&format!("{UNKNOWN}"), "/h/.tama"));
        assert!(yes("/h/.tama/[cs]*", "/h/.tama"));
    }
}
