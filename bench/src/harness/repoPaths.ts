/** Paths of the built programs the bench runs, resolved from this file (`bench/dist/harness/`). */
import { fileURLToPath } from "node:url";

/** The repository root. */
export const REPO_ROOT: string = fileURLToPath(new URL("../../../", import.meta.url));

/** The built agent CLI. */
export const AGENT_CLI: string = fileURLToPath(new URL("../../../agent/dist/cli.js", import.meta.url));

/** The built facilitator CLI. */
export const FACILITATOR_CLI: string = fileURLToPath(new URL("../../../facilitator/dist/cli.js", import.meta.url));

/** A built bench child program (`bench/dist/servers/<name>.js`). */
export function benchProgram(name: "exactFacilitatorServer" | "exactProviderServer" | "bareKoaServer"): string {
  return fileURLToPath(new URL(`../servers/${name}.js`, import.meta.url));
}

/** The child program the sampling profiler runs searches in (`bench/dist/poseidon/searchProcess.js`). */
export const SEARCH_PROCESS: string = fileURLToPath(new URL("../poseidon/searchProcess.js", import.meta.url));
