/**
 * The demo provider as a program (`node provider-demo/dist/server.js`): reads its environment, checks the
 * facilitator, listens, and prints one JSON line per event to stdout (`ts`, `level`, `event` first, as the
 * facilitator does). Readiness contract: the first line is the `listening` event with `url`
 * (`http://<host>:<port>`). Start-up failures go to stdout as a `start_failed` event and to stderr as one line, with exit code 1;
 * SIGTERM and SIGINT close the server and exit 0.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { facilitatorAuthHeaders } from "@svc/scheme";
import { HTTPFacilitatorClient } from "@x402/core/server";

import { checkFacilitatorSupport } from "./checkFacilitatorSupport.js";
import { createProviderApp } from "./createProviderApp.js";
import { loadProviderConfig } from "./loadProviderConfig.js";
import { logLine } from "./logLine.js";

/** How long open keep-alive connections may finish their request after a stop signal. */
const SHUTDOWN_GRACE_MS = 5_000;

const writeLine = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

async function main(): Promise<void> {
  const config = loadProviderConfig(process.env);
  const facilitatorClient = new HTTPFacilitatorClient({
    url: config.facilitatorUrl,
    ...(config.providerKey === undefined ? {} : { createAuthHeaders: facilitatorAuthHeaders(config.providerKey) }),
  });
  await checkFacilitatorSupport({ facilitatorClient, facilitatorUrl: config.facilitatorUrl, network: config.network });

  const app = createProviderApp({
    facilitatorUrl: config.facilitatorUrl,
    network: config.network,
    price: config.price,
    facilitatorClient,
    providerKey: config.providerKey,
    log: writeLine,
  });
  const server = createServer(app);
  await listen(server, config.port, config.host);
  const { port } = boundAddress(server);
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  const stop = (signal: NodeJS.Signals): void => {
    writeLine(logLine("info", "stopping", { signal }));
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
  };
  // Installed before the readiness line, so a supervisor may signal as soon as it reads it.
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  writeLine(logLine("info", "listening", { url: `http://${host}:${port}`, network: config.network, price: config.price }));
}

function boundAddress(server: Server): AddressInfo {
  const address = server.address();
  if (address === null || typeof address === "string") throw new TypeError("the server is not listening on a TCP port");
  return address;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

main().catch((error: unknown) => {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  writeLine(logLine("error", "start_failed", { error: error instanceof Error ? error.name : "unknown", cause: text }));
  process.stderr.write(`provider-demo could not start: ${text}\n`);
  process.exit(1);
});
