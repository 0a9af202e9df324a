/**
 * `coalesceJsonRpc` under viem's `http` transport (batch off) against a JSON-RPC server scripted per test: the
 * calls of one turn share one exchange and each gets its own answer; what a caller reads from a failure is what
 * viem's own batching (`batch: { wait: 0 }`) gives it; each caller keeps its own timeout.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type BaseError as ViemBaseError, createPublicClient, http, type PublicClient } from "viem";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { coalesceJsonRpc } from "./coalesceJsonRpc.js";
import { createPooledFetch, type PooledFetch } from "./createPooledFetch.js";
import { MissingBatchAnswerError } from "./errors.js";

type RpcCall = { id: number | string; method: string; params?: unknown[] };
type Exchange = { body: unknown; closedEarly: boolean };

let pooled: PooledFetch;
let server: { url: string; close: () => Promise<void> };
let exchanges: Exchange[] = [];
let reply: (body: unknown, response: ServerResponse, request: IncomingMessage) => void;

/** A node that answers `eth_blockNumber` with 0x10 and `eth_chainId` with 31337, as a batch when asked one. */
const node = (body: unknown, response: ServerResponse) => {
  const answerOf = (call: RpcCall) => ({ jsonrpc: "2.0", id: call.id, result: call.method === "eth_chainId" ? "0x7a69" : "0x10" });
  const answer = Array.isArray(body) ? (body as RpcCall[]).map(answerOf).reverse() : answerOf(body as RpcCall);
  response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
};

beforeAll(async () => {
  pooled = createPooledFetch();
  const listening = createServer((request, response) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      text += chunk;
    });
    request.on("end", () => {
      const exchange: Exchange = { body: JSON.parse(text) as unknown, closedEarly: false };
      exchanges.push(exchange);
      response.on("close", () => {
        if (!response.writableFinished) exchange.closedEarly = true;
      });
      reply(exchange.body, response, request);
    });
  });
  await new Promise<void>((resolve) => listening.listen(0, "127.0.0.1", resolve));
  const { port } = listening.address() as AddressInfo;
  server = {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      listening.closeAllConnections();
      return new Promise((resolve) => listening.close(() => resolve()));
    },
  };
});

afterAll(async () => {
  await pooled?.close();
  await server?.close();
});

beforeEach(() => {
  exchanges = [];
  reply = node;
});

/** A client over the coalescer (ours) and one with viem's own batching (theirs), on the scripted server. */
function clients(timeout = 2_000): { ours: PublicClient; theirs: PublicClient } {
  return {
    ours: createPublicClient({
      chain: foundry,
      transport: http(server.url, { retryCount: 0, timeout, fetchFn: coalesceJsonRpc(pooled.fetch) }),
    }) as PublicClient,
    theirs: createPublicClient({ chain: foundry, transport: http(server.url, { retryCount: 0, timeout, batch: { wait: 0 } }) }) as PublicClient,
  };
}

/** Two reads issued in one turn, each settled: its value, or the error's name and the JSON-RPC code or HTTP status. */
async function twoReads(client: PublicClient) {
  const settled = await Promise.allSettled([client.getBlockNumber({ cacheTime: 0 }), client.getChainId()]);
  return settled.map((outcome) => {
    if (outcome.status === "fulfilled") return { value: outcome.value };
    const error = outcome.reason as ViemBaseError;
    const inner = error.walk?.((cause) => cause instanceof Error && ("code" in cause || "status" in cause)) as { code?: unknown; status?: unknown } | null;
    return { name: error.name, code: inner?.code, status: inner?.status };
  });
}

const methodsOf = (body: unknown) => (Array.isArray(body) ? (body as RpcCall[]).map((call) => call.method).sort() : (body as RpcCall).method);

describe("coalesceJsonRpc", () => {
  it("sends the calls of one turn as one batch and hands each its own answer (answers out of order)", async () => {
    const { ours } = clients();
    expect(await twoReads(ours)).toEqual([{ value: 16n }, { value: 31337 }]);
    expect(exchanges.map((exchange) => methodsOf(exchange.body))).toEqual([["eth_blockNumber", "eth_chainId"]]);
  });

  it("sends a lone call as a single JSON-RPC object, and calls of different turns apart", async () => {
    const { ours } = clients();
    expect(await ours.getBlockNumber({ cacheTime: 0 })).toBe(16n);
    expect(await ours.getChainId()).toBe(31337);
    expect(exchanges.map((exchange) => methodsOf(exchange.body))).toEqual(["eth_blockNumber", "eth_chainId"]);
  });

  const failures: [string, (body: unknown, response: ServerResponse) => void][] = [
    ["HTTP 429 with a text body", (_body, response) => response.writeHead(429, { "retry-after": "1" }).end("slow down")],
    [
      "HTTP 503 with a JSON-RPC error body",
      (_body, response) =>
        response
          .writeHead(503, { "content-type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "down" } })),
    ],
    [
      "a JSON-RPC error for one call of the batch",
      (body, response) =>
        response
          .writeHead(200, { "content-type": "application/json" })
          .end(
            JSON.stringify(
              (body as RpcCall[]).map((call) =>
                call.method === "eth_chainId"
                  ? { jsonrpc: "2.0", id: call.id, error: { code: -32005, message: "limit" } }
                  : { jsonrpc: "2.0", id: call.id, result: "0x10" },
              ),
            ),
          ),
    ],
  ];
  for (const [name, script] of failures) {
    it(`reads ${name} as viem's own batching does`, async () => {
      reply = script;
      const { ours, theirs } = clients();
      const expected = await twoReads(theirs);
      expect(expected.some((outcome) => "name" in outcome)).toBe(true);
      expect(await twoReads(ours)).toEqual(expected);
    });
  }

  it("rejects only the call whose id the answer leaves out, as a broken exchange", async () => {
    reply = (body, response) => {
      const [first] = body as RpcCall[];
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify([{ jsonrpc: "2.0", id: first?.id, result: "0x10" }]));
    };
    const { ours } = clients();
    const [block, chain] = await Promise.allSettled([ours.getBlockNumber({ cacheTime: 0 }), ours.getChainId()]);
    expect(block).toEqual({ status: "fulfilled", value: 16n });
    expect(chain.status).toBe("rejected");
    const reason = (chain as PromiseRejectedResult).reason as ViemBaseError;
    expect(reason.name).toBe("HttpRequestError");
    expect(reason.walk((cause) => cause instanceof MissingBatchAnswerError)).toBeInstanceOf(MissingBatchAnswerError);
  });

  it("times a caller out on its own deadline while the others in its batch wait for the answer", async () => {
    let answerLater = () => undefined as unknown;
    reply = (body, response) => {
      answerLater = () => node(body, response);
    };
    const fetch = coalesceJsonRpc(pooled.fetch);
    const short = createPublicClient({ chain: foundry, transport: http(server.url, { retryCount: 0, timeout: 100, fetchFn: fetch }) });
    const long = createPublicClient({ chain: foundry, transport: http(server.url, { retryCount: 0, timeout: 5_000, fetchFn: fetch }) });
    const timedOut = short.getBlockNumber({ cacheTime: 0 }).catch((error: unknown) => error);
    const answered = long.getChainId();
    expect(((await timedOut) as Error).name).toBe("TimeoutError");
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]?.closedEarly).toBe(false);
    answerLater();
    expect(await answered).toBe(31337);
  });

  it("aborts the exchange once every caller in it timed out", async () => {
    reply = () => undefined;
    const { ours } = clients(100);
    const outcomes = await twoReads(ours);
    expect(outcomes.map((outcome) => ("name" in outcome ? outcome.name : "value"))).toEqual(["TimeoutError", "TimeoutError"]);
    await expect.poll(() => exchanges[0]?.closedEarly, { timeout: 2_000 }).toBe(true);
  });

  it("sends a call apart when its id is already in the batch, and caps a batch at 1000 calls", async () => {
    const fetch = coalesceJsonRpc(pooled.fetch);
    const call = (id: number) =>
      fetch(server.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id, method: "eth_blockNumber" }),
      }).then((response) => response.json() as Promise<{ id: number; result: string }>);
    const ids = [...Array.from({ length: 1001 }, (_, index) => index + 1), 1];
    const answers = await Promise.all(ids.map(call));
    expect(answers.map((answer) => answer.id)).toEqual(ids);
    const sizes = exchanges.map((exchange) => (Array.isArray(exchange.body) ? exchange.body.length : 1)).sort((a, b) => a - b);
    expect(sizes).toEqual([1, 1, 1000]);
  });

  it("passes anything but a single JSON-RPC call through unchanged", async () => {
    const fetch = coalesceJsonRpc(pooled.fetch);
    const batch = JSON.stringify([{ jsonrpc: "2.0", id: 7, method: "eth_chainId" }]);
    const answers = await Promise.all([
      fetch(server.url, { method: "POST", headers: { "content-type": "application/json" }, body: batch }).then((response) => response.json()),
      fetch(server.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 8, method: "eth_chainId" }),
      }).then((response) => response.json()),
    ]);
    expect(answers).toEqual([[{ jsonrpc: "2.0", id: 7, result: "0x7a69" }], { jsonrpc: "2.0", id: 8, result: "0x7a69" }]);
    expect(exchanges.map((exchange) => exchange.body)).toEqual(expect.arrayContaining([JSON.parse(batch), { jsonrpc: "2.0", id: 8, method: "eth_chainId" }]));
    expect(exchanges).toHaveLength(2);
  });
});
