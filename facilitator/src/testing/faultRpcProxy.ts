/**
 * Test harness: a JSON-RPC forwarding proxy in front of anvil that injects faults for one method at a time,
 * to stop a settle at an exact point: the node refusing a call (a JSON-RPC error, so it provably did nothing),
 * the connection cut after the call reached the node (the caller cannot know it did), or the call swallowed
 * and the connection cut (it never reached the node, though the caller cannot tell that from the cut), or
 * HTTP 429 (a provider's rate limit: nothing forwarded). Batches are handled per entry for `refuse` and as a
 * whole for the cuts and the 429. The proxy can also go down as a whole: `refuse` stops listening (connection
 * refused), `close` accepts each connection and closes it at once (what a dying load balancer does); both are
 * undone by `up`, on the same port. Test-only code.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** What happens to calls of the faulted method. */
export type RpcFault = "refuse" | "cut-after-forward" | "swallow" | "rate-limit";

/** How the whole proxy is down. */
export type RpcProxyDown = "refuse" | "close";

/** A running proxy. */
export type FaultRpcProxy = {
  url: string;
  /** Injects `fault` into every later call of `method`, `*` for every method (until cleared with `undefined`). */
  inject: (method: string, fault: RpcFault | undefined) => void;
  /** How many calls of `method` met a fault so far. */
  hits: (method: string) => number;
  /** How many calls of `method` reached the proxy so far, faulted or not (entries of a batch counted each). */
  calls: (method: string) => number;
  /** How many HTTP requests reached the proxy so far, plus the connections it closed while down (`close`). */
  received: () => number;
  /** Takes the whole proxy down until `up`. */
  down: (mode: RpcProxyDown) => Promise<void>;
  /** Serves again, on the same port. */
  up: () => Promise<void>;
  close: () => Promise<void>;
};

type RpcCall = { id?: unknown; method?: unknown };

/** Starts a proxy forwarding to `target` on a free loopback port; `path` (with a query) is appended to its URL. */
export async function startFaultRpcProxy(target: string, path = "/"): Promise<FaultRpcProxy> {
  const faults = new Map<string, RpcFault>();
  const hitCounts = new Map<string, number>();
  const callCounts = new Map<string, number>();
  let requests = 0;
  let downMode: RpcProxyDown | undefined;
  const forward = async (body: string) => {
    const upstream = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body });
    return upstream.text();
  };
  const server: Server = createServer(async (request, response) => {
    requests += 1;
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    let parsed: RpcCall | RpcCall[];
    try {
      parsed = JSON.parse(text) as RpcCall | RpcCall[];
    } catch {
      response.writeHead(400).end();
      return;
    }
    const calls = Array.isArray(parsed) ? parsed : [parsed];
    for (const call of calls) callCounts.set(String(call.method), (callCounts.get(String(call.method)) ?? 0) + 1);
    const faultOf = (call: RpcCall) => (typeof call.method === "string" ? (faults.get(call.method) ?? faults.get("*")) : undefined);
    const faulted = calls.filter((call) => faultOf(call) !== undefined);
    for (const call of faulted) hitCounts.set(String(call.method), (hitCounts.get(String(call.method)) ?? 0) + 1);
    const fault = faulted[0] === undefined ? undefined : faultOf(faulted[0]);
    try {
      if (fault === "rate-limit") {
        response.writeHead(429, { "content-type": "text/plain", "retry-after": "1" }).end("Too Many Requests");
        return;
      }
      if (fault === "swallow") {
        response.socket?.destroy();
        return;
      }
      if (fault === "cut-after-forward") {
        await forward(text);
        response.socket?.destroy();
        return;
      }
      if (fault === "refuse") {
        const refused = (call: RpcCall) => ({
          jsonrpc: "2.0",
          id: call.id ?? null,
          error: { code: -32003, message: "transaction rejected by the test proxy" },
        });
        const passed = calls.filter((call) => !faulted.includes(call));
        const answers = passed.length === 0 ? [] : ([JSON.parse(await forward(JSON.stringify(passed)))] as unknown[]).flat();
        const byId = new Map(answers.map((answer) => [JSON.stringify((answer as RpcCall).id), answer]));
        const reply = calls.map((call) => (faulted.includes(call) ? refused(call) : byId.get(JSON.stringify(call.id))));
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(Array.isArray(parsed) ? reply : reply[0]));
        return;
      }
      response.writeHead(200, { "content-type": "application/json" }).end(await forward(text));
    } catch {
      response.writeHead(502).end();
    }
  });
  server.on("connection", (socket) => {
    if (downMode !== "close") return;
    requests += 1;
    socket.destroy();
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  const stopListening = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  await listen(0);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    inject: (method, fault) => {
      if (fault === undefined) faults.delete(method);
      else faults.set(method, fault);
    },
    hits: (method) => hitCounts.get(method) ?? 0,
    calls: (method) => callCounts.get(method) ?? 0,
    received: () => requests,
    down: async (mode) => {
      if (downMode === "refuse") await listen(port);
      downMode = mode;
      // Kept-alive connections would otherwise still be served.
      server.closeAllConnections();
      if (mode === "refuse") await stopListening();
    },
    up: async () => {
      if (downMode === "refuse") await listen(port);
      downMode = undefined;
    },
    close: async () => {
      if (downMode !== "refuse") await stopListening();
      downMode = "refuse";
    },
  };
}
