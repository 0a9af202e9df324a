/**
 * Test harness: a JSON-RPC forwarding proxy in front of anvil that can be stopped (the port stops accepting
 * and open connections are cut, as when an RPC provider goes away) and started again on the same port.
 * Test-only code.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A running proxy; `url` stays the same across stop and start. */
export type StoppableRpcProxy = {
  url: string;
  /** Closes the listening socket and every open connection. */
  stop: () => Promise<void>;
  /** Listens again on the same port. */
  start: () => Promise<void>;
};

/** Starts a proxy forwarding every request body to `target`; `path` (with a query) is appended to its URL. */
export async function startStoppableRpcProxy(target: string, path = "/"): Promise<StoppableRpcProxy> {
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    try {
      const upstream = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body: Buffer.concat(chunks) });
      response.writeHead(upstream.status, { "content-type": "application/json" }).end(await upstream.text());
    } catch {
      response.writeHead(502).end();
    }
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  await listen(0);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    start: () => listen(port),
  };
}
