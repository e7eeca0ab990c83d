// Where the workspace's release build puts `tama`: `target/<host tuple>/release/`,
// since every build names the host's target (`.cargo/config.toml`).

import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The path of the built `tama`, the host tuple asked of `rustc`. */
export function builtTama() {
  const host = execFileSync("rustc", ["-vV"], { encoding: "utf8" }).match(/^host: (\S+)$/m)?.[1];
  if (!host) throw new Error("`rustc -vV` names no host tuple");
  return path.join(root, "target", host, "release", "tama");
}
