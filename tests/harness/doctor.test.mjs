// `tama doctor` against real set-ups: it passes a clean one and names each
// fault a user meets, with the command that fixes it.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";

import { clientsDir, codex, run, scratch, setup, tama } from "./clients.mjs";

const withCodex = { PATH: `${path.join(clientsDir, "node_modules/.bin")}:${process.env.PATH}` };
const skip = process.env.TAMA_HARNESS_SKIP ?? (fs.existsSync(codex.bin) ? false : "codex is not installed (run tests/harness/install)");

function doctor(home, env = {}) {
  const out = run(tama, ["doctor", "--json"], { env: { HOME: home, ...withCodex, ...env }, check: false });
  const report = JSON.parse(out.stdout);
  const failing = report.findings.filter((f) => !f.ok);
  return { status: out.status, report, failing, text: run(tama, ["doctor"], { env: { HOME: home, ...withCodex, ...env }, check: false }).stdout };
}

describe("tama doctor", { skip, concurrency: false }, () => {
  test("passes a clean set-up of both harnesses, Codex's trust recorded", () => {
    const { home } = scratch("doctor-clean");
    setup("claude", home, withCodex);
    setup("codex", home, withCodex, ["--trust"]);
    const seen = doctor(home);
    assert.deepEqual(seen.failing, [], seen.text);
    assert.equal(seen.status, 0);
    assert.match(seen.text, /codex reads the answer to a --no-verify commit as a block/);
    assert.match(seen.text, /claude reads the answer to a --no-verify commit as a block/);
  });

  test("finds a Codex hook nobody trusted", () => {
    const { home } = scratch("doctor-untrusted");
    setup("codex", home, withCodex);
    const seen = doctor(home);
    assert.equal(seen.status, 1);
    const trust = seen.failing.find((f) => f.check === "codex trust");
    assert.ok(trust, seen.text);
    assert.match(trust.fix, /tama setup codex --trust/);
  });

  test("finds a config that runs another tama", () => {
    const { home } = scratch("doctor-other");
    const other = path.join(home, "old/tama");
    fs.mkdirSync(path.dirname(other));
    fs.copyFileSync(tama, other);
    fs.chmodSync(other, 0o755);
    run(other, ["setup", "claude"], { env: { HOME: home } });
    const seen = doctor(home);
    assert.equal(seen.status, 1);
    const wrong = seen.failing.find((f) => f.check.startsWith("claude hook") && f.detail.includes("not this tama"));
    assert.ok(wrong, seen.text);
    assert.match(wrong.detail, /old\/tama/);
    assert.match(wrong.fix, /setup claude/);
  });

  test("finds an entry written before entries refused for a tama that ends without an answer", () => {
    const { home } = scratch("doctor-unguarded");
    setup("claude", home);
    const settings = path.join(home, ".claude/settings.json");
    const config = JSON.parse(fs.readFileSync(settings, "utf8"));
    const handler = config.hooks.PreToolUse[0].hooks[0];
    handler.command = handler.command.split(" || ")[0];
    fs.writeFileSync(settings, JSON.stringify(config, null, 2));
    const seen = doctor(home);
    assert.equal(seen.status, 1);
    assert.match(seen.text, /claude reads the answer to a --no-verify commit as a block/, "the entry still refuses what Tama refuses");
    const open = seen.failing.find((f) => f.check === "claude hook PreToolUse" && f.detail.includes("when tama ends without an answer"));
    assert.ok(open, seen.text);
    assert.match(open.detail, /runs the tool/);
    assert.match(open.fix, /tama setup claude/);
  });

  test("finds a broken registry, and the hooks that now refuse everything", () => {
    const { home } = scratch("doctor-registry");
    const registry = path.join(home, "registry.json");
    fs.writeFileSync(registry, '{"version": 1, "events": {');
    setup("claude", home);
    const seen = doctor(home, { TAMA_REGISTRY: registry });
    assert.equal(seen.status, 1);
    const broken = seen.failing.find((f) => f.check === "registry");
    assert.ok(broken, seen.text);
    assert.match(broken.detail, /parsing hook registry/);
    assert.match(broken.fix, /registry\.json/);
  });
});

describe("tama doctor and oh-my-pi", { skip: process.env.TAMA_HARNESS_SKIP ?? false, concurrency: false }, () => {
  test("passes a fresh tama setup omp and finds a stale adapter", () => {
    const { home } = scratch("doctor-omp");
    setup("omp", home);
    let seen = doctor(home);
    assert.deepEqual(seen.failing, [], seen.text);
    assert.match(seen.text, /omp engine answer: the installed engine refuses a --no-verify commit/);
    const adapter = path.join(home, ".shared-hooks/omp/adapter.js");
    fs.writeFileSync(adapter, fs.readFileSync(adapter, "utf8").replace("export", "// an older release\nexport"));
    seen = doctor(home);
    assert.equal(seen.status, 1);
    const stale = seen.failing.find((f) => f.check === "omp adapter");
    assert.ok(stale, seen.text);
    assert.match(stale.detail, /stale adapter/);
    assert.match(stale.fix, /tama setup omp/);
  });
});
