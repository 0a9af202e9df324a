/** Serves a Koa app on loopback and closes it cleanly. */
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type Koa from "koa";

/** A listening HTTP service. */
export type Listening = { url: string; port: number; close: () => Promise<void> };

/** Listens on `host:port` (port 0 picks a free one) and resolves once the socket is bound. */
export async function listen(app: Koa, options: { host?: string; port?: number } = {}): Promise<Listening> {
  const host = options.host ?? "127.0.0.1";
  const server = createServer(app.callback());
  server.listen(options.port ?? 0, host);
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    port,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
