/**
 * Starts the built facilitator CLI (`facilitator/dist/cli.js start`) as a child process. anvil-fixtures
 * never imports the facilitator: it only runs its build output, exactly as an operator would.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../compile/compileContracts.js";
import { BaseError } from "../errors.js";
import { startProcess, type RunningProcess } from "./startProcess.js";

/** Path of the built facilitator CLI. */
export const FACILITATOR_CLI = join(REPO_ROOT, "facilitator", "dist", "cli.js");

/** A running facilitator process. */
export type FacilitatorProcess = RunningProcess & { url: string; listen: string };

/** The facilitator was not built (`make build`). */
export class FacilitatorNotBuiltError extends BaseError {
  override name = "FacilitatorNotBuiltError";
  constructor() {
    super(`${FACILITATOR_CLI} does not exist; run \`make build\` first`);
  }
}

/**
 * Starts `node [nodeArgs] facilitator/dist/cli.js start --config <configPath>` with `env` and waits for `started`.
 * `nodeArgs` carries the options Node refuses in `NODE_OPTIONS`, such as `--cpu-prof`.
 */
export async function startFacilitatorProcess(params: {
  configPath: string;
  env: Record<string, string | undefined>;
  nodeArgs?: readonly string[];
}): Promise<FacilitatorProcess> {
  if (!existsSync(FACILITATOR_CLI)) throw new FacilitatorNotBuiltError();
  let listen = "";
  const running = await startProcess({
    command: process.execPath,
    args: [...(params.nodeArgs ?? []), FACILITATOR_CLI, "start", "--config", params.configPath],
    env: { PATH: process.env.PATH, ...params.env },
    ready: (line) => {
      if (!line.includes('"event":"started"')) return false;
      listen = (JSON.parse(line) as { listen: string }).listen;
      return true;
    },
  });
  return { ...running, listen, url: `http://${listen}` };
}
