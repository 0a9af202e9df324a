import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The agent package folder. */
export const AGENT_DIR = fileURLToPath(new URL("../../", import.meta.url));

/** The built CLI the real-process tests run; `make test` builds it first, tests never build. */
export const AGENT_CLI = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

/** A module of the built agent, as a file URL a child process can import. */
export function builtModule(relative: string): string {
  const path = fileURLToPath(new URL(`../../dist/${relative}`, import.meta.url));
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`make build\` (or \`npx tsc -b\`) before the tests`);
  return new URL(`file://${path}`).href;
}
