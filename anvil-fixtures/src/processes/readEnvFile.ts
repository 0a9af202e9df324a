/** Reads a `KEY=value` file such as the stack's `facilitator.env` into a record. */
import { readFile } from "node:fs/promises";

/** Parses `path`; blank lines and `#` comments are skipped. */
export async function readEnvFile(path: string): Promise<Record<string, string>> {
  const entries = (await readFile(path, "utf8"))
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#") && line.includes("="))
    .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)] as const);
  return Object.fromEntries(entries);
}
