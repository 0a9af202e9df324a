/**
 * The paid-request path's cost on a real anvil stack, counted where it can be seen: JSON-RPC round trips
 * through a counting proxy in front of anvil (one for the daemon, one for the payer plugin), and signature
 * recoveries through the shared signer recovery. Payments are made by the real payer plugin.
 */
import { SvcZerc20SchemeClient, type PaymentRequirements, type PermitPayload } from "@svc/scheme";
import { createPublicClient, createWalletClient, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCountingRpcProxy, type CountingRpcProxy } from "../testing/countingRpcProxy.js";
import {
  balanceOf,
  broadcastBurn,
  facilitatorBody,
  postJson,
  requestOffer,
  signPermitPayment,
  startTestDaemon,
  startTestStack,
  type TestDaemon,
  type TestStack,
} from "../testing/localFacilitator.js";
import { permitSignerRecovery } from "./checkPermitPayment.js";

let stack: TestStack;
let daemonRpc: CountingRpcProxy;
let payerRpc: CountingRpcProxy;
let daemon: TestDaemon;
let payer: SvcZerc20SchemeClient;

beforeAll(async () => {
  stack = await startTestStack();
  daemonRpc = await startCountingRpcProxy(stack.deployment.rpcUrl);
  payerRpc = await startCountingRpcProxy(stack.deployment.rpcUrl);
  // The finalize loop stays out of the counted windows (its first pass is an hour away), and every offer the
  // tests ask for is already in stock, so no request waits on a derivation.
  daemon = await startTestDaemon(stack, "request-path", {
    network: { rpc_url: daemonRpc.url },
    daemon: { finalize_interval_ms: 3_600_000, burn_address_pool_size: 8 },
  });
  const transport = http(payerRpc.url, { batch: true, retryCount: 0 });
  const account = privateKeyToAccount(stack.deployment.accounts.payer.privateKey);
  payer = new SvcZerc20SchemeClient({
    mode: "permit",
    publicClient: createPublicClient({ chain: foundry, transport }),
    walletClient: createWalletClient({ chain: foundry, transport, account }),
  });
});

afterAll(async () => {
  await daemon?.stop();
  await daemonRpc?.close();
  await payerRpc?.close();
  await stack?.close();
});

/** The round trips `proxy` saw while `work` ran; the daemon's own `eth_chainId` (its readiness probe) left out. */
async function tripsDuring<T>(proxy: CountingRpcProxy, work: () => Promise<T>): Promise<{ result: T; trips: string[][] }> {
  const from = proxy.trips().length;
  const result = await work();
  const trips = proxy
    .trips()
    .slice(from)
    .map((methods) => (proxy === daemonRpc ? methods.filter((method) => method !== "eth_chainId") : methods))
    .filter((methods) => methods.length > 0);
  return { result, trips };
}

async function pay(amount = "1000"): Promise<{ requirements: PaymentRequirements; payload: PermitPayload; trips: string[][] }> {
  const requirements = await requestOffer(daemon, amount);
  const { result, trips } = await tripsDuring(payerRpc, () => payer.createPaymentPayload(2, requirements));
  return { requirements, payload: result.payload as PermitPayload, trips };
}

const verify = (body: unknown) => postJson(`${daemon.url}/verify`, body);
const settle = (body: unknown) => postJson(`${daemon.url}/settle`, body);

describe("payer plugin", () => {
  it("reads chain id, balance, nonce and name in one round trip, and later only balance and nonce", async () => {
    const first = await pay();
    expect(first.trips).toHaveLength(1);
    expect([...(first.trips[0] ?? [])].sort()).toEqual(["eth_call", "eth_call", "eth_call", "eth_chainId"]);
    // Each payload is a real payment the facilitator accepts (settled before the next reads the new nonce).
    expect((await settle(facilitatorBody(first.requirements, first.payload))).body).toMatchObject({ success: true });
    const second = await pay();
    expect(second.trips).toEqual([["eth_call", "eth_call"]]);
    expect(BigInt(second.payload.permit.nonce)).toBe(BigInt(first.payload.permit.nonce) + 1n);
    expect((await settle(facilitatorBody(second.requirements, second.payload))).body).toMatchObject({ success: true });
  });
});

describe("self-transfer payer", () => {
  it("reads its state and prepares the burn in one round trip, signs it locally, sends it and reads its receipt", async () => {
    const transport = http(payerRpc.url, { batch: true, retryCount: 0 });
    const account = privateKeyToAccount(stack.deployment.accounts.payer.privateKey);
    const selfTransferPayer = new SvcZerc20SchemeClient({
      mode: "self-transfer",
      publicClient: createPublicClient({ chain: foundry, transport }),
      walletClient: createWalletClient({ chain: foundry, transport, account }),
    });
    const requirements = await requestOffer(daemon);
    const { trips } = await tripsDuring(payerRpc, () => selfTransferPayer.createPaymentPayload(2, requirements));
    const [reads, ...rest] = trips;
    // The balance read beside the transaction's fill (viem asks the node to fill nonce, fees and gas at once).
    expect(reads).toEqual(expect.arrayContaining(["eth_call", "eth_fillTransaction"]));
    // Signed locally for the chain already checked; then the send, and the receipt at the first look (anvil mines at once).
    expect(rest).toEqual([["eth_sendRawTransaction"], ["eth_getTransactionReceipt"]]);
  });
});

describe("self-transfer /verify and /settle", () => {
  const selfTransferBody = async () => {
    const requirements = await requestOffer(daemon);
    const burnTxHash = await broadcastBurn(stack, requirements, stack.deployment.accounts.payer.privateKey);
    return facilitatorBody(requirements, { challengeNonce: requirements.extra.challengeNonce, burnTxHash });
  };

  it("a burn in the newest block costs one round trip each: receipt, latest block and balance together", async () => {
    const body = await selfTransferBody();
    const verified = await tripsDuring(daemonRpc, () => verify(body));
    expect(verified.result.body).toEqual({ isValid: true, payer: stack.deployment.accounts.payer.address });
    expect(verified.trips.map((methods) => [...methods].sort())).toEqual([["eth_call", "eth_getBlockByNumber", "eth_getTransactionReceipt"]]);
    const settled = await tripsDuring(daemonRpc, () => settle(body));
    expect(settled.result.body).toMatchObject({ success: true, extra: { phase: "accepted" } });
    expect(settled.trips.map((methods) => [...methods].sort())).toEqual([["eth_call", "eth_getBlockByNumber", "eth_getTransactionReceipt"]]);
  });

  it("an older burn costs one round trip too while the latest block is before the expiry: its own block is never read", async () => {
    const body = await selfTransferBody();
    // Another burn mines a block above this one: the latest block is no longer the receipt's.
    await selfTransferBody();
    const verified = await tripsDuring(daemonRpc, () => verify(body));
    expect(verified.result.body).toEqual({ isValid: true, payer: stack.deployment.accounts.payer.address });
    expect(verified.trips.map((methods) => [...methods].sort())).toEqual([["eth_call", "eth_getBlockByNumber", "eth_getTransactionReceipt"]]);
    const settled = await tripsDuring(daemonRpc, () => settle(body));
    expect(settled.result.body).toMatchObject({ success: true, extra: { phase: "accepted" } });
    expect(settled.trips.map((methods) => [...methods].sort())).toEqual([["eth_call", "eth_getBlockByNumber", "eth_getTransactionReceipt"]]);
  });
});

describe("permit /verify and /settle", () => {
  it("verify costs one round trip; settle one before the send: checks, estimate, fees and block together", async () => {
    // The first relay after start reads the relayer's nonce from the chain; the measured one does not.
    const warm = await pay();
    expect((await settle(facilitatorBody(warm.requirements, warm.payload))).body.success).toBe(true);

    const { requirements, payload } = await pay();
    const body = facilitatorBody(requirements, payload);
    const verified = await tripsDuring(daemonRpc, () => verify(body));
    expect(verified.result.body).toEqual({ isValid: true, payer: stack.deployment.accounts.payer.address });
    expect(verified.trips).toEqual([["eth_call", "eth_call", "eth_call", "eth_call"]]);

    const before = await balanceOf(stack, requirements.payTo);
    const settled = await tripsDuring(daemonRpc, () => settle(body));
    expect(settled.result.body).toMatchObject({ success: true, extra: { phase: "accepted" } });
    expect(await balanceOf(stack, requirements.payTo)).toBe(before + BigInt(requirements.amount));
    // One round trip before the send, then the send, then receipt polls: on anvil, which mines at once, one.
    const [checks, send, ...receipts] = settled.trips;
    expect(checks).toEqual(expect.arrayContaining(["eth_call", "eth_estimateGas", "eth_getBlockByNumber", "eth_maxPriorityFeePerGas"]));
    expect(checks?.filter((method) => method === "eth_call")).toHaveLength(4);
    expect(send).toEqual(["eth_sendRawTransaction"]);
    expect(receipts.length).toBeGreaterThanOrEqual(1);
    expect(receipts.every((methods) => methods.length === 1 && methods[0] === "eth_getTransactionReceipt")).toBe(true);
  });

  it("settle after verify of the same payload recovers no signature again", async () => {
    const { requirements, payload } = await pay();
    const body = facilitatorBody(requirements, payload);
    const atStart = permitSignerRecovery.counts();
    expect((await verify(body)).body.isValid).toBe(true);
    const afterVerify = permitSignerRecovery.counts();
    expect(afterVerify).toEqual({ recovered: atStart.recovered + 2, reused: atStart.reused });
    const before = await balanceOf(stack, requirements.payTo);
    expect((await settle(body)).body).toMatchObject({ success: true, extra: { phase: "accepted" } });
    expect(await balanceOf(stack, requirements.payTo)).toBe(before + BigInt(requirements.amount));
    expect(permitSignerRecovery.counts()).toEqual({ recovered: afterVerify.recovered, reused: afterVerify.reused + 2 });
  });

  it("a payload changed in a signed field after verify is recovered afresh and refused", async () => {
    const { requirements, payload } = await pay();
    expect((await verify(facilitatorBody(requirements, payload))).body.isValid).toBe(true);
    const otherPayer = stack.deployment.accounts.payer2.address;
    const changes: [object, string][] = [
      [{ payer: otherPayer }, "invalid_permit_signature"],
      [{ permit: { ...payload.permit, nonce: String(BigInt(payload.permit.nonce) + 1n) } }, "invalid_permit_signature"],
      // The other payer's own BurnAuthorization for this offer, under the first payer's valid permit.
      [{ burnAuthSig: (await signPermitPayment(stack, requirements, stack.deployment.accounts.payer2.privateKey)).burnAuthSig }, "invalid_burn_authorization"],
    ];
    for (const [change, reason] of changes) {
      const recovered = permitSignerRecovery.counts().recovered;
      expect((await settle(facilitatorBody(requirements, { ...payload, ...change }))).body).toMatchObject({ success: false, errorReason: reason });
      expect(permitSignerRecovery.counts().recovered).toBeGreaterThan(recovered);
    }
    // The same signatures offered for another challenge: the BurnAuthorization names the first one.
    const second = await requestOffer(daemon, requirements.amount);
    const replay = facilitatorBody(second, { ...payload, challengeNonce: second.extra.challengeNonce });
    expect((await settle(replay)).body).toMatchObject({ success: false });
    expect(await balanceOf(stack, second.payTo)).toBe(0n);
    expect(await balanceOf(stack, requirements.payTo)).toBe(0n);
  });
});

// Last: it moves the chain's clock past an offer, which would expire every later offer on-chain.
describe("a burn in time, seen after the chain passed the offer's expiry", () => {
  it("reads the burn's own block by hash in a second trip and accepts it: the latest block's time proves nothing", async () => {
    const requirements = await requestOffer(daemon);
    const burnTxHash = await broadcastBurn(stack, requirements, stack.deployment.accounts.payer.privateKey);
    await stack.client.request({ method: "evm_setNextBlockTimestamp" as never, params: [requirements.extra.expiresAt + 30] as never });
    await stack.client.request({ method: "evm_mine" as never, params: [] as never });
    const body = facilitatorBody(requirements, { challengeNonce: requirements.extra.challengeNonce, burnTxHash });
    const twoTrips = [["eth_call", "eth_getBlockByNumber", "eth_getTransactionReceipt"], ["eth_getBlockByHash"]];
    const verified = await tripsDuring(daemonRpc, () => verify(body));
    expect(verified.result.body).toEqual({ isValid: true, payer: stack.deployment.accounts.payer.address });
    expect(verified.trips.map((methods) => [...methods].sort())).toEqual(twoTrips);
    const settled = await tripsDuring(daemonRpc, () => settle(body));
    expect(settled.result.body).toMatchObject({ success: true, transaction: burnTxHash, extra: { phase: "accepted" } });
    expect(settled.trips.map((methods) => [...methods].sort())).toEqual(twoTrips);
  });
});
