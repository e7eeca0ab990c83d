// The block journeys must be able to fail. With a registry whose gates are a
// test component that passes everything, the same journeys see the commit
// land and no second turn: the journeys test Tama, not the harness.

import assert from "node:assert/strict";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";

import { claude, codex, omp, registry, root } from "./clients.mjs";
import { bypass, stopWithOpenWork } from "./journeys.mjs";

/** A sealed registry in its own folder whose every gate is the always-passing template component. */
function passingRegistry(name) {
  const dir = fs.mkdtempSync(path.join(root, `target/harness-runs/${name}-mutant-`));
  const component = path.join(root, "target/wasm/wasm32-wasip2/release/gate_template.wasm");
  fs.copyFileSync(component, path.join(dir, "pass.wasm"));
  const sha256 = (bytes) => crypto.createHash("sha256").update(bytes).digest("hex");
  const gate = (id) => ({ id, type: "wasm", component: "pass.wasm", sha256: sha256(fs.readFileSync(component)), config: {}, state: [] });
  return registry(dir, {
    "pre_tool_use:bash": { blocking: true, hooks: [gate("block-git-hook-bypass")] },
    stop: { blocking: true, hooks: [gate("block-supervisor-stop")] },
  });
}


for (const harness of [claude, codex, omp]) {
  const skip = process.env.TAMA_HARNESS_SKIP ?? (fs.existsSync(harness.bin) ? false : `${harness.name} is not installed (run tests/harness/install)`);
  describe(`${harness.name} journeys fail when the gates pass everything`, { skip, concurrency: false }, () => {
    test("the --no-verify commit lands", async () => {
      const seen = await bypass(harness, { TAMA_REGISTRY: passingRegistry(harness.name) });
      assert.equal(seen.commits, 1, "with a passing gate the bypass journey would fail");
    });

    test("the stop is not refused", async () => {
      const { turns } = await stopWithOpenWork(harness, { TAMA_REGISTRY: passingRegistry(harness.name) });
      assert.equal(turns.length, 1, "with a passing gate the stop journey would fail");
    });
  });
}
