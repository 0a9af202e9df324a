/** Variants of the stack's generated `facilitator.toml` for scenarios that need another configuration. */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parse, stringify } from "smol-toml";
import type { StackProcess } from "./startStackProcess.js";

/** Table-level changes: `{ daemon: { finalize_interval_ms: 600000 } }`; `null` removes a key or a table. */
export type ConfigPatch = Record<string, Record<string, unknown> | string | null>;

/** Writes `<name>.toml` beside the stack's config with `patch` applied and its own journal; returns its path. */
export async function writeFacilitatorConfig(stack: StackProcess, name: string, patch: ConfigPatch = {}): Promise<string> {
  const config = parse(await readFile(stack.facilitatorToml, "utf8")) as Record<string, unknown>;
  // Two pre-derived burn addresses per facilitator: every one costs about a second of CPU at start.
  const merged: Record<string, unknown> = {
    ...config,
    settlement: { ...(config.settlement as object), journal: `${name}.journal.jsonl` },
    daemon: { ...(config.daemon as object), burn_address_pool_size: 2 },
  };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else if (typeof value === "string") merged[key] = value;
    else {
      const table: Record<string, unknown> = { ...((merged[key] as Record<string, unknown> | undefined) ?? {}) };
      for (const [inner, innerValue] of Object.entries(value)) {
        if (innerValue === null) delete table[inner];
        else table[inner] = innerValue;
      }
      merged[key] = table;
    }
  }
  const path = join(stack.dir, `${name}.toml`);
  await writeFile(path, stringify(merged));
  return path;
}
