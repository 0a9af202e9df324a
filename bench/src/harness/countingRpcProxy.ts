/**
 * A counting JSON-RPC proxy on loopback: forwards every HTTP request unchanged to the node (anvil) and counts
 * round trips (HTTP requests, a batch being one) and calls by method (each entry of a batch). A facilitator
 * pointed at it reports exactly the RPC work it does, and snapshots taken around one `/verify` or `/settle`
 * attribute that work to the call.
 */
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** Round trips and calls seen so far. */
export type RpcCounts = {
  /** HTTP requests (a JSON-RPC batch counts once). */
  roundTrips: number;
  /** JSON-RPC calls (every entry of a batch counts). */
  calls: number;
  /** Calls per JSON-RPC method. */
  byMethod: Record<string, number>;
};

/** A running proxy. */
export type CountingRpcProxy = {
  /** `http://127.0.0.1:<port>`: give this to a client as its RPC URL. */
  url: string;
  /** A copy of the counts so far. */
  counts: () => RpcCounts;
  /** The methods of round trips `from` (inclusive) to `to` (exclusive), numbered as `roundTrips` counts them. */
  trips: (from: number, to: number) => string[][];
  close: () => Promise<void>;
};

/** What one counted call changed: `after - before`. */
export function diffRpcCounts(before: RpcCounts, after: RpcCounts): RpcCounts {
  const byMethod: Record<string, number> = {};
  for (const [method, count] of Object.entries(after.byMethod)) {
    const delta = count - (before.byMethod[method] ?? 0);
    if (delta !== 0) byMethod[method] = delta;
  }
  return { roundTrips: after.roundTrips - before.roundTrips, calls: after.calls - before.calls, byMethod };
}

/**
 * Starts a proxy in front of `target` (an http:// JSON-RPC URL) on a free loopback port.
 * @example
 * const proxy = await startCountingRpcProxy({ target: stack.deployment.rpcUrl });
 * const before = proxy.counts(); await settle(); diffRpcCounts(before, proxy.counts());
 */
export async function startCountingRpcProxy(parameters: { target: string }): Promise<CountingRpcProxy> {
  const target = new URL(parameters.target);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const counts: RpcCounts = { roundTrips: 0, calls: 0, byMethod: {} };
  const tripLog: string[][] = [];

  const count = (body: Buffer) => {
    counts.roundTrips++;
    const methods: string[] = [];
    tripLog.push(methods);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString("utf8"));
    } catch {
      return;
    }
    for (const call of Array.isArray(parsed) ? parsed : [parsed]) {
      const method = typeof call === "object" && call !== null && "method" in call && typeof call.method === "string" ? call.method : "?";
      methods.push(method);
      counts.calls++;
      counts.byMethod[method] = (counts.byMethod[method] ?? 0) + 1;
    }
  };

  const forward = (incoming: IncomingMessage, outgoing: ServerResponse, body: Buffer) => {
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: incoming.method,
        agent,
        headers: { "content-type": incoming.headers["content-type"] ?? "application/json", "content-length": body.length },
      },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 502, { "content-type": response.headers["content-type"] ?? "application/json" });
        response.pipe(outgoing);
      },
    );
    upstream.on("error", () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    upstream.end(body);
  };

  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks);
      count(body);
      forward(incoming, outgoing, body);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts: () => ({ roundTrips: counts.roundTrips, calls: counts.calls, byMethod: { ...counts.byMethod } }),
    trips: (from, to) => tripLog.slice(from, to).map((methods) => [...methods]),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
