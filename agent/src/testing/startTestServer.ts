import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the test server saw. */
export type SeenRequest = { method: string; path: string; headers: IncomingHttpHeaders };

/** A loopback HTTP server that records every request it receives. */
export type TestServer = {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  /** Every request received so far; a test asserting "nothing left" checks this is empty. */
  requests: SeenRequest[];
  close: () => Promise<void>;
};

/** Starts a server on a free loopback port answering with `handle`. */
export async function startTestServer(handle: (request: IncomingMessage, response: ServerResponse) => void): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((request, response) => {
    requests.push({ method: request.method ?? "", path: request.url ?? "", headers: request.headers });
    handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
