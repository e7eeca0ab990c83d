// Peers with real sessions: a Claude Code session and a Codex session, set up
// with `tama setup peers` alone, each in its own git checkout under one HOME,
// running at the same time against their own scripted models. Each agent
// learns its `PEER_RUN` and its peer's key from the session-start brief the
// model receives, and runs peer commands through its own shell tool, so the
// command proves it is the session's by running under the agent's process.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";

import { claude, codex, root, run, setup } from "./clients.mjs";
import { startModel } from "./model.mjs";

const NOTE = "the parser moved to src/parse.rs; rebase before you touch it";

const missing = [claude, codex].filter((h) => !fs.existsSync(h.bin)).map((h) => `${h.name} is not installed (run tests/harness/install)`);
const skip = process.env.TAMA_HARNESS_SKIP ?? (missing.length > 0 ? missing.join("; ") : false);

/** Every string in a request body, one a line: what the model was shown. */
function shown(body) {
  const out = [];
  const walk = (v) => {
    if (typeof v === "string") out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  walk(body);
  return out.join("\n");
}

/** What a session-start brief in `text` tells its agent: its key, `PEER_RUN`, its live peers. */
function brief(text) {
  const me = text.match(/You are peer session (\S+) \(/)?.[1];
  const peerRun = text.match(/^PEER_RUN=(.+)$/m)?.[1];
  const peers = [...text.matchAll(/^- (\S+) \(/gm)].map((m) => m[1]);
  assert.ok(me && peerRun, `the model receives a peer brief: ${text.slice(0, 2000)}`);
  return { me, peerRun, peers };
}

/** The folder guard's refusal of a write into `checkout`, naming its owner `key`. */
const owner = (checkout, key) => new RegExp(`is inside ${checkout.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}, where peer session ${key} .*is working`);

/** A promise with its resolver, for one session to wait on the other. */
function signal() {
  let resolve;
  const promise = new Promise((r) => (resolve = r));
  return { promise, resolve };
}

function checkout(home, name) {
  const repo = path.join(home, name);
  fs.mkdirSync(repo);
  const git = (args) => run("git", args, { cwd: repo, env: { HOME: home } });
  git(["init", "-q"]);
  git(["config", "user.email", "peers@example.invalid"]);
  git(["config", "user.name", "Peers"]);
  fs.writeFileSync(path.join(repo, "README"), `${name}\n`);
  git(["add", "README"]);
  git(["commit", "-q", "-m", "start"]);
  return repo;
}

test("a Claude Code and a Codex session, live together, pass a note and keep out of each other's checkouts", { skip, timeout: 300_000 }, async () => {
  const base = path.join(root, "target/harness-runs");
  fs.mkdirSync(base, { recursive: true });
  const home = fs.mkdtempSync(path.join(base, "peers-"));
  const alpha = checkout(home, "alpha"); // Claude Code's
  const beta = checkout(home, "beta"); // Codex's

  const codexBriefed = signal(); // Codex registered; its brief
  const claudeDone = signal(); // Claude sent its note and tried its write
  const codexTried = signal(); // Codex tried its write
  let claudeSeen;
  let codexSeen;

  const claudeModel = await startModel(async (request, index) => {
    const text = shown(request);
    if (index === 0) {
      claudeSeen = brief(text);
      const peer = claudeSeen.peers.find((p) => p.startsWith("codex-"));
      assert.ok(peer, `Claude's brief lists the live Codex session: ${text.slice(0, 2000)}`);
      claudeSeen.peer = peer;
      return { shell: `${claudeSeen.peerRun} note ${peer} "${NOTE}"` };
    }
    if (index === 1) return { call: { name: "Write", input: { file_path: path.join(beta, "from-claude.txt"), content: "claude was here\n" } } };
    if (index === 2) {
      claudeDone.resolve();
      // Stays live, so its checkout is guarded while Codex tries to write there.
      return { text: "done here", before: () => codexTried.promise };
    }
    return { text: "done" };
  });
  const codexModel = await startModel(async (request, index) => {
    if (index === 0) {
      codexSeen = brief(shown(request));
      codexBriefed.resolve();
      const patch = ["*** Begin Patch", `*** Add File: ${path.join(alpha, "from-codex.txt")}`, "+codex was here", "*** End Patch"].join("\n");
      return { shell: `apply_patch <<'PATCH'\n${patch}\nPATCH`, before: () => claudeDone.promise };
    }
    if (index === 1) {
      codexTried.resolve();
      return { text: "finished" };
    }
    return { text: "noted" };
  });

  try {
    claude.configure(home, claudeModel);
    const settings = path.join(home, ".claude/settings.json");
    fs.writeFileSync(settings, JSON.stringify({ permissions: { allow: ["Bash", "Write"] } }, null, 2));
    codex.configure(home, codexModel);
    setup("peers", home);

    const codexRun = codex.prompt({ home, repo: beta }, codexModel, "work on the parser");
    await Promise.race([codexBriefed.promise, codexRun.then((out) => assert.fail(`Codex ended before its first turn: ${out.stderr}`))]);
    const claudeOut = await claude.prompt({ home, repo: alpha }, claudeModel, "tell the codex session about the parser move");
    const codexOut = await codexRun;

    const claudeAfter = claudeModel.requests.filter((r) => Array.isArray(r.body.tools) && r.body.tools.length > 0).map((r) => shown(r.body));
    const codexAfter = codexModel.requests.filter((r) => Array.isArray(r.body.tools) && r.body.tools.length > 0).map((r) => shown(r.body));

    // The note was sent by Claude's own agent, found by its process.
    assert.ok(claudeAfter.length >= 3, `Claude took its turns: ${claudeOut.stderr}`);
    assert.doesNotMatch(claudeAfter[1], /refused|cannot act for session/, "the note is sent as Claude's session");
    // Claude's write into Codex's checkout is refused, naming the owner.
    assert.ok(!fs.existsSync(path.join(beta, "from-claude.txt")), "Claude's write never lands in Codex's checkout");
    assert.match(claudeAfter[2], owner(beta, codexSeen.me), "Claude's model is told who owns the checkout");
    // Codex's write into Claude's checkout is refused, naming the owner.
    assert.ok(!fs.existsSync(path.join(alpha, "from-codex.txt")), `Codex's patch never lands in Claude's checkout: ${codexAfter[1]?.slice(-3000)}`);
    assert.match(codexAfter[1], owner(alpha, claudeSeen.me), "Codex's model is told who owns the checkout");
    // Codex's stop delivers the note: its next model request carries it.
    assert.ok(codexAfter.length >= 3, `Codex took another turn after its stop: ${codexOut.stderr}`);
    assert.doesNotMatch(codexAfter[1], /rebase before you touch it/, "the note arrives at the stop, not before");
    assert.match(codexAfter[2], /rebase before you touch it/, "the request after Codex's stop carries the note");
    assert.match(codexAfter[2], new RegExp(claudeSeen.me), "the note names its sender");
  } finally {
    // What each model was sent, kept for whoever reads a failure.
    fs.writeFileSync(path.join(home, "claude-requests.json"), JSON.stringify(claudeModel.requests, null, 1));
    fs.writeFileSync(path.join(home, "codex-requests.json"), JSON.stringify(codexModel.requests, null, 1));
    await claudeModel.close();
    await codexModel.close();
  }
});
