/**
 * A payment waiting for a proved root costs nothing until one is proved: the pass after it waited reads no
 * receipt and no logs for it, and the pass after a new root mints it. Real daemon, real stack with its root
 * job off (roots proved on demand), RPC through a counting proxy.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCountingRpcProxy, type CountingRpcProxy } from "../testing/countingRpcProxy.js";
import {
  broadcastBurn,
  facilitatorBody,
  postJson,
  requestOffer,
  startTestDaemon,
  startTestStack,
  type TestDaemon,
  type TestStack,
} from "../testing/localFacilitator.js";

let stack: TestStack;
let proxy: CountingRpcProxy;
let daemon: TestDaemon;

beforeAll(async () => {
  stack = await startTestStack({ rootIntervalMs: 0 });
  proxy = await startCountingRpcProxy(stack.deployment.rpcUrl);
  // Passes run only when the test asks (finalizeOnce), so each pass's round trips are its own.
  daemon = await startTestDaemon(stack, "root-wait", { daemon: { finalize_interval_ms: 600_000 }, network: { rpc_url: proxy.url } });
}, 120_000);

afterAll(async () => {
  await daemon?.stop();
  await proxy?.close();
  await stack?.close();
});

/** The JSON-RPC methods one finalize pass sent. */
async function methodsOfPass(): Promise<string[]> {
  const before = proxy.trips().length;
  await daemon.finalizeOnce();
  return proxy.trips().slice(before).flat();
}

describe("waiting for a proved root", () => {
  it("skips the payment's reads while no root is proved, and mints it in the pass after one is", async () => {
    const requirements = await requestOffer(daemon, "4200");
    const burnTxHash = await broadcastBurn(stack, requirements, stack.deployment.accounts.payer.privateKey);
    const settled = await postJson(`${daemon.url}/settle`, facilitatorBody(requirements, { challengeNonce: requirements.extra.challengeNonce, burnTxHash }));
    expect(settled.body.success).toBe(true);

    const first = await methodsOfPass();
    expect(first).toContain("eth_getTransactionReceipt");
    expect(first).toContain("eth_getLogs");

    const second = await methodsOfPass();
    expect(second).not.toContain("eth_getTransactionReceipt");
    expect(second).not.toContain("eth_getLogs");
    expect(second).not.toContain("eth_sendRawTransaction");

    await stack.indexer.proveNow();
    const third = await methodsOfPass();
    expect(third).toContain("eth_sendRawTransaction");
    expect(daemon.logs.some((line) => line.includes('"payment_finalized"') && line.includes(requirements.extra.challengeNonce))).toBe(true);
  });
});
