/**
 * The failover transport against a real anvil behind two fault-injecting proxies: which failures move a request
 * to the next endpoint (HTTP 429, a refused or closed connection, a swallowed read), which are returned as the
 * node's answer (a revert, a JSON-RPC refusal), that a send which may have reached a node is never moved on (so
 * the settlement code still reads it as "may be out"), and that a failed endpoint is passed by while backed off.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { devAccounts, startAnvil, type StartAnvilReturnType } from "@svc/anvil-fixtures";
import {
  BaseError,
  createPublicClient,
  ExecutionRevertedError,
  HttpRequestError,
  http,
  RpcRequestError,
  TimeoutError,
  type Hex,
  type PublicClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { relayMayHaveReachedChain } from "./relayReachedChain.js";
import { startFaultRpcProxy, type FaultRpcProxy } from "../testing/faultRpcProxy.js";
import { classifyRpcFailure, createRpcTransport, RPC_FAILURE, rpcEndpointLabels } from "./createRpcTransport.js";
import { RpcEndpointSkippedError } from "./errors.js";
import { createRpcEndpointHealth, type RpcBackoff, type RpcEndpointHealth } from "./rpcEndpointHealth.js";
import { rejectionOf } from "../testing/rejectionOf.js";

let anvil: StartAnvilReturnType;
let direct: PublicClient;
let first: FaultRpcProxy;
let second: FaultRpcProxy;
const sender = privateKeyToAccount(devAccounts().payee.privateKey);

// Long enough that no test reaches the end of a delay unless it moves the clock itself.
const NO_PROBE: RpcBackoff = { initialMs: 600_000, maxMs: 600_000 };

beforeAll(async () => {
  anvil = await startAnvil();
  direct = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl, { retryCount: 0 }) });
  [first, second] = await Promise.all([startFaultRpcProxy(anvil.rpcUrl), startFaultRpcProxy(anvil.rpcUrl)]);
});

afterAll(async () => {
  await Promise.all([first?.close(), second?.close()]);
  await anvil?.stop();
});

beforeEach(async () => {
  for (const proxy of [first, second]) {
    await proxy.up();
    for (const method of ["*", "eth_sendRawTransaction", "eth_blockNumber", "eth_chainId"]) proxy.inject(method, undefined);
  }
});

function failoverClient(options: { backoff?: RpcBackoff; now?: () => number } = {}): { client: PublicClient; health: RpcEndpointHealth } {
  const urls = [first.url, second.url];
  const health = createRpcEndpointHealth({ endpoints: rpcEndpointLabels(urls), backoff: options.backoff ?? NO_PROBE, now: options.now });
  const { transport } = createRpcTransport({ urls, chainId: foundry.id, health, timeoutMs: 2_000 });
  return { client: createPublicClient({ chain: foundry, transport }) as PublicClient, health };
}

/** A signed zero-value self-transfer with the sender's next nonce. */
async function signedTransfer(): Promise<Hex> {
  const [nonce, fees] = await Promise.all([direct.getTransactionCount({ address: sender.address, blockTag: "pending" }), direct.estimateFeesPerGas()]);
  return sender.signTransaction({ type: "eip1559", chainId: foundry.id, nonce, to: sender.address, value: 0n, gas: 21_000n, ...fees });
}

describe("reads move to the next endpoint", () => {
  it("after HTTP 429, then pass the rate-limited endpoint by while it is backed off", async () => {
    first.inject("*", "rate-limit");
    const { client, health } = failoverClient();
    for (let request = 0; request < 30; request++) expect(await client.getBlockNumber({ cacheTime: 0 })).toBeGreaterThanOrEqual(0n);
    expect(first.received()).toBe(1);
    expect(second.calls("eth_blockNumber")).toBeGreaterThanOrEqual(30);
    expect(health.snapshot()[0]).toMatchObject({ endpoint: "rpc#0", up: false, errors: 1, skips: 29, lastError: "HttpRequestError" });
    expect(health.snapshot()[1]).toMatchObject({ endpoint: "rpc#1", up: true, errors: 0 });
  });

  it("after a refused connection, and one read probes the endpoint again once its delay is over", async () => {
    let clock = 0;
    await first.down("refuse");
    const { client, health } = failoverClient({ backoff: { initialMs: 1_000, maxMs: 8_000 }, now: () => clock });
    expect(await client.getChainId()).toBe(foundry.id);
    expect(health.snapshot()[0]).toMatchObject({ up: false, consecutiveFailures: 1, retryInMs: 1_000 });

    clock = 1_000;
    expect(await client.getChainId()).toBe(foundry.id);
    // The probe failed again: the delay doubles.
    expect(health.snapshot()[0]).toMatchObject({ up: false, consecutiveFailures: 2, retryInMs: 2_000 });

    await first.up();
    const before = first.received();
    clock = 2_999;
    await client.getChainId();
    expect(first.received()).toBe(before);
    clock = 3_000;
    await client.getChainId();
    // One probe: the endpoint's chain id is checked again after its failure, then the read itself.
    expect(first.received()).toBe(before + 2);
    expect(first.calls("eth_chainId")).toBeGreaterThanOrEqual(2);
    expect(health.snapshot()[0]).toMatchObject({ up: true, consecutiveFailures: 0, retryInMs: null });
  });

  it("after a connection closed without an answer and after a read that never came back", async () => {
    await first.down("close");
    const { client } = failoverClient();
    expect(await client.getChainId()).toBe(foundry.id);
    await first.up();

    first.inject("eth_blockNumber", "swallow");
    const fresh = failoverClient();
    const swallowed = first.hits("eth_blockNumber");
    expect(await fresh.client.getBlockNumber({ cacheTime: 0 })).toBeGreaterThanOrEqual(0n);
    expect(first.hits("eth_blockNumber")).toBe(swallowed + 1);
    expect(fresh.health.snapshot()[0]).toMatchObject({ up: false });
  });

  it("fail with the last endpoint's error when every endpoint is down, and try them all again next time", async () => {
    await Promise.all([first.down("close"), second.down("close")]);
    const { client, health } = failoverClient();
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await rejectionOf(client.getChainId());
      expect(error).toBeInstanceOf(HttpRequestError);
    }
    expect(first.received()).toBeGreaterThanOrEqual(2);
    expect(health.snapshot().map((endpoint) => endpoint.up)).toEqual([false, false]);
  });
});

describe("an endpoint serving another chain", () => {
  it("is asked for its chain id and never used: reads and sends go to the next endpoint", async () => {
    const methods: string[] = [];
    const otherChain = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      // The transport batches: a body is one call or a list of them.
      const parsed = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: number; method: string } | { id: number; method: string }[];
      const calls = Array.isArray(parsed) ? parsed : [parsed];
      methods.push(...calls.map((call) => call.method));
      const answers = calls.map((call) => ({ jsonrpc: "2.0", id: call.id, result: "0x1" }));
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]));
    });
    await new Promise<void>((resolve) => otherChain.listen(0, "127.0.0.1", resolve));
    try {
      const urls = [`http://127.0.0.1:${(otherChain.address() as AddressInfo).port}/`, second.url];
      const health = createRpcEndpointHealth({ endpoints: rpcEndpointLabels(urls), backoff: NO_PROBE });
      const client = createPublicClient({ chain: foundry, transport: createRpcTransport({ urls, chainId: foundry.id, health }).transport }) as PublicClient;
      // The other endpoint would answer 0x1 to anything: 31337 can only come from anvil.
      expect(await client.getChainId()).toBe(foundry.id);
      expect(await client.getBalance({ address: sender.address })).toBe(await direct.getBalance({ address: sender.address }));
      const hash = await client.sendRawTransaction({ serializedTransaction: await signedTransfer() });
      expect((await direct.waitForTransactionReceipt({ hash, timeout: 10_000 })).status).toBe("success");
      expect(methods).toEqual(["eth_chainId"]);
      expect(health.snapshot()[0]).toMatchObject({ up: false, lastError: "RpcEndpointChainError" });
    } finally {
      await new Promise((resolve) => otherChain.close(resolve));
    }
  });
});

describe("a WebSocket endpoint", () => {
  it("serves reads beside an HTTP one and is closed by close()", async () => {
    const urls = [anvil.rpcUrl.replace(/^http:/, "ws:"), second.url];
    const health = createRpcEndpointHealth({ endpoints: rpcEndpointLabels(urls), backoff: NO_PROBE });
    const rpc = createRpcTransport({ urls, chainId: foundry.id, health });
    const client = createPublicClient({ chain: foundry, transport: rpc.transport }) as PublicClient;
    const before = second.received();
    expect(await client.getChainId()).toBe(foundry.id);
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(await direct.getBlockNumber({ cacheTime: 0 }));
    expect(second.received()).toBe(before);
    expect(health.snapshot()[0]).toMatchObject({ endpoint: "rpc#0", origin: urls[0]?.replace(/\/$/, ""), up: true });
    await rpc.close();
  });
});

describe("a node's JSON-RPC error is its answer", () => {
  it("returns a revert during estimate as is, without asking the next endpoint", async () => {
    const { client, health } = failoverClient();
    const before = second.received();
    // Init code that reverts at once (PUSH1 0, PUSH1 0, REVERT).
    const error = await rejectionOf(client.estimateGas({ account: sender.address, data: "0x60006000fd" }));
    expect(error instanceof BaseError && error.walk((cause) => cause instanceof ExecutionRevertedError)).toBeInstanceOf(ExecutionRevertedError);
    expect(second.received()).toBe(before);
    expect(first.calls("eth_estimateGas")).toBeGreaterThanOrEqual(1);
    expect(health.snapshot()[0]).toMatchObject({ up: true, errors: 0 });
  });

  it("returns a node's refusal of a send as is: the settlement code reads it as refused", async () => {
    first.inject("eth_sendRawTransaction", "refuse");
    const { client } = failoverClient();
    const before = second.calls("eth_sendRawTransaction");
    const error = await rejectionOf(client.sendRawTransaction({ serializedTransaction: await signedTransfer() }));
    expect(relayMayHaveReachedChain(error)).toBe(false);
    expect(first.hits("eth_sendRawTransaction")).toBeGreaterThanOrEqual(1);
    expect(second.calls("eth_sendRawTransaction")).toBe(before);
  });
});

describe("sends", () => {
  it("never move on after a failure that may have delivered them: the caller sees a transport failure", async () => {
    first.inject("eth_sendRawTransaction", "cut-after-forward");
    const { client, health } = failoverClient();
    const before = second.calls("eth_sendRawTransaction");
    const error = await rejectionOf(client.sendRawTransaction({ serializedTransaction: await signedTransfer() }));
    expect(error).toBeInstanceOf(HttpRequestError);
    expect(relayMayHaveReachedChain(error)).toBe(true);
    expect(second.calls("eth_sendRawTransaction")).toBe(before);
    expect(health.snapshot()[0]).toMatchObject({ up: false });
  });

  it("move on when the endpoint's chain id check fails, even ambiguously: the send itself never left", async () => {
    first.inject("eth_chainId", "swallow");
    const { client, health } = failoverClient();
    const before = { first: first.calls("eth_sendRawTransaction"), second: second.calls("eth_sendRawTransaction") };
    const hash = await client.sendRawTransaction({ serializedTransaction: await signedTransfer() });
    expect((await direct.waitForTransactionReceipt({ hash, timeout: 10_000 })).status).toBe("success");
    expect(first.calls("eth_sendRawTransaction")).toBe(before.first);
    expect(second.calls("eth_sendRawTransaction")).toBe(before.second + 1);
    expect(health.snapshot()[0]).toMatchObject({ up: false, lastError: "HttpRequestError" });
    first.inject("eth_chainId", undefined);
  });

  it.each([
    ["a refused connection", (proxy: FaultRpcProxy) => proxy.down("refuse")],
    ["HTTP 429", (proxy: FaultRpcProxy) => Promise.resolve(proxy.inject("*", "rate-limit"))],
  ])("move on after %s, which provably did not deliver them", async (_, fail) => {
    await fail(first);
    const { client } = failoverClient();
    const before = second.calls("eth_sendRawTransaction");
    const hash = await client.sendRawTransaction({ serializedTransaction: await signedTransfer() });
    expect((await direct.waitForTransactionReceipt({ hash, timeout: 10_000 })).status).toBe("success");
    expect(second.calls("eth_sendRawTransaction")).toBe(before + 1);
  });

  it("pass a backed-off endpoint by even when its delay is over: only reads probe", async () => {
    let clock = 0;
    first.inject("*", "rate-limit");
    const { client } = failoverClient({ backoff: { initialMs: 1_000, maxMs: 1_000 }, now: () => clock });
    await client.getChainId();
    const hits = first.received();
    clock = 5_000;
    await client.sendRawTransaction({ serializedTransaction: await signedTransfer() });
    expect(first.received()).toBe(hits);
  });
});

describe("classifyRpcFailure", () => {
  const url = "http://127.0.0.1:1/";
  const body = { method: "eth_blockNumber" };
  const refused = Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) });
  const bothFamiliesRefused = Object.assign(new TypeError("fetch failed"), {
    cause: new AggregateError([Object.assign(new Error("::1"), { code: "ECONNREFUSED" }), Object.assign(new Error("127.0.0.1"), { code: "ECONNREFUSED" })]),
  });

  it.each([
    ["HTTP 429", new HttpRequestError({ url, body, status: 429 }), RPC_FAILURE.notDelivered],
    ["a refused connection", new HttpRequestError({ url, body, cause: refused }), RPC_FAILURE.notDelivered],
    ["a refused connection on both address families", new HttpRequestError({ url, body, cause: bothFamiliesRefused }), RPC_FAILURE.notDelivered],
    ["a JSON-RPC rate limit", new RpcRequestError({ url, body, error: { code: -32005, message: "limit exceeded" } }), RPC_FAILURE.notDelivered],
    ["a passed-by endpoint", new RpcEndpointSkippedError({ endpoint: "rpc#0" }), RPC_FAILURE.notDelivered],
    ["HTTP 503", new HttpRequestError({ url, body, status: 503 }), RPC_FAILURE.ambiguous],
    [
      "a gateway's 502 with a JSON-RPC body",
      new RpcRequestError({ url, body, status: 502, error: { code: -32603, message: "upstream" } }),
      RPC_FAILURE.ambiguous,
    ],
    ["a timeout", new TimeoutError({ url, body }), RPC_FAILURE.ambiguous],
    ["a dropped connection", new HttpRequestError({ url, body, cause: new TypeError("other side closed") }), RPC_FAILURE.ambiguous],
    ["a revert", new RpcRequestError({ url, body, error: { code: 3, message: "execution reverted" } }), RPC_FAILURE.answer],
    ["a nonce refusal", new RpcRequestError({ url, body, error: { code: -32000, message: "nonce too low" } }), RPC_FAILURE.answer],
  ])("reads %s", (_, error, expected) => {
    expect(classifyRpcFailure(error)).toBe(expected);
  });
});
