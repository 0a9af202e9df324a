import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diffRpcCounts, startCountingRpcProxy, type CountingRpcProxy } from "./countingRpcProxy.js";

let node: Server;
let proxy: CountingRpcProxy;

/** A JSON-RPC "node" that answers every call with its method name. */
beforeAll(async () => {
  node = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const answer = (call: { id: number; method: string }) => ({ jsonrpc: "2.0", id: call.id, result: call.method });
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify(Array.isArray(body) ? body.map(answer) : answer(body as { id: number; method: string })));
    });
  });
  await new Promise<void>((resolve) => node.listen(0, "127.0.0.1", resolve));
  proxy = await startCountingRpcProxy({ target: `http://127.0.0.1:${(node.address() as AddressInfo).port}` });
});

afterAll(async () => {
  await proxy.close();
  await new Promise((resolve) => node.close(resolve));
});

const post = async (body: unknown): Promise<unknown> =>
  (await fetch(proxy.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).json();

describe("counting JSON-RPC proxy", () => {
  it("forwards calls unchanged and counts a batch as one round trip with one call per entry", async () => {
    const before = proxy.counts();
    expect(await post({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber" })).toEqual({ jsonrpc: "2.0", id: 1, result: "eth_blockNumber" });
    const batch = await post([
      { jsonrpc: "2.0", id: 2, method: "eth_call" },
      { jsonrpc: "2.0", id: 3, method: "eth_call" },
      { jsonrpc: "2.0", id: 4, method: "eth_getBlockByNumber" },
    ]);
    expect(batch).toHaveLength(3);
    const after = proxy.counts();
    expect(diffRpcCounts(before, after)).toEqual({
      roundTrips: 2,
      calls: 4,
      byMethod: { eth_blockNumber: 1, eth_call: 2, eth_getBlockByNumber: 1 },
    });
    expect(proxy.trips(before.roundTrips, after.roundTrips)).toEqual([["eth_blockNumber"], ["eth_call", "eth_call", "eth_getBlockByNumber"]]);
  });
});
