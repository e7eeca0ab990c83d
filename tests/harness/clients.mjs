// The real harnesses, pinned, each run for one prompt against the scripted
// model with a scratch HOME, and a scratch git repository to work in.

import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { builtTama } from "../built-tama.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, "../..");
/** Where `.ci/run` installs the pinned clients (`tests/harness/install`). */
export const clientsDir = process.env.TAMA_HARNESS_CLIENTS ?? path.join(root, "target/harness-clients");
export const tama = process.env.TAMA_BIN ?? builtTama();

const quiet = {
  DISABLE_AUTOUPDATER: "1",
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  DISABLE_TELEMETRY: "1",
  DISABLE_ERROR_REPORTING: "1",
};

/** A scratch HOME holding a git repository `repo` with one staged file. */
export function scratch(name) {
  const base = path.join(root, "target/harness-runs");
  fs.mkdirSync(base, { recursive: true });
  const home = fs.mkdtempSync(path.join(base, `${name}-`));
  const repo = path.join(home, "repo");
  fs.mkdirSync(repo);
  const git = (args) => run("git", args, { cwd: repo, env: { HOME: home } });
  git(["init", "-q"]);
  git(["config", "user.email", "journey@example.invalid"]);
  git(["config", "user.name", "Journey"]);
  fs.writeFileSync(path.join(repo, "notes.txt"), "staged\n");
  git(["add", "notes.txt"]);
  // Every hook the repository has leaves a marker, so a commit made without
  // its hooks shows.
  fs.writeFileSync(path.join(repo, ".git/hooks/pre-commit"), `#!/bin/sh\necho ran >> "${home}/pre-commit.ran"\n`, { mode: 0o755 });
  return { home, repo, commits: () => commitCount(repo, home) };
}

function commitCount(repo, home) {
  const out = run("git", ["rev-list", "--count", "HEAD"], { cwd: repo, env: { HOME: home }, check: false });
  return out.status === 0 ? Number(out.stdout.trim()) : 0;
}

/** Runs a command to completion, synchronously (never while a model must answer). */
export function run(cmd, args, { cwd, env = {}, input, check = true } = {}) {
  const out = spawnSync(cmd, args, { cwd, input, encoding: "utf8", env: { ...process.env, ...env } });
  if (check && out.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${out.status}: ${out.stderr}`);
  return out;
}

/** Runs a command without blocking the event loop, so the in-process model can answer it. */
export function runAsync(cmd, args, { cwd, env = {}, timeoutMs = 180_000 } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    // The last megabyte of each stream is enough to say what went wrong.
    const keep = (text) => (text.length > 1 << 20 ? text.slice(-(1 << 20)) : text);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout = keep(stdout + d)));
    child.stderr.on("data", (d) => (stderr = keep(stderr + d)));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr });
    });
  });
}

export const claude = {
  name: "claude",
  bin: path.join(clientsDir, "node_modules/.bin/claude"),
  configure(home) {
    fs.mkdirSync(path.join(home, ".claude"), { recursive: true });
    // With Bash allowed, Tama's hook is the only thing that can stop a command.
    fs.writeFileSync(path.join(home, ".claude/settings.json"), JSON.stringify({ permissions: { allow: ["Bash"] } }, null, 2));
  },
  prompt({ home, repo }, model, prompt, env = {}) {
    return runAsync(this.bin, ["-p", prompt, "--output-format", "json"], {
      cwd: repo,
      env: { HOME: home, ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: "sk-journey", ...quiet, ...env },
    });
  },
};

export const codex = {
  name: "codex",
  bin: path.join(clientsDir, "node_modules/.bin/codex"),
  configure(home, model) {
    fs.mkdirSync(path.join(home, ".codex"), { recursive: true });
    fs.writeFileSync(
      path.join(home, ".codex/config.toml"),
      [
        'model = "scripted"',
        'model_provider = "scripted"',
        'approval_policy = "never"',
        'sandbox_mode = "danger-full-access"',
        "check_for_update_on_startup = false",
        "",
        "[analytics]",
        "enabled = false",
        "",
        "[model_providers.scripted]",
        'name = "scripted"',
        `base_url = "${model.url}/v1"`,
        'wire_api = "responses"',
        'env_key = "SCRIPTED_API_KEY"',
        "",
      ].join("\n"),
    );
  },
  prompt({ home, repo }, model, prompt, env = {}, { bypassTrust = true } = {}) {
    const offline = ["apps", "plugins", "remote_plugin", "plugin_sharing", "skill_mcp_dependency_install", "api_key_model_discovery"].flatMap((f) => ["--disable", f]);
    const trust = bypassTrust ? ["--dangerously-bypass-hook-trust"] : [];
    return runAsync(this.bin, ["exec", "--json", ...trust, ...offline, prompt], {
      cwd: repo,
      env: { HOME: home, SCRIPTED_API_KEY: "sk-journey", ...env },
    });
  },
};

/** `tama setup <harness>` as a new user runs it, with `env` (a registry, say). */
export function setup(harness, home, env = {}, extra = []) {
  return run(tama, ["setup", harness, ...extra], { env: { HOME: home, ...env } });
}

/** A sealed file registry holding `events`, written into `dir`. */
export function registry(dir, events) {
  const file = path.join(dir, "registry.json");
  fs.writeFileSync(file, JSON.stringify({ version: 1, releaseId: "journey-1", events }, null, 2));
  run(tama, ["registry", "seal", file]);
  return file;
}

/** Where `scripts/install-omp` put oh-my-pi 18.2.3 and bun 1.4.5. */
const ompBin = path.join(process.env.OMP_PACKAGES ?? path.join(root, "target/oh-my-pi"), "node_modules/.bin");

export const omp = {
  name: "omp",
  bin: path.join(ompBin, "omp"),
  configure(home, model) {
    const agent = path.join(home, ".omp/agent");
    fs.mkdirSync(agent, { recursive: true });
    fs.writeFileSync(
      path.join(agent, "models.yml"),
      [
        "providers:",
        "  scripted:",
        `    baseUrl: ${model.url}/v1`,
        "    apiKey: sk-journey",
        "    api: openai-completions",
        "    models:",
        "      - id: scripted",
        "        name: Scripted model",
        "        reasoning: false",
        "        input: [text]",
        "        contextWindow: 128000",
        "        maxTokens: 4096",
        "",
      ].join("\n"),
    );
  },
  prompt({ home, repo }, model, prompt, env = {}) {
    return runAsync(this.bin, ["-p", "--model", "scripted/scripted", "--no-title", prompt], {
      cwd: repo,
      env: { HOME: home, PI_NO_TITLE: "1", OMP_SKIP_SETUP: "1", PATH: `${ompBin}:${process.env.PATH}`, ...env },
    });
  },
};

/**
 * Each harness's golden post-tool payload, which the fast tests replay: the
 * keys a live hook payload must carry, and where the golden one names the
 * tool. oh-my-pi's adapter hands hooks its tool_result in Claude Code's
 * shape; its golden file is oh-my-pi's own event, which names the same tool.
 */
export const golden = {
  claude: { file: "claude-PostToolUse.json", tool: "tool_name", keys: null },
  codex: { file: "codex-PostToolUse.json", tool: "tool_name", keys: null },
  omp: { file: "omp-tool_result.json", tool: "toolName", keys: ["session_id", "cwd", "hook_event_name", "tool_name", "tool_input", "tool_use_id", "tool_response"] },
};
