/**
 * Test builders for the command tests: read the local stack's `facilitator.env`, write variants of its
 * `facilitator.toml` with overrides, and find a port nothing listens on. Shipped in `src` (not a test file)
 * so every command test can share them; nothing in the CLI imports them.
 */
import { readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { parse, stringify } from "smol-toml";

/** A TOML table or an override of one: nested tables as plain objects; `undefined` removes a key. */
export type TomlOverrides = { [key: string]: unknown };

/** Parses a `KEY=value` env file (comments and blank lines ignored) into an environment record. */
export async function readEnvFile(path: string): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  for (const line of (await readFile(path, "utf8")).split("\n")) {
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    const equals = trimmed.indexOf("=");
    if (equals > 0) env[trimmed.slice(0, equals)] = trimmed.slice(equals + 1);
  }
  return env;
}

let variantCount = 0;

/**
 * Writes `base` (a TOML file) deep-merged with `overrides` as a new TOML file in the same folder, so relative
 * paths in it resolve alike, and returns the new file's path.
 *
 * @example
 * const path = await writeConfigVariant(stack.files.facilitatorToml, { network: { chain_id: 1 } });
 */
export async function writeConfigVariant(base: string, overrides: TomlOverrides, name?: string): Promise<string> {
  const table = parse(await readFile(base, "utf8"), { integersAsBigInt: "asNeeded" });
  const merged = merge(table, overrides);
  variantCount++;
  const path = join(dirname(base), `${name ?? `variant-${process.pid}-${variantCount}`}.toml`);
  await writeFile(path, stringify(merged));
  return path;
}

/** A local TCP port that was free a moment ago and has nothing listening on it now. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new TypeError("expected a TCP address");
  return address.port;
}

function merge(base: TomlOverrides, overrides: TomlOverrides): TomlOverrides {
  const result: TomlOverrides = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    const current = result[key];
    if (value === undefined) delete result[key];
    else if (isTable(value) && isTable(current)) result[key] = merge(current, value);
    else result[key] = value;
  }
  return result;
}

function isTable(value: unknown): value is TomlOverrides {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
