/**
 * Test harness: a loopback HTTP proxy that serves each upstream (anvil's JSON-RPC, the indexer, the decider)
 * under its own path prefix, so the daemon can be configured with credential-bearing URLs such as
 * `http://127.0.0.1:<port>/v3/<key>?apikey=<key>`, and that can be switched to fail the way hosted providers
 * do: a 503 whose text quotes the request target, a JSON-RPC error quoting it, or a cut connection. A log scan
 * then proves the key never leaves the daemon. Test-only code.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** How the proxy answers: forward everything, or fail every request in one provider-like way. */
export type ProxyMode = "forward" | "http-503-echo" | "rpc-error-echo" | "cut";

/** A running proxy. */
export type CredentialedProxy = {
  /** `http://127.0.0.1:<port>`; an upstream is reached at `base + prefix`. */
  base: string;
  setMode: (mode: ProxyMode) => void;
  /** Requests under `prefix` answered with a failure so far. */
  failures: (prefix: string) => number;
  close: () => Promise<void>;
};

/**
 * Starts the proxy. `routes` maps a path prefix (`/v3/<key>`) to the upstream base URL it stands for; the rest
 * of the path is appended to the upstream and the query string is dropped (it only carries the credential).
 */
export async function startCredentialedProxy(routes: Readonly<Record<string, string>>): Promise<CredentialedProxy> {
  let mode: ProxyMode = "forward";
  const failureCounts = new Map<string, number>();
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const target = request.url ?? "/";
    const path = target.split("?")[0] ?? "/";
    const prefix = Object.keys(routes).find((candidate) => path === candidate || path.startsWith(`${candidate}/`));
    if (prefix === undefined) {
      response.writeHead(404).end();
      return;
    }
    if (mode !== "forward") failureCounts.set(prefix, (failureCounts.get(prefix) ?? 0) + 1);
    if (mode === "cut") {
      response.socket?.destroy();
      return;
    }
    if (mode === "http-503-echo") {
      response.writeHead(503, { "content-type": "text/plain" }).end(`service unavailable for ${target}`);
      return;
    }
    if (mode === "rpc-error-echo") {
      const error = (id: unknown) => ({ jsonrpc: "2.0", id: id ?? null, error: { code: -32005, message: `rate limit exceeded for ${target}` } });
      const calls: unknown = safeParse(Buffer.concat(chunks).toString("utf8"));
      const idOf = (call: unknown) => (typeof call === "object" && call !== null ? Reflect.get(call, "id") : null);
      const reply = Array.isArray(calls) ? calls.map((call) => error(idOf(call))) : error(idOf(calls));
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reply));
      return;
    }
    try {
      const upstream = `${(routes[prefix] ?? "").replace(/\/+$/, "")}${path.slice(prefix.length)}`;
      const body = request.method === "GET" || request.method === "HEAD" ? undefined : Buffer.concat(chunks);
      const answer = await fetch(upstream, {
        method: request.method,
        headers: { "content-type": request.headers["content-type"] ?? "application/json" },
        body,
      });
      response
        .writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" })
        .end(Buffer.from(await answer.arrayBuffer()));
    } catch {
      response.writeHead(502).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    setMode: (next) => {
      mode = next;
    },
    failures: (prefix) => failureCounts.get(prefix) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
