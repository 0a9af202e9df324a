/**
 * Starts the built demo provider (`provider-demo/dist/server.js`) as a child process. anvil-fixtures never
 * imports the provider: it only runs its build output, as an operator would.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../compile/compileContracts.js";
import { BaseError } from "../errors.js";
import { startProcess, type RunningProcess } from "./startProcess.js";

/** Path of the built demo provider. */
export const PROVIDER_SERVER = join(REPO_ROOT, "provider-demo", "dist", "server.js");

/** A running provider with its base URL. */
export type ProviderProcess = RunningProcess & { url: string };

/** Options of {@link startProviderProcess}. */
export type StartProviderProcessParameters = {
  facilitatorUrl: string;
  /** List price of `GET /weather` in base units (the provider's default when absent). */
  price?: string | undefined;
  /** Default 0: a free port. */
  port?: number | undefined;
  /** Extra variables, e.g. `NODE_OPTIONS`. */
  env?: Record<string, string | undefined> | undefined;
};

/** The provider was not built (`make build`). */
export class ProviderNotBuiltError extends BaseError {
  override name = "ProviderNotBuiltError";
  constructor() {
    super(`${PROVIDER_SERVER} does not exist; run \`make build\` first`);
  }
}

/** Starts `node provider-demo/dist/server.js` against `facilitatorUrl` and waits for its `listening` line. */
export async function startProviderProcess(parameters: StartProviderProcessParameters): Promise<ProviderProcess> {
  if (!existsSync(PROVIDER_SERVER)) throw new ProviderNotBuiltError();
  let url = "";
  const running = await startProcess({
    command: process.execPath,
    args: [PROVIDER_SERVER],
    env: {
      PATH: process.env.PATH,
      ...parameters.env,
      FACILITATOR_URL: parameters.facilitatorUrl,
      PORT: String(parameters.port ?? 0),
      ...(parameters.price === undefined ? {} : { PRICE: parameters.price }),
    },
    ready: (line) => {
      if (!line.includes('"event":"listening"')) return false;
      url = (JSON.parse(line) as { url: string }).url;
      return true;
    },
  });
  return { ...running, url };
}
