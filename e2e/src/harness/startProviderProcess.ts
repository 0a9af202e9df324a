/** The built demo provider (`provider-demo/dist/server.js`) as a real child process on a free port. */
import { join } from "node:path";
import { startProcess, type RunningProcess } from "@svc/anvil-fixtures";
import { REPO_ROOT } from "./repoRoot.js";

/** A running provider with its URL. */
export type ProviderProcess = RunningProcess & { url: string };

/** Starts the provider against `facilitatorUrl`; resolves on its `listening` line. */
export async function startProviderProcess(params: { facilitatorUrl: string; price?: string; port?: number }): Promise<ProviderProcess> {
  let url = "";
  const running = await startProcess({
    command: process.execPath,
    args: [join(REPO_ROOT, "provider-demo", "dist", "server.js")],
    env: {
      PATH: process.env.PATH,
      FACILITATOR_URL: params.facilitatorUrl,
      PORT: String(params.port ?? 0),
      ...(params.price === undefined ? {} : { PRICE: params.price }),
    },
    ready: (line) => {
      if (!line.includes('"event":"listening"')) return false;
      url = (JSON.parse(line) as { url: string }).url;
      return true;
    },
  });
  return { ...running, url };
}
