//! The folder guard resolves what a write will touch as the filesystem
//! does, on real git checkouts with real symbolic links, and a session's
//! checkout is the one its start gave it.

use crate::support::peers;

use std::os::unix::fs::symlink;
use std::process::Command;

use peers::{Machine, denial};
use serde_json::{Value, json};

/// Session s1 (Claude Code) in A and c9 (Codex) in B.
fn two_sessions() -> Machine {
    let m = Machine::new();
    m.start("claude", "s1", "A");
    m.start("codex", "c9", "B");
    m
}

/// The deny reason of `tool` with `input` from session `id` of `kind`, with
/// the hook input's `cwd` at `cwd`; `None` when the call is let through.
fn refused(
    m: &Machine,
    kind: &str,
    id: &str,
    cwd: &str,
    tool: &str,
    input: Value,
) -> Option<String> {
    let mut payload = m.input(id, cwd);
    payload["tool_name"] = json!(tool);
    payload["tool_input"] = input;
    let (code, out, err) = m.hook(kind, "pre-tool", &payload);
    assert_eq!((code, err.as_str()), (0, ""));
    if out.is_empty() { None } else { denial(&out) }
}

fn write(m: &Machine, path: impl AsRef<std::path::Path>) -> Option<String> {
    refused(
        m,
        "claude",
        "s1",
        "A",
        "Write",
        json!({"file_path": path.as_ref(), "content": "x"}),
    )
}

#[test]
fn a_dangling_link_in_the_own_checkout_is_refused_for_the_file_it_would_create() {
    let m = two_sessions();
    symlink(m.path("B/notyet.txt"), m.path("A/dangling")).unwrap();
    let reason = write(&m, m.path("A/dangling")).expect("writing the link creates B/notyet.txt");
    assert!(
        reason.starts_with(&format!(
            "{} is inside {}, where peer session codex-c9",
            m.path("B/notyet.txt").display(),
            m.path("B").display()
        )),
        "{reason}"
    );
    // A relative link, and a chain of links, resolve the same way.
    symlink("../B/deeper/new.txt", m.path("A/relative")).unwrap();
    symlink(m.path("A/relative"), m.path("A/chain")).unwrap();
    assert!(write(&m, m.path("A/chain")).is_some_and(|r| r.contains("B/deeper/new.txt")));
    // A link that stays inside the own checkout is the own checkout.
    symlink(m.path("A/real.txt"), m.path("A/inside")).unwrap();
    assert_eq!(write(&m, m.path("A/inside")), None);
}

#[test]
fn dot_dot_is_taken_after_the_link_before_it() {
    let m = two_sessions();
    std::fs::create_dir_all(m.path("B/src")).unwrap();
    symlink(m.path("B/src"), m.path("A/srclink")).unwrap();
    let reason =
        write(&m, format!("{}/srclink/../x", m.path("A").display())).expect("A/srclink/.. is B");
    assert!(
        reason.starts_with(&format!("{} is inside", m.path("B/x").display())),
        "{reason}"
    );
    // Relative to the hook input's cwd, which may be deeper than the start.
    std::fs::create_dir_all(m.path("A/sub")).unwrap();
    assert!(
        refused(
            &m,
            "claude",
            "s1",
            "A/sub",
            "Write",
            json!({"file_path": "../srclink/../y", "content": "x"})
        )
        .is_some()
    );
    assert_eq!(
        refused(
            &m,
            "claude",
            "s1",
            "A/sub",
            "Write",
            json!({"file_path": "z.py", "content": "x"})
        ),
        None
    );
    // A loop of links is refused with its cause, never let through.
    symlink(m.path("A/loop2"), m.path("A/loop1")).unwrap();
    symlink(m.path("A/loop1"), m.path("A/loop2")).unwrap();
    assert!(write(&m, m.path("A/loop1/f")).is_some_and(|r| r.contains("too many symbolic links")));
}

#[test]
fn repositories_nested_in_a_peers_checkout_are_the_peers() {
    let m = two_sessions();
    let vendored = m.path("B/vendor/lib");
    std::fs::create_dir_all(&vendored).unwrap();
    assert!(
        Command::new("git")
            .args(["init", "-q"])
            .current_dir(&vendored)
            .status()
            .unwrap()
            .success()
    );
    // A submodule's checkout holds a `.git` file.
    std::fs::create_dir_all(m.path("B/modules/sub")).unwrap();
    std::fs::write(
        m.path("B/modules/sub/.git"),
        "gitdir: ../../.git/modules/sub\n",
    )
    .unwrap();
    for target in [
        "B/vendor/lib/f.c",
        "B/vendor/lib/deep/er/g.c",
        "B/modules/sub/x.rs",
    ] {
        let reason = write(&m, m.path(target)).unwrap_or_else(|| panic!("{target} is in B"));
        assert!(
            reason.contains("codex-c9")
                && reason.contains(&format!("inside {},", m.path("B").display())),
            "{reason}"
        );
    }
    // A session working in the nested checkout owns it, and still keeps out of the rest of B.
    m.start("claude", "s3", "B/vendor/lib");
    assert_eq!(
        refused(
            &m,
            "claude",
            "s3",
            "B/vendor/lib",
            "Write",
            json!({"file_path": "own.c", "content": "x"})
        ),
        None
    );
    assert!(
        refused(
            &m,
            "claude",
            "s3",
            "B/vendor/lib",
            "Write",
            json!({"file_path": "../../top.c", "content": "x"})
        )
        .is_some_and(|r| r.contains("codex-c9"))
    );
    // ...and B's session keeps out of it.
    let patch = "*** Begin Patch\n*** Add File: vendor/lib/n.c\n+x\n*** End Patch";
    assert!(
        refused(
            &m,
            "codex",
            "c9",
            "B",
            "apply_patch",
            json!({"command": patch})
        )
        .is_some_and(|r| r.contains("claude-s3"))
    );
}

#[test]
fn every_form_of_target_goes_through_the_same_check() {
    let m = two_sessions();
    // Codex's apply_patch in argv form.
    let patch =
        "*** Begin Patch\n*** Update File: m.py\n*** Move to: ../A/m.py\n@@\n-a\n+b\n*** End Patch";
    let reason = refused(
        &m,
        "codex",
        "c9",
        "B",
        "apply_patch",
        json!({"command": ["apply_patch", patch]}),
    )
    .expect("argv patches are read");
    assert!(
        reason.starts_with(&format!("{} is inside", m.path("A/m.py").display())),
        "{reason}"
    );
    assert_eq!(
        refused(
            &m,
            "codex",
            "c9",
            "B",
            "apply_patch",
            json!({"command": ["apply_patch", patch.replace("../A/", "")]})
        ),
        None
    );
    assert!(
        refused(
            &m,
            "codex",
            "c9",
            "B",
            "local_shell",
            json!({"command": ["apply_patch", patch]})
        )
        .is_some(),
        "whatever tool carries it"
    );
    // A shell `apply_patch` heredoc, which Codex applies itself while its hook sees `Bash`.
    let heredoc = format!("apply_patch <<'EOF'\n{patch}\nEOF\n");
    assert!(
        refused(&m, "codex", "c9", "B", "Bash", json!({"command": heredoc}))
            .is_some_and(|r| r.contains("claude-")),
        "a shell patch is read"
    );
    let elsewhere = format!(
        "cd sub && apply_patch <<'EOF'\n{}\nEOF",
        patch.replace("../A/", "../../A/")
    );
    assert!(
        refused(
            &m,
            "codex",
            "c9",
            "B",
            "Bash",
            json!({"command": elsewhere})
        )
        .is_some(),
        "relative to the folder it changes into"
    );
    assert_eq!(
        refused(
            &m,
            "codex",
            "c9",
            "B",
            "Bash",
            json!({"command": heredoc.replace("../A/", "")})
        ),
        None
    );
    assert_eq!(
        refused(
            &m,
            "codex",
            "c9",
            "B",
            "Bash",
            json!({"command": "echo x > ../A/m.py"})
        ),
        None,
        "other shell commands are not the guard's"
    );
    assert!(
        refused(
            &m,
            "codex",
            "c9",
            "B",
            "Bash",
            json!({"command": "apply_patch <<'EOF'\nnonsense\nEOF"})
        )
        .is_some(),
        "an unreadable shell patch is refused"
    );
    // A hashline section naming a file in the peer's checkout.
    let hashline = format!("[{}#1f2e]\nSWAP 1.=1:\n+x\n", m.path("B/h.rs").display());
    assert!(refused(&m, "claude", "s1", "A", "edit", json!({"input": hashline})).is_some());
    // A notebook through a link.
    symlink(m.path("B"), m.path("A/blink")).unwrap();
    assert!(
        refused(
            &m,
            "claude",
            "s1",
            "A",
            "NotebookEdit",
            json!({"notebook_path": m.path("A/blink/n.ipynb"), "new_source": "x"})
        )
        .is_some()
    );
    // A write whose files cannot be read is refused while a peer's checkout is guarded.
    let reason = refused(&m, "codex", "c9", "B", "apply_patch", json!({"command": 7}))
        .expect("an unreadable write is refused");
    assert!(
        reason.starts_with("peer folder guard (pre-tool): cannot tell which files"),
        "{reason}"
    );
}

#[test]
fn a_sessions_root_is_fixed_at_its_start() {
    let m = two_sessions();
    // The agent cds into the peer's checkout: the hook input's cwd follows, the root does not.
    assert!(
        refused(
            &m,
            "claude",
            "s1",
            "B",
            "Write",
            json!({"file_path": "f.py", "content": "x"})
        )
        .is_some_and(|r| r.contains("codex-c9"))
    );
    assert_eq!(
        refused(
            &m,
            "claude",
            "s1",
            "B",
            "Write",
            json!({"file_path": m.path("A/f.py"), "content": "x"})
        ),
        None
    );
    for event in ["stop", "prompt", "session-start"] {
        m.hook("claude", event, &m.input("s1", "B"));
    }
    let registration: Value = serde_json::from_str(
        &std::fs::read_to_string(m.peers().join("sessions/claude-s1.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(registration["root"], json!(m.path("A")));
    // B's session still guards its checkout against s1.
    assert!(
        refused(
            &m,
            "claude",
            "s1",
            "A",
            "Write",
            json!({"file_path": m.path("B/g.py"), "content": "x"})
        )
        .is_some()
    );
    // The peer's own writes are its own.
    assert_eq!(
        refused(
            &m,
            "codex",
            "c9",
            "B",
            "apply_patch",
            json!({"command": "*** Begin Patch\n*** Add File: g.py\n+x\n*** End Patch"})
        ),
        None
    );
}
