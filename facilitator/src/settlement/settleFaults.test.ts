/**
 * Settlement when things go wrong between the facilitator and the chain, and when a payload is tampered
 * with: a real daemon (in-process) whose RPC goes through a fault-injecting JSON-RPC proxy in front of a real
 * anvil. Each test checks the answer and what happened on-chain: no refused payload consumes its challenge, a
 * relay that may have reached the chain is never called failed, and a burn executes at most once.
 */
import { permitBurnerAbi, zerc20TokenAbi, type PaymentRequirements, type PermitPayload } from "@svc/scheme";
import { encodeFunctionData, parseGwei, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFaultRpcProxy, type FaultRpcProxy } from "../testing/faultRpcProxy.js";
import {
  facilitatorBody,
  postJson,
  requestOffer,
  signPermitPayment,
  startTestDaemon,
  startTestStack,
  type TestDaemon,
  type TestStack,
} from "../testing/localFacilitator.js";

let stack: TestStack;
let proxy: FaultRpcProxy;
let daemon: TestDaemon;
const payerKey = () => stack.deployment.accounts.payer.privateKey;

beforeAll(async () => {
  stack = await startTestStack();
  proxy = await startFaultRpcProxy(stack.deployment.rpcUrl);
  // A short replacement deadline: the relayer's monitor re-sends a relay the node never got within a second.
  daemon = await startTestDaemon(stack, "faults", {
    network: { rpc_url: proxy.url },
    settlement: { permit_receipt_timeout_ms: 3000 },
    gas: { replace_after_seconds: 1 },
  });
});

afterAll(async () => {
  await daemon?.stop();
  await proxy?.close();
  await stack?.close();
});

beforeEach(() => {
  for (const method of ["*", "eth_sendRawTransaction"]) proxy.inject(method, undefined);
});

const verify = (body: unknown) => postJson(`${daemon.url}/verify`, body);
const settle = (body: unknown) => postJson(`${daemon.url}/settle`, body);

async function permitOffer(key: Hex = payerKey()): Promise<{ requirements: PaymentRequirements; payload: PermitPayload }> {
  const requirements = await requestOffer(daemon, "1000");
  return { requirements, payload: await signPermitPayment(stack, requirements, key) };
}

async function burnsOf(_payload: PermitPayload, requirements: PaymentRequirements): Promise<Hex[]> {
  const events = await stack.client.getContractEvents({
    address: stack.deployment.permitBurner,
    abi: permitBurnerAbi,
    eventName: "BurnExecuted",
    fromBlock: 0n,
    strict: true,
  });
  return events.filter((event) => event.args.burnAddress.toLowerCase() === requirements.payTo.toLowerCase()).map((event) => event.transactionHash);
}

describe("a refused payload never consumes the challenge", () => {
  it("refuses a burn-bind signature with v 0/1 at verify, and the payer's own payload still settles", async () => {
    const { requirements, payload } = await permitOffer();
    for (const v of ["00", "01"]) {
      const tampered = { ...payload, burnAuthSig: `${payload.burnAuthSig.slice(0, -2)}${v}` };
      const body = facilitatorBody(requirements, tampered);
      expect((await verify(body)).body).toEqual({ isValid: false, invalidReason: "invalid_burn_authorization" });
      expect((await settle(body)).body).toMatchObject({ success: false, errorReason: "invalid_burn_authorization" });
    }
    const settled = await settle(facilitatorBody(requirements, payload));
    expect(settled.body).toMatchObject({ success: true, extra: { phase: "accepted" } });
    expect(await burnsOf(payload, requirements)).toEqual([settled.body.transaction]);
  });

  it("answers a copy with an unknown key, re-cased hex or reordered keys as the same payment", async () => {
    const { requirements, payload } = await permitOffer();
    const copy = { x: 1, ...payload, payer: payload.payer.toLowerCase(), burnAuthSig: `0x${payload.burnAuthSig.slice(2).toUpperCase()}` };
    const first = await settle(facilitatorBody(requirements, copy));
    expect(first.body).toMatchObject({ success: true });
    expect((await settle(facilitatorBody(requirements, payload))).body).toEqual(first.body);
    expect((await verify(facilitatorBody(requirements, payload))).body).toMatchObject({ isValid: true });
    expect(await burnsOf(payload, requirements)).toHaveLength(1);
  });
});

describe("relays", () => {
  it("a relay the node refused answers relay_failed and releases the claim; the re-send settles", async () => {
    const { requirements, payload } = await permitOffer();
    const body = facilitatorBody(requirements, payload);
    proxy.inject("eth_sendRawTransaction", "refuse");
    expect((await settle(body)).body).toMatchObject({ success: false, errorReason: "relay_failed" });
    expect(proxy.hits("eth_sendRawTransaction")).toBeGreaterThan(0);
    expect(await burnsOf(payload, requirements)).toEqual([]);
    expect(daemon.logs.some((line) => line.includes('"event":"permit_intent_released"'))).toBe(true);
    proxy.inject("eth_sendRawTransaction", undefined);
    const settled = await settle(body);
    expect(settled.body).toMatchObject({ success: true });
    expect(await burnsOf(payload, requirements)).toEqual([settled.body.transaction]);
  });

  it("a relay whose answer was lost answers pending_burn, never relay_failed, and the re-send accepts the same burn", async () => {
    const { requirements, payload } = await permitOffer();
    const body = facilitatorBody(requirements, payload);
    proxy.inject("eth_sendRawTransaction", "cut-after-forward");
    const pending = await settle(body);
    proxy.inject("eth_sendRawTransaction", undefined);
    expect(pending.body).toMatchObject({ success: false, errorReason: "pending_burn" });
    const relayed = pending.body.transaction as Hex;
    expect(relayed).toMatch(/^0x[0-9a-f]{64}$/);
    const settled = await settle(body);
    expect(settled.body).toMatchObject({ success: true, transaction: relayed });
    expect(await burnsOf(payload, requirements)).toEqual([relayed]);
  });

  it("a relay that never left is re-sent by the relayer's monitor, the relay behind it lands, and the re-send accepts the first burn", async () => {
    const lost = await permitOffer();
    const lostBody = facilitatorBody(lost.requirements, lost.payload);
    proxy.inject("eth_sendRawTransaction", "swallow");
    const pending = await settle(lostBody);
    proxy.inject("eth_sendRawTransaction", undefined);
    expect(pending.body).toMatchObject({ success: false, errorReason: "pending_burn" });
    // The next relay (another payer's) takes the nonce after the swallowed one: the monitor, finding the
    // swallowed relay unknown to the node, broadcasts its journaled bytes, and both land in nonce order.
    const other = await permitOffer(stack.deployment.accounts.payer2.privateKey);
    expect((await settle(facilitatorBody(other.requirements, other.payload))).body).toMatchObject({ success: true });
    const settled = await settle(lostBody);
    expect(settled.body).toMatchObject({ success: true, transaction: pending.body.transaction });
    expect(await burnsOf(lost.payload, lost.requirements)).toEqual([settled.body.transaction]);
    expect(daemon.logs.some((line) => line.includes('"event":"tx_resent"') && line.includes('"key":"relayer"'))).toBe(true);
    expect(daemon.logs.some((line) => line.includes('"reason":"relay_dropped"'))).toBe(false);
  });
});

describe("a relayed burn that reverts", () => {
  it("answers burn_reverted, releases the intent, and never answers accepted", async () => {
    const payer2 = stack.deployment.accounts.payer2;
    const { requirements, payload } = await permitOffer(payer2.privateKey);
    const body = facilitatorBody(requirements, payload);
    await stack.client.request({ method: "evm_setAutomine" as never, params: [false] as never });
    try {
      // The relay waits in the mempool; the payer empties the account ahead of it with a higher tip.
      expect((await settle(body)).body).toMatchObject({ success: false, errorReason: "pending_burn" });
      const balance = await stack.client.readContract({
        address: stack.deployment.token,
        abi: zerc20TokenAbi,
        functionName: "balanceOf",
        args: [payer2.address],
      });
      // Signed by hand: a wallet client would simulate against the pending state, where the relay already spent.
      const account = privateKeyToAccount(payer2.privateKey);
      const serializedTransaction = await account.signTransaction({
        type: "eip1559",
        chainId: stack.deployment.chainId,
        nonce: await stack.client.getTransactionCount({ address: payer2.address, blockTag: "pending" }),
        to: stack.deployment.token,
        data: encodeFunctionData({ abi: zerc20TokenAbi, functionName: "transfer", args: [stack.deployment.accounts.payee.address, balance] }),
        gas: 200_000n,
        maxPriorityFeePerGas: parseGwei("50"),
        maxFeePerGas: parseGwei("100"),
      });
      const drain = await stack.client.sendRawTransaction({ serializedTransaction });
      await stack.client.request({ method: "evm_mine" as never, params: [] as never });
      expect((await stack.client.getTransactionReceipt({ hash: drain })).status).toBe("success");
    } finally {
      await stack.client.request({ method: "evm_setAutomine" as never, params: [true] as never });
    }
    const reverted = await settle(body);
    expect(reverted.body).toMatchObject({ success: false, errorReason: "burn_reverted" });
    expect(daemon.logs.some((line) => line.includes('"event":"permit_intent_released"') && line.includes('"reason":"burn_reverted"'))).toBe(true);
    expect(await burnsOf(payload, requirements)).toEqual([]);
    // The payer's funds are gone, so the same payload now fails its checks instead of relaying again.
    expect((await settle(body)).body).toMatchObject({ success: false, errorReason: "insufficient_balance" });
  });
});

describe("an RPC outage", () => {
  it("answers chain_unavailable with HTTP 200 on verify and settle, and consumes nothing", async () => {
    const { requirements, payload } = await permitOffer();
    const body = facilitatorBody(requirements, payload);
    proxy.inject("*", "swallow");
    expect(await verify(body)).toEqual({ status: 200, body: { isValid: false, invalidReason: "chain_unavailable" } });
    expect(await settle(body)).toMatchObject({ status: 200, body: { success: false, errorReason: "chain_unavailable" } });
    proxy.inject("*", undefined);
    expect((await settle(body)).body).toMatchObject({ success: true });
  });
});
