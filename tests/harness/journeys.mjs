// The journeys the harness tests share: each sets up a scratch HOME with
// `tama setup` alone, runs one prompt of the real harness against the
// scripted model, and returns what happened.

import fs from "node:fs";
import path from "node:path";

import { scratch, setup } from "./clients.mjs";
import { startModel } from "./model.mjs";

export const BYPASS = "git commit --no-verify -m bypass";

/** Asks for a --no-verify commit; what happened. */
export async function bypass(harness, env = {}) {
  const s = scratch(`${harness.name}-bypass`);
  const model = await startModel([{ shell: BYPASS }, { text: "stopping" }]);
  harness.configure(s.home, model);
  setup(harness.name, s.home, env);
  const out = await harness.prompt(s, model, "commit the staged file", env);
  await model.close();
  return { commits: s.commits(), transcript: model.transcript(), out };
}

/**
 * Has the model make one tool `call` (`home => ({name, input})`) in a HOME
 * whose `~/.tama` holds a marker file; what happened.
 */
export async function oneCall(harness, name, call) {
  const s = scratch(`${harness.name}-${name}`);
  const marker = path.join(s.home, ".tama", "marker");
  fs.mkdirSync(path.dirname(marker), { recursive: true });
  fs.writeFileSync(marker, "kept");
  const model = await startModel([{ call: call(s.home) }, { text: "stopping" }]);
  harness.configure(s.home, model);
  setup(harness.name, s.home);
  const out = await harness.prompt(s, model, "go on");
  await model.close();
  return { home: s.home, tamaHomeKept: fs.existsSync(marker), commits: s.commits(), transcript: model.transcript(), out };
}

/** Ends a turn while Oko holds open work the agent handed out; the model requests that followed. */
export async function stopWithOpenWork(harness, env = {}) {
  const s = scratch(`${harness.name}-stop`);
  const oko = path.join(s.home, ".oko");
  const agent = path.join(oko, "agents", harness.name);
  fs.mkdirSync(agent, { recursive: true });
  fs.writeFileSync(path.join(agent, "role.json"), JSON.stringify({ role: "supervisor" }));
  const work = path.join(agent, "work.json");
  const open = { handedOut: [{ id: "T-7", title: "review the parser", executor: "codex-2", status: "open" }] };
  fs.writeFileSync(work, JSON.stringify(open));
  // The second answer comes after the refusal: the work is closed then, so
  // the next stop passes and the run ends.
  const model = await startModel([
    { text: "all finished" },
    {
      text: "closing T-7 now",
      before: () => fs.writeFileSync(work, JSON.stringify({ handedOut: [{ ...open.handedOut[0], status: "done" }] })),
    },
  ]);
  harness.configure(s.home, model);
  setup(harness.name, s.home, env);
  const out = await harness.prompt(s, model, "finish up", { OKO_HOME: oko, ...env });
  await model.close();
  const turns = model.requests.filter((r) => Array.isArray(r.body.tools) && r.body.tools.length > 0);
  return { turns, out };
}

