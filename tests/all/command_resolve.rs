//! Resolving a hook command's relative program.

use crate::support::process;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use tama_core::command::{self, Ended, Unresolved, resolve};

fn file(path: &Path) -> PathBuf {
    fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    fs::write(path, "#!/bin/sh\necho \"ran $0 $*\"\n").expect("write");
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).expect("chmod");
    path.into()
}

#[test]
fn a_bare_name_is_left_to_path_lookup() {
    let dir = tempfile::tempdir().expect("tempdir");
    assert_eq!(
        resolve("node hooks/x.js --y", None, dir.path()).unwrap(),
        "node hooks/x.js --y"
    );
}

#[test]
fn words_the_shell_expands_are_left_alone() {
    let dir = tempfile::tempdir().expect("tempdir");
    for command in [
        "$HOME/hooks/x.sh",
        "~/hooks/x.sh",
        "FOO=a/b ./x.sh",
        "`which x`/y",
        "./x*/y",
        "'./x.sh",
    ] {
        assert_eq!(resolve(command, None, dir.path()).unwrap(), command);
    }
}

#[test]
fn an_absolute_path_must_be_a_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let hook = file(&dir.path().join("abs.sh"));
    let command = format!("{} --flag", hook.display());
    assert_eq!(resolve(&command, None, Path::new("/")).unwrap(), command);
    let missing = dir.path().join("missing.sh");
    let error = resolve(&missing.display().to_string(), None, dir.path()).unwrap_err();
    assert_eq!(error.tried, vec![missing]);
    let error = resolve(&dir.path().display().to_string(), None, dir.path()).unwrap_err();
    assert_eq!(error.tried, vec![dir.path().to_path_buf()]);
}

#[test]
fn a_relative_path_is_found_beside_the_registry() {
    let dir = tempfile::tempdir().expect("tempdir");
    let hook = file(&dir.path().join("hooks/check.sh"));
    let resolved = resolve("./hooks/check.sh --strict 'a b'", None, dir.path()).unwrap();
    assert_eq!(resolved, format!("{} --strict 'a b'", hook.display()));
}

#[test]
fn a_relative_path_falls_back_to_its_file_name_in_the_registry_directory() {
    let dir = tempfile::tempdir().expect("tempdir");
    let hook = file(&dir.path().join("check.sh"));
    let resolved = resolve("shared-hooks/check.sh;echo after", None, dir.path()).unwrap();
    assert_eq!(resolved, format!("{};echo after", hook.display()));
}

#[test]
fn the_catalog_source_comes_first_when_it_names_the_same_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let source = file(&dir.path().join("src/shared-hooks/check.sh"));
    file(&dir.path().join("registry/shared-hooks/check.sh"));
    let registry = dir.path().join("registry");
    let resolved = resolve("shared-hooks/check.sh x", Some(&source), &registry).unwrap();
    assert_eq!(resolved, format!("{} x", source.display()));
    let other = file(&dir.path().join("src/other.sh"));
    let resolved = resolve("shared-hooks/check.sh x", Some(&other), &registry).unwrap();
    assert_eq!(
        resolved,
        format!("{} x", registry.join("shared-hooks/check.sh").display())
    );
}

#[test]
fn a_quoted_program_is_unquoted_and_requoted() {
    let dir = tempfile::tempdir().expect("tempdir");
    let registry = dir.path().join("it's here");
    let hook = file(&registry.join("my hooks/check.sh"));
    let resolved = resolve(r#""./my hooks/check.sh" arg"#, None, &registry).unwrap();
    let quoted = hook.display().to_string().replace('\'', r"'\''");
    assert_eq!(resolved, format!("'{quoted}' arg"));
    let resolved = resolve(r"my\ hooks/check.sh", None, &registry).unwrap();
    assert_eq!(resolved, format!("'{quoted}'"));
}

#[test]
fn nothing_found_lists_every_path_tried() {
    let dir = tempfile::tempdir().expect("tempdir");
    let source = dir.path().join("src/nope.sh");
    let error = resolve("hooks/nope.sh --x", Some(&source), dir.path()).unwrap_err();
    let tried = vec![
        source,
        dir.path().join("hooks/nope.sh"),
        dir.path().join("nope.sh"),
    ];
    assert_eq!(
        error,
        Unresolved {
            command: "hooks/nope.sh --x".into(),
            tried: tried.clone()
        }
    );
    let message = error.to_string();
    for path in &tried {
        assert!(message.contains(&path.display().to_string()), "{message}");
    }
    assert!(message.contains("hooks/nope.sh --x"), "{message}");
}

#[test]
fn a_relative_catalog_source_is_not_tried() {
    let dir = tempfile::tempdir().expect("tempdir");
    let error = resolve("a/x.sh", Some(Path::new("a/x.sh")), dir.path()).unwrap_err();
    assert_eq!(
        error.tried,
        vec![dir.path().join("a/x.sh"), dir.path().join("x.sh")]
    );
}

#[test]
fn an_empty_command_names_no_program() {
    let dir = tempfile::tempdir().expect("tempdir");
    for command in ["", "   ", "; ls", "''"] {
        let error = resolve(command, None, dir.path()).unwrap_err();
        assert!(error.tried.is_empty(), "{command}");
        assert!(error.to_string().contains("names no program"));
    }
}

#[test]
fn a_resolved_command_runs_from_anywhere() {
    command::init_supervision().expect("subreaper");
    let dir = tempfile::tempdir().expect("tempdir");
    let hook = file(&dir.path().join("with space/hooks/check.sh"));
    let resolved = resolve(
        "./hooks/check.sh one two",
        None,
        &dir.path().join("with space"),
    )
    .unwrap();
    let mut spec = process::spec(&resolved, Duration::from_secs(5));
    spec.cwd = Some("/".into());
    let finished = command::spawn(&spec, b"").expect("spawn").wait();
    assert_eq!(finished.ended, Ended::Exited(0), "{}", finished.stderr);
    assert_eq!(finished.stdout, format!("ran {} one two\n", hook.display()));
}
