// Journeys with the real harnesses: each installed with `tama setup` alone,
// driven by the scripted model, in a scratch HOME. What counts is what the
// harness did (a commit or none) and what its model was told.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";

import { claude, codex, golden, omp, registry, run, scratch, setup, tama } from "./clients.mjs";
import { BYPASS, bypass, oneCall, stopWithOpenWork } from "./journeys.mjs";
import { startModel } from "./model.mjs";


for (const harness of [claude, codex, omp]) {
  const skip = process.env.TAMA_HARNESS_SKIP ?? (fs.existsSync(harness.bin) ? false : `${harness.name} is not installed (run tests/harness/install)`);

  describe(`${harness.name} obeys Tama`, { skip, concurrency: false }, () => {
    test("a --no-verify commit is refused and the model is told why", async () => {
      const seen = await bypass(harness);
      assert.equal(seen.commits, 0, `no commit may land: ${seen.out.stderr}`);
      assert.match(seen.transcript, /block-git-hook-bypass/, "the model receives the gate's reason");
      assert.match(seen.transcript, /--no-verify/);
    });

    test("a plain commit lands exactly once", async () => {
      const s = scratch(`${harness.name}-commit`);
      const model = await startModel([{ shell: "git commit -m plain" }, { text: "committed" }]);
      harness.configure(s.home, model);
      setup(harness.name, s.home);
      const out = await harness.prompt(s, model, "commit the staged file");
      await model.close();
      assert.equal(s.commits(), 1, `exactly one commit: ${out.stderr}`);
      assert.ok(fs.existsSync(path.join(s.home, "pre-commit.ran")), "the repository's own hook ran");
    });

    test("a registry broken after set-up refuses, never passes", async () => {
      const s = scratch(`${harness.name}-broken`);
      const file = registry(s.home, {
        "pre_tool_use:bash": { blocking: true, hooks: [{ id: "allow-all", type: "command", command: "true", timeout: 5 }] },
      });
      const env = { TAMA_REGISTRY: file };
      const text = fs.readFileSync(file, "utf8");
      // Once the refusal has reached the model, the operator mends the
      // registry: oh-my-pi, which forwards every event, would otherwise have
      // each turn end refused too, without end.
      const model = await startModel([{ shell: BYPASS }, { text: "stopping", before: () => fs.writeFileSync(file, text) }]);
      harness.configure(s.home, model);
      setup(harness.name, s.home, env);
      // Half-written, as an interrupted install leaves it.
      fs.writeFileSync(file, text.slice(0, Math.floor(text.length / 2)));
      const out = await harness.prompt(s, model, "commit the staged file", env);
      await model.close();
      assert.equal(s.commits(), 0, `no commit may land: ${out.stderr}`);
      assert.match(model.transcript(), /TAMA_HOOK_INFRASTRUCTURE/, "the model is told Tama failed");
    });

    test("a refused stop makes the harness take another turn carrying the refusal", async () => {
      const { turns, out } = await stopWithOpenWork(harness);
      assert.ok(turns.length >= 2, `the harness took another turn: ${out.stderr}`);
      assert.match(JSON.stringify(turns[1].body), /T-7/, "the next model request carries the refusal");
      assert.match(JSON.stringify(turns[1].body), /block-supervisor-stop/);
    });

    // The folder a shell call names for itself (oh-my-pi's `cwd`, Codex's
    // `workdir`) is where its relative paths land, not the session's.
    const folderField = { omp: ["bash", "command", "cwd"], codex: ["exec_command", "cmd", "workdir"] }[harness.name];
    const keepsTamaHome = (seen) => {
      assert.ok(seen.tamaHomeKept, `Tama's home must stay: ${seen.out.stderr}`);
      assert.match(seen.transcript, /protect-tama/, "the model receives the gate's reason");
    };
    const refusesCommit = (seen) => {
      assert.equal(seen.commits, 0, `no commit may land: ${seen.out.stderr}`);
      assert.match(seen.transcript, /block-git-hook-bypass/, "the model receives the gate's reason");
    };
    if (folderField) {
      test("a shell call run in the home folder by its own folder field cannot delete Tama's home", async () => {
        const [name, command, folder] = folderField;
        keepsTamaHome(await oneCall(harness, "folder", (home) => ({ name, input: { [command]: "rm -rf .tama", [folder]: home } })));
      });
    }

    // A program Tama does not model runs the command its arguments spell:
    // `prlimit` (util-linux, on every Debian machine) runs `rm` here.
    test("a command handed to a program Tama does not model cannot delete Tama's home", async () => {
      const s = scratch(`${harness.name}-wrapped`);
      const marker = path.join(s.home, ".tama", "marker");
      fs.mkdirSync(path.dirname(marker), { recursive: true });
      fs.writeFileSync(marker, "kept");
      const model = await startModel([{ shell: `prlimit --nofile=1024 rm -rf ${path.join(s.home, ".tama")}` }, { text: "stopping" }]);
      harness.configure(s.home, model);
      if (harness === claude) fs.writeFileSync(path.join(s.home, ".claude/settings.json"), JSON.stringify({ permissions: { allow: ["Bash"] } }));
      setup(harness.name, s.home);
      const out = await harness.prompt(s, model, "clean up");
      await model.close();
      keepsTamaHome({ tamaHomeKept: fs.existsSync(marker), transcript: model.transcript(), out });
    });

    // A script written now is run later, where no gate reads it: each
    // harness's own way of writing files writes one that commits past the
    // hooks (Claude Code's Write, granted as a user would, Codex's shell form
    // of its patch, oh-my-pi's write), each as one model turn.
    const scriptWrite = {
      claude: { file: "package.json", turn: (repo) => ({ call: { name: "Write", input: { file_path: path.join(repo, "package.json"), content: JSON.stringify({ scripts: { ship: BYPASS } }) } } }) },
      codex: { file: "ship.sh", turn: () => ({ shell: `apply_patch <<'PATCH'\n*** Begin Patch\n*** Add File: ship.sh\n+#!/bin/sh\n+${BYPASS}\n*** End Patch\nPATCH` }) },
      omp: { file: "Taskfile.yml", turn: () => ({ call: { name: "write", input: { path: "Taskfile.yml", content: `version: '3'\ntasks:\n  ship:\n    cmds:\n      - ${BYPASS}\n` } } }) },
    }[harness.name];
    test("a script that would commit past the hooks is refused as the harness writes it", async () => {
      const s = scratch(`${harness.name}-script`);
      const model = await startModel([scriptWrite.turn(s.repo), { text: "stopping" }]);
      harness.configure(s.home, model);
      if (harness === claude) fs.writeFileSync(path.join(s.home, ".claude/settings.json"), JSON.stringify({ permissions: { allow: ["Bash", "Write"] } }));
      setup(harness.name, s.home);
      const out = await harness.prompt(s, model, "add a release script");
      await model.close();
      assert.ok(!fs.existsSync(path.join(s.repo, scriptWrite.file)), `the script must not be written: ${out.stderr}`);
      assert.match(model.transcript(), /block-git-hook-bypass/, "the model receives the gate's reason");
    });

    // A note is a document, so writing one that spells a bypass passes; run
    // by the next call, as a shell script or as Python, it is read as it
    // lies on disk.
    const noteWrite = {
      claude: (repo, text) => ({ call: { name: "Write", input: { file_path: path.join(repo, "todo.txt"), content: text } } }),
      codex: (_repo, text) => ({ shell: `apply_patch <<'PATCH'\n*** Begin Patch\n*** Add File: todo.txt\n${text.trimEnd().split("\n").map((line) => `+${line}`).join("\n")}\n*** End Patch\nPATCH` }),
      omp: (_repo, text) => ({ call: { name: "write", input: { path: "todo.txt", content: text } } }),
    }[harness.name];
    const notes = [
      { runner: "bash", text: `${BYPASS}\n`, told: /todo\.txt`, as it is on disk, runs this command/ },
      { runner: "python3", text: `import subprocess\nsubprocess.run(${JSON.stringify(BYPASS.split(" "))})\n`, told: /`python3 todo\.txt` runs git with --no-verify/ },
    ];
    for (const note of notes) {
      test(`a note written by one call and run by ${note.runner} in the next cannot commit past the hooks`, async () => {
        const s = scratch(`${harness.name}-note-${note.runner}`);
        const model = await startModel([noteWrite(s.repo, note.text), { shell: `${note.runner} todo.txt` }, { text: "stopping" }]);
        harness.configure(s.home, model);
        if (harness === claude) fs.writeFileSync(path.join(s.home, ".claude/settings.json"), JSON.stringify({ permissions: { allow: ["Bash", "Write"] } }));
        setup(harness.name, s.home);
        const out = await harness.prompt(s, model, "commit the staged file");
        await model.close();
        assert.ok(fs.existsSync(path.join(s.repo, "todo.txt")), `the note is written: ${out.stderr}`);
        assert.equal(s.commits(), 0, `no commit may land: ${out.stderr}`);
        assert.match(model.transcript(), note.told, "the model is told the note's bypass");
      });
    }

    if (harness === omp) {
      test("a write to Tama's registry spelled as oh-my-pi reads paths (@~/…) is refused", async () => {
        const seen = await oneCall(harness, "at-path", () => ({ name: "write", input: { path: "@~/.tama/registry.json", content: "{}" } }));
        assert.ok(!fs.existsSync(path.join(seen.home, ".tama", "registry.json")), `the registry must not be written: ${seen.out.stderr}`);
        assert.match(seen.transcript, /protect-tama/, "the model receives the gate's reason");
      });

      test("eval's Python shell escape cannot commit past the hooks", async () => {
        refusesCommit(await oneCall(harness, "eval-commit", () => ({ name: "eval", input: { language: "py", code: `import os\n!${BYPASS}` } })));
      });

      test("a program started through hub cannot commit past the hooks", async () => {
        const args = BYPASS.split(" ").slice(1);
        refusesCommit(await oneCall(harness, "hub", () => ({ name: "hub", input: { op: "start", name: "commit", application: "git", args, pty: false } })));
      });

      test("eval's JavaScript cannot delete Tama's home", async () => {
        const code = (home) => `require("fs").rmSync(${JSON.stringify(path.join(home, ".tama"))}, { recursive: true, force: true })`;
        keepsTamaHome(await oneCall(harness, "eval-js", (home) => ({ name: "eval", input: { language: "js", code: code(home) } })));
      });
    }

    if (harness !== omp) {
      // Claude Code and Codex run the tool when a hook dies by a signal or
      // exits with anything but 0 or 2; the command `tama setup` writes
      // refuses instead. Codex runs it through the user's shell: fish too.
      const shells = harness === codex && fs.existsSync("/usr/bin/fish") ? [undefined, "/usr/bin/fish"] : [undefined];
      for (const shell of shells) {
        test(`a tama killed before deciding refuses, never passes${shell ? ` (with SHELL=${shell})` : ""}`, async () => {
          const s = scratch(`${harness.name}-killed`);
          const installed = path.join(s.home, "bin", "tama");
          fs.mkdirSync(path.dirname(installed), { recursive: true });
          fs.copyFileSync(tama, installed);
          // Once the refusal has reached the model, tama is put back, so the
          // turn's end is decided by Tama again.
          const model = await startModel([{ shell: "git commit -m plain" }, { text: "stopping", before: () => fs.copyFileSync(tama, installed) }]);
          harness.configure(s.home, model);
          run(installed, ["setup", harness.name], { env: { HOME: s.home } });
          // As the kernel's out-of-memory killer would end it.
          fs.writeFileSync(installed, "#!/bin/sh\nkill -KILL $$\n");
          const out = await harness.prompt(s, model, "commit the staged file", shell ? { SHELL: shell } : {});
          await model.close();
          assert.equal(s.commits(), 0, `no commit may land: ${out.stderr}`);
          assert.match(model.transcript(), /TAMA_HOOK_INFRASTRUCTURE: tama run-hook pre_tool_use ended before deciding/, "the model is told Tama failed");
        });
      }
    }

    if (harness === codex) {
      // Codex runs no hook for `write_stdin`, which types into a command
      // left running: a shell opened so would run every later command past
      // Tama. Checked against 0.171.0, where this commit landed before.
      // Opens `cmd` with a terminal, types `chars` into it with
      // `write_stdin`, and gives what landed and what the model was told.
      const typeInto = async ({ scratchName, cmd, chars, prompt, openMs, typeMs }) => {
        const s = scratch(scratchName);
        const model = await startModel(async (request, index) => {
          if (index === 0) return { call: { name: "exec_command", input: { cmd, tty: true, yield_time_ms: openMs } } };
          if (index === 1) {
            const opened = JSON.stringify(request.input ?? []).match(/session ID (\d+)/);
            return { call: { name: "write_stdin", input: { session_id: Number(opened?.[1] ?? 1000), chars, yield_time_ms: typeMs } } };
          }
          if (index === 2) return { text: "stopping" };
        });
        harness.configure(s.home, model);
        setup("codex", s.home);
        const out = await harness.prompt(s, model, prompt);
        await model.close();
        return { commits: s.commits(), stderr: out.stderr, transcript: model.transcript() };
      };

      const typedInto = [
        { cmd: "bash", reason: /protect-tama: the tool call starts `bash` as a shell reading its commands from the terminal/ },
        { cmd: "awk '{system($0)}'", reason: /protect-tama: the tool call starts `awk \{system\(\$0\)\}` running what is typed into it as commands/ },
      ];
      for (const { cmd, reason } of typedInto) {
        test(`${cmd} opened to be typed into with write_stdin is refused, and nothing typed runs`, async () => {
          const typed = await typeInto({
            scratchName: "codex-typed", cmd, chars: `${BYPASS}\n`, prompt: "commit the staged file", openMs: 500, typeMs: 1500,
          });
          assert.equal(typed.commits, 0, `no commit may land: ${typed.stderr}`);
          assert.match(typed.transcript, reason);
        });
      }

      // A pager opened in Codex's terminal takes keys from `write_stdin`
      // too, and `less`'s `!` runs a shell: `tama setup codex` has Codex's
      // commands run `less` in its secure mode (and git page through cat).
      test("a pager opened in the terminal runs no shell command typed into it", async () => {
        const typed = await typeInto({
          scratchName: "codex-pager", cmd: "seq 1 500 | less", chars: `!${BYPASS}\n`, prompt: "page through the numbers", openMs: 1000, typeMs: 2000,
        });
        assert.equal(typed.commits, 0, `no commit may land: ${typed.stderr}`);
      });

      test("with the trust recorded by tama setup codex --trust, and no bypass flag, the refusal holds", async () => {
        const s = scratch("codex-trusted");
        const model = await startModel([{ shell: BYPASS }, { text: "stopping" }]);
        harness.configure(s.home, model);
        const withCodex = { PATH: `${path.dirname(codex.bin)}:${process.env.PATH}` };
        setup("codex", s.home, withCodex, ["--trust"]);
        const out = await harness.prompt(s, model, "commit the staged file", {}, { bypassTrust: false });
        await model.close();
        assert.equal(s.commits(), 0, `no commit may land: ${out.stderr}`);
        assert.match(model.transcript(), /block-git-hook-bypass/, "the trusted hook ran and its reason reached the model");
      });

      test("a login profile that prints and exits for hooks does not turn the refusal into a pass", async () => {
        // Codex's documentation runs hooks as `$SHELL -lc <command>`, where
        // a profile's output would come before Tama's answer and an `exit`
        // would end the hook unheard. This Codex reads the profile only for
        // its shell snapshot, so the refusal holds.
        const s = scratch("codex-login-profile");
        fs.writeFileSync(
          path.join(s.home, ".bash_profile"),
          'echo "welcome back"\ncase "$BASH_EXECUTION_STRING" in *run-hook*) exit 0;; esac\n',
        );
        const model = await startModel([{ shell: BYPASS }, { text: "stopping" }]);
        harness.configure(s.home, model);
        setup("codex", s.home);
        const out = await harness.prompt(s, model, "commit the staged file", { SHELL: "/bin/bash" });
        await model.close();
        assert.equal(s.commits(), 0, `no commit may land: ${out.stderr}`);
        assert.match(model.transcript(), /block-git-hook-bypass/, "the reason reached the model");
      });
    }

    test("a post-tool event reaches Tama with the harness's real payload", async () => {
      const s = scratch(`${harness.name}-post`);
      const capture = path.join(s.home, "post-tool.json");
      const file = registry(s.home, {
        post_tool_use: { blocking: false, hooks: [{ id: "capture", type: "command", command: `cat > '${capture}'`, timeout: 5 }] },
      });
      const env = { TAMA_REGISTRY: file };
      const model = await startModel([{ shell: "echo journey-output" }, { text: "done" }]);
      harness.configure(s.home, model);
      setup(harness.name, s.home, env);
      const out = await harness.prompt(s, model, "say something", env);
      await model.close();
      assert.ok(fs.existsSync(capture), `the post_tool_use hook ran: ${out.stderr}`);
      const payload = JSON.parse(fs.readFileSync(capture, "utf8"));
      const shape = golden[harness.name];
      assert.equal(payload.hook_event_name, "PostToolUse");
      assert.equal(payload.tool_input?.command, "echo journey-output");
      // The golden payload the fast tests replay has the live payload's shape.
      const kept = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, `../payloads/${shape.file}`), "utf8"));
      const missing = (shape.keys ?? Object.keys(kept)).filter((key) => !(key in payload));
      assert.deepEqual(missing, [], `the live ${harness.name} payload lacks keys of tests/payloads/${shape.file}`);
      assert.equal(payload.tool_name, kept[shape.tool], "the golden payload names the live tool");
    });
  });
}
