/**
 * Test harness: a JSON-RPC forwarding proxy in front of anvil that records every round trip (one HTTP request,
 * a batch being one) with the methods it carried, so a test can pin how many trips a `/verify` or `/settle`
 * costs. Test-only code.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A running proxy. */
export type CountingRpcProxy = {
  /** The URL to give a client or a config as its RPC endpoint. */
  url: string;
  /** The methods of every round trip so far, in order; a batch is one entry with several methods. */
  trips: () => string[][];
  close: () => Promise<void>;
};

/** Starts a proxy forwarding every request body to `target` on a free loopback port. */
export async function startCountingRpcProxy(target: string): Promise<CountingRpcProxy> {
  const trips: string[][] = [];
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    trips.push(methodsOf(body));
    try {
      const upstream = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body });
      response.writeHead(upstream.status, { "content-type": "application/json" }).end(await upstream.text());
    } catch {
      response.writeHead(502).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    trips: () => trips.map((methods) => [...methods]),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function methodsOf(body: Buffer): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString("utf8"));
  } catch {
    return ["(unparsable)"];
  }
  return (Array.isArray(parsed) ? parsed : [parsed]).map((call: unknown) =>
    typeof call === "object" && call !== null && "method" in call && typeof call.method === "string" ? call.method : "?",
  );
}
