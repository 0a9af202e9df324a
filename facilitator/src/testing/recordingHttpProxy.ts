/**
 * Test harness: a pass-through HTTP proxy (in front of the indexer) that records every request's method, path
 * and body, so a test can show what the indexer was told. Test-only code.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the proxy forwarded. */
export type RecordedRequest = { method: string; path: string; body: string };

/** A running proxy. */
export type RecordingHttpProxy = { url: string; requests: RecordedRequest[]; close: () => Promise<void> };

/** Starts the proxy on a free loopback port, forwarding to `target` (a base URL). */
export async function startRecordingHttpProxy(target: string): Promise<RecordingHttpProxy> {
  const base = target.replace(/\/+$/, "");
  const requests: RecordedRequest[] = [];
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const method = request.method ?? "GET";
    requests.push({ method, path: request.url ?? "/", body });
    try {
      const upstream = await fetch(`${base}${request.url ?? "/"}`, {
        method,
        headers: { "content-type": request.headers["content-type"] ?? "application/json" },
        ...(method === "GET" || method === "HEAD" ? {} : { body }),
      });
      response.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" }).end(await upstream.text());
    } catch {
      response.writeHead(502).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
