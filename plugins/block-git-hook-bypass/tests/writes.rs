//! Write tools aimed at what makes git run hooks, through the gate's
//! reading of them (`write_bypass`), with the targets the tool declaration
//! gives: each with the text its input writes, as the declaration reads
//! `content` and `new_string`.

use block_git_hook_bypass::{WriteTarget, write_bypass};

fn target(path: &str, input: &str) -> WriteTarget {
    let input: serde_json::Value = serde_json::from_str(input).expect("a case's input is JSON");
    let text = ["content", "new_string"]
        .iter()
        .find_map(|key| input.get(key)?.as_str())
        .map(str::to_owned);
    WriteTarget {
        path: path.to_owned(),
        device_action: None,
        text,
    }
}

/// (tool, target, input, refused, why)
const CASES: &[(&str, &str, &str, bool, &str)] = &[
    (
        "write",
        ".pre-commit-config.yaml",
        r#"{"content":"repos: []\n"}"#,
        true,
        "pre-commit with no repositories runs no hook",
    ),
    (
        "write",
        ".pre-commit-config.yaml",
        r#"{"content":"repos:\n- repo: local\n  hooks:\n  - id: lint\n    entry: npm run lint\n    language: system\n"}"#,
        false,
        "a configuration with a hook",
    ),
    (
        "write",
        "node_modules/.bin/lint-staged",
        r##"{"content":"#!/bin/sh\nexit 0\n"}"##,
        true,
        "a no-op in place of a program the pre-commit hook runs",
    ),
    (
        "write",
        "node_modules/.bin/lint-staged",
        r##"{"content":"#!/bin/sh\nexec node ../lint-staged/bin.js \"$@\"\n"}"##,
        false,
        "a working wrapper",
    ),
    (
        "write",
        ".git/hooks/pre-commit",
        r##"{"content":"#!/bin/sh\nexit 0\n"}"##,
        true,
        "a no-op written over a hook",
    ),
    (
        "write",
        ".husky/pre-commit",
        r#"{"content":""}"#,
        true,
        "an empty husky hook",
    ),
    (
        "write",
        ".git/hooks/pre-commit",
        r##"{"content":"#!/bin/sh\nnpm test\n"}"##,
        false,
        "a hook installed",
    ),
    (
        "edit",
        ".git/hooks/pre-push",
        r#"{"old_string":"npm test","new_string":"true"}"#,
        true,
        "a hook edited in place",
    ),
    (
        "delete_file",
        ".git/hooks/commit-msg",
        r#"{"path":".git/hooks/commit-msg"}"#,
        true,
        "a hook deleted",
    ),
    (
        "write",
        ".git/hooks/pre-commit.sample",
        r#"{"content":""}"#,
        false,
        "a sample is not a hook",
    ),
    (
        "edit",
        ".git/config",
        r#"{"old_string":"[core]","new_string":"[core]\n\thooksPath = /tmp"}"#,
        true,
        "core.hooksPath written into git's configuration",
    ),
    (
        "edit",
        "/home/u/.gitconfig",
        r#"{"old_string":"[user]","new_string":"[include]\n\tpath = /tmp/x"}"#,
        true,
        "an include written into git's configuration",
    ),
    (
        "edit",
        ".git/config",
        r#"{"old_string":"url = a","new_string":"url = b"}"#,
        true,
        "any edit of git's configuration: the gate cannot see what it changes",
    ),
    (
        "edit",
        ".git/config",
        r#"{"old_string":"[core]","new_string":"[nocore]"}"#,
        true,
        "the core section renamed, core.hooksPath with it, without naming it",
    ),
    (
        "edit",
        ".git/config",
        r#"{"old_string":".husky/_","new_string":"/tmp"}"#,
        true,
        "core.hooksPath's value changed without naming it",
    ),
    (
        "write",
        "/work/repo/.git/config",
        r#"{"content":"[core]\n\tbare = false\n"}"#,
        true,
        "git's configuration replaced by one without core.hooksPath",
    ),
    (
        "delete_file",
        ".git/config",
        r#"{"path":".git/config"}"#,
        true,
        "git's configuration deleted",
    ),
    (
        "write",
        "dotfiles/.gitconfig",
        r#"{"content":"[user]\n\tname = u\n"}"#,
        false,
        "a .gitconfig in a project, which git does not read",
    ),
    (
        "write",
        "/home/u/.bashrc",
        r#"{"content":"git commit --no-verify -m wip\n"}"#,
        true,
        "a bypass in a shell start-up file",
    ),
    (
        "write",
        "/home/u/.bashrc",
        r#"{"content":"alias ll='ls -la'\n"}"#,
        false,
        "an alias in a shell start-up file",
    ),
    (
        "write",
        "src/main.rs",
        r#"{"content":"fn main() {}"}"#,
        false,
        "ordinary code",
    ),
    (
        "write",
        "scripts/release.sh",
        r#"{"content":"set -e\ngit commit -n -m release\n"}"#,
        true,
        "a script that skips hooks when run later",
    ),
    (
        "write",
        "tools/ship",
        r##"{"content":"#!/usr/bin/env bash\ngit push --no-verify\n"}"##,
        true,
        "a script told by its #! line",
    ),
    (
        "edit",
        "Makefile",
        r#"{"old_string":"\tgit commit","new_string":"\tgit commit -n"}"#,
        true,
        "a makefile recipe",
    ),
    (
        "write",
        "scripts/release.sh",
        r#"{"content":"set -e\nnpm test\ngit commit -m release\n"}"#,
        false,
        "a script that commits with hooks",
    ),
    (
        "write",
        "/tmp/gc",
        r#"{"content":"[core]\n\thooksPath = /dev/null\n"}"#,
        true,
        "hooksPath in any file: GIT_CONFIG_GLOBAL can name it later",
    ),
    (
        "write",
        "/home/u/.gitconfig",
        r#"{"content":"[user]\n\tname = u\n[alias]\n\tci = commit --no-verify\n"}"#,
        true,
        "an alias that skips hooks in git's configuration",
    ),
    (
        "write",
        "/home/u/.gitconfig",
        r#"{"content":"[user]\n\tname = u\n[alias]\n\tci = commit\n"}"#,
        true,
        "the user's git configuration replaced whole: the gate cannot see what it held",
    ),
    (
        "edit",
        "/home/u/.zshrc",
        r##"{"old_string":"# end","new_string":"export LEFTHOOK=0\n# end"}"##,
        true,
        "a hook switch set for every later shell",
    ),
    (
        "write",
        ".husky/pre-commit",
        r##"{"content":"#!/bin/sh\nexit 0\nnpx lint-staged\n"}"##,
        true,
        "a hook that exits before its own commands",
    ),
    (
        "write",
        "/home/u/.config/husky/init.sh",
        r#"{"content":"export HUSKY=0\n"}"#,
        true,
        "husky's switch in the file it sources before every hook",
    ),
    (
        "edit",
        "/home/u/.config/husky/init.sh",
        r##"{"old_string":"# end","new_string":"exit 0\n# end"}"##,
        true,
        "an exit in the file husky sources before every hook",
    ),
    (
        "write",
        "/home/u/.config/husky/init.sh",
        r#"{"content":"export PATH=\"$HOME/.volta/bin:$PATH\"\n"}"#,
        false,
        "husky's init.sh setting PATH",
    ),
    (
        "write",
        "tools/commit.py",
        r#"{"content":"import subprocess\nsubprocess.run([\"git\", \"commit\", \"--no-verify\", \"-m\", \"x\"])\n"}"#,
        true,
        "a python script that skips hooks when run later",
    ),
    (
        "write",
        "src/app.py",
        r#"{"content":"def main():\n    print(\"hello\")\n"}"#,
        false,
        "ordinary python",
    ),
    (
        "edit",
        "lefthook-local.yml",
        r#"{"old_string":"pre-commit:","new_string":"pre-commit:\n  skip: true"}"#,
        true,
        "lefthook's local override told to skip",
    ),
    (
        "apply_patch",
        "lefthook-local.yml",
        r#"{"input":"*** Begin Patch\n*** Update File: lefthook-local.yml\n@@\n pre-commit:\n+  skip: true\n*** End Patch"}"#,
        true,
        "a patch that tells lefthook to skip",
    ),
    (
        "write",
        "notes/git.md",
        r#"{"content":"Never run git commit --no-verify.\n"}"#,
        false,
        "prose that names the option is not run",
    ),
];

#[test]
fn writes_that_disarm_hooks_are_refused_and_others_pass() {
    let mut wrong = Vec::new();
    for &(tool, path, input, refused, why) in CASES {
        let finding = write_bypass(tool, &[target(path, input)], input);
        if finding.is_some() != refused {
            wrong.push(format!("{tool} {path} ({why}): {finding:?}"));
        }
        if let Some(finding) = finding {
            assert!(
                finding.to_string().contains("block-git-hook-bypass"),
                "{finding}"
            );
        }
    }
    assert!(wrong.is_empty(), "decided wrongly:\n{}", wrong.join("\n"));
}
