/**
 * The facilitator's JSON-RPC `fetch` (`createPooledFetch` of `@svc/scheme`, as `createRpcTransport` uses it)
 * answers viem exactly as the global `fetch` does: the same results from a real anvil (single
 * calls and batches), and the same errors, read the same way by `classifyRpcFailure`, from a server scripted to
 * fail (429, a 5xx with a JSON-RPC body, a JSON-RPC error, a cut connection, a refused one, a stall, a body over
 * the size limit).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { devAccounts, startAnvil, type StartAnvilReturnType } from "@svc/anvil-fixtures";
import { createPooledFetch, type PooledFetch, zerc20TokenAbi } from "@svc/scheme";
import { createPublicClient, http, type PublicClient } from "viem";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { classifyRpcFailure } from "./createRpcTransport.js";
import { rejectionOf } from "../testing/rejectionOf.js";

let anvil: StartAnvilReturnType;
let rpcFetch: PooledFetch;
let scripted: { url: string; close: () => Promise<void> };
let answer: (request: IncomingMessage, response: ServerResponse) => void = () => undefined;

beforeAll(async () => {
  anvil = await startAnvil();
  rpcFetch = createPooledFetch({ maxResponseBytes: 4096 });
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => answer(request, response));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  scripted = {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
});

afterAll(async () => {
  await rpcFetch?.close();
  await scripted?.close();
  await anvil?.stop();
});

/** The same client twice: over the global fetch, and over ours. */
function clients(url: string, timeout = 5_000): { library: PublicClient; ours: PublicClient } {
  const options = { batch: { wait: 0 }, retryCount: 0, timeout, maxResponseBodySize: 4096 } as const;
  return {
    library: createPublicClient({ chain: foundry, transport: http(url, options) }) as PublicClient,
    ours: createPublicClient({ chain: foundry, transport: http(url, { ...options, fetchFn: rpcFetch.fetch }) }) as PublicClient,
  };
}

/** What a caller of ours reads from a failure: the error's class, the failure kind, the HTTP status, and the message's first line. */
async function failureOf(request: (client: PublicClient) => Promise<unknown>, client: PublicClient) {
  const error = await rejectionOf(request(client));
  const status = error instanceof Error ? Reflect.get(error, "status") : undefined;
  return { name: error instanceof Error ? error.name : typeof error, kind: classifyRpcFailure(error), status };
}

describe("against anvil", () => {
  it("reads the same block, chain id and balance, in single calls and in one batch", async () => {
    const { library, ours } = clients(anvil.rpcUrl);
    const read = (client: PublicClient) =>
      Promise.all([
        client.getChainId(),
        client.getBlock({ blockTag: "latest" }),
        client.getBalance({ address: devAccounts().payer.address }),
        client.getTransactionCount({ address: devAccounts().payer.address }),
      ]);
    expect(await read(ours)).toEqual(await read(library));
    expect(await ours.getBlockNumber({ cacheTime: 0 })).toBe(await library.getBlockNumber({ cacheTime: 0 }));
  });

  it("returns a revert as the same JSON-RPC answer", async () => {
    const { library, ours } = clients(anvil.rpcUrl);
    // No contract at this address: the call returns no data, which viem reads as the same decoding error.
    const call = (client: PublicClient) =>
      client.readContract({ address: devAccounts().payer.address, abi: zerc20TokenAbi, functionName: "balanceOf", args: [devAccounts().payer.address] });
    expect(await failureOf(call, ours)).toEqual(await failureOf(call, library));
  });
});

describe("against a failing server", () => {
  const cases: [string, (response: ServerResponse) => void, string][] = [
    ["HTTP 429", (response) => response.writeHead(429, { "retry-after": "1" }).end("slow down"), "not_delivered"],
    [
      "HTTP 503 with a JSON-RPC body",
      (response) =>
        response
          .writeHead(503, { "content-type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: -32000, message: "down" } })),
      "ambiguous",
    ],
    [
      "a JSON-RPC error with HTTP 200",
      (response) =>
        response
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: -32602, message: "invalid params" } })),
      "answer",
    ],
    [
      "a JSON-RPC rate limit with HTTP 200",
      (response) =>
        response
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: -32005, message: "limit" } })),
      "not_delivered",
    ],
    ["a connection cut before the answer", (response) => response.socket?.destroy(), "ambiguous"],
    ["a body over the size limit", (response) => response.writeHead(200, { "content-type": "application/json" }).end(`"${"x".repeat(8192)}"`), "ambiguous"],
    [
      "a chunked body over the size limit",
      (response) => {
        response.writeHead(200, { "content-type": "application/json" });
        for (let chunk = 0; chunk < 8; chunk++) response.write("x".repeat(1024));
        response.end();
      },
      "ambiguous",
    ],
  ];
  for (const [name, reply, kind] of cases) {
    it(`reads ${name} the same way`, async () => {
      answer = (_request, response) => reply(response);
      const { library, ours } = clients(scripted.url);
      const blockNumber = (client: PublicClient) => client.getBlockNumber({ cacheTime: 0 });
      const theirs = await failureOf(blockNumber, library);
      expect(theirs.kind).toBe(kind);
      expect(await failureOf(blockNumber, ours)).toEqual(theirs);
    });
  }

  it("reads a stall as the same timeout", async () => {
    answer = () => undefined;
    const { library, ours } = clients(scripted.url, 200);
    const blockNumber = (client: PublicClient) => client.getBlockNumber({ cacheTime: 0 });
    const theirs = await failureOf(blockNumber, library);
    expect(theirs).toMatchObject({ name: "TimeoutError", kind: "ambiguous" });
    expect(await failureOf(blockNumber, ours)).toEqual(theirs);
  });

  it("reads a refused connection as never delivered", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const { library, ours } = clients(`http://127.0.0.1:${port}`);
    const blockNumber = (client: PublicClient) => client.getBlockNumber({ cacheTime: 0 });
    const theirs = await failureOf(blockNumber, library);
    expect(theirs.kind).toBe("not_delivered");
    expect(await failureOf(blockNumber, ours)).toEqual(theirs);
  });
});
