import { x402Client } from "@x402/core/client";
import { decodeFunctionData, keccak256, parseTransaction, recoverTypedDataAddress } from "viem";
import { describe, expect, it } from "vitest";

import { PermitUnavailableError } from "../eip712/errors.js";
import {
  BurnBroadcastError,
  BurnRevertedError,
  BurnUnconfirmedError,
  ChainMismatchError,
  InsufficientTokenBalanceError,
  InvalidOfferError,
  OfferExpiringError,
  SpendCapExceededError,
} from "./errors.js";
import { buildBurnAuthorizationTypedData } from "../eip712/burnAuthorizationTypedData.js";
import { joinSignature } from "../eip712/joinSignature.js";
import { buildPermitTypedData } from "../eip712/permitTypedData.js";
import { buildExtra, buildPaymentRequired, buildRequirements, TEST_PAYER, TEST_TOKEN } from "../testing/builders.js";
import { createFakeChain, type FakeChainOptions } from "../testing/fakeChain.js";
import { classifyPayload } from "../wire/classifyPayload.js";
import { fromOfferRequirements } from "../wire/offer.js";
import type { PaymentRequirements } from "../wire/paymentRequirements.js";
import { zerc20TokenAbi } from "../zerc20/abis.js";
import type { PaymentPhaseEvent } from "./paymentPhase.js";
import { registerSvcZerc20Client } from "./registerSvcZerc20Client.js";
import { SvcZerc20SchemeClient } from "./svcZerc20SchemeClient.js";

/** The builders' offers expire at 1_900_000_300; tests pin the clock relative to it. */
const EXPIRES_AT = 1_900_000_300;
const secondsBeforeExpiry = (seconds: number) => () => (EXPIRES_AT - seconds) * 1000;

function setup(mode: "permit" | "self-transfer", chain: FakeChainOptions = {}, secondsLeft = 120) {
  const fake = createFakeChain(chain);
  const phases: PaymentPhaseEvent[] = [];
  const client = new SvcZerc20SchemeClient({
    mode,
    publicClient: fake.publicClient,
    walletClient: fake.walletClient,
    now: secondsBeforeExpiry(secondsLeft),
    receiptTimeoutMs: 200,
    onPhase: (event) => {
      phases.push(event);
    },
  });
  return { fake, phases, client };
}

const offer = buildRequirements({ amount: "2500" });

describe("SvcZerc20SchemeClient, permit mode", () => {
  it("signs Permit with the live nonce and token name, and a BurnAuthorization, both recovering to the payer", async () => {
    const { client, fake, phases } = setup("permit", { nonce: 7n, tokenName: "Live Name" });
    const { x402Version, payload } = await client.createPaymentPayload(2, offer);
    expect(x402Version).toBe(2);
    const classified = classifyPayload(payload);
    if (classified.kind !== "permit") throw new Error(`expected a permit payload, got ${classified.kind}`);
    const permit = classified.payload;
    expect(permit).toMatchObject({
      challengeNonce: offer.extra.challengeNonce,
      payer: TEST_PAYER,
      permit: { value: "2500", nonce: "7", deadline: String(offer.extra.deadline) },
    });
    const permitSigner = await recoverTypedDataAddress({
      ...buildPermitTypedData({ offer: fromOfferRequirements(offer), payer: TEST_PAYER, nonce: 7n, tokenName: "Live Name" }),
      signature: joinSignature(permit.permit),
    });
    const burnSigner = await recoverTypedDataAddress({
      ...buildBurnAuthorizationTypedData({ offer: fromOfferRequirements(offer), payer: TEST_PAYER }),
      signature: permit.burnAuthSig,
    });
    expect([permitSigner, burnSigner]).toEqual([TEST_PAYER, TEST_PAYER]);
    expect(phases).toEqual([{ phase: "signing" }]);
    expect(fake.methods).not.toContain("eth_sendRawTransaction");
  });

  it("refuses an offer without extra.helper before any RPC call, never falling back to a transfer", async () => {
    const { client, fake, phases } = setup("permit");
    const noHelper = buildRequirements({ extra: buildExtra({ helper: undefined }) });
    await expect(client.createPaymentPayload(2, noHelper)).rejects.toThrow(PermitUnavailableError);
    expect(fake.methods).toEqual([]);
    expect(phases).toEqual([]);
  });

  it("refuses an expired offer before any RPC call", async () => {
    const { client, fake } = setup("permit", {}, 0);
    await expect(client.createPaymentPayload(2, offer)).rejects.toThrowErrorMatchingInlineSnapshot(`
      [OfferExpiringError: The offer has expired; request the resource again for a fresh offer.

      Details: extra.expiresAt 1900000300]
    `);
    expect(fake.methods).toEqual([]);
  });

  it("refuses when the RPC serves another chain", async () => {
    const { client, phases } = setup("permit", { chainId: 1 });
    await expect(client.createPaymentPayload(2, offer)).rejects.toThrow(ChainMismatchError);
    expect(phases).toEqual([]);
  });

  it("refuses when the balance does not cover the amount, before signing", async () => {
    const { client, phases } = setup("permit", { balance: 2499n });
    await expect(client.createPaymentPayload(2, offer)).rejects.toThrow(InsufficientTokenBalanceError);
    expect(phases).toEqual([]);
  });

  it("reads the chain id and the token name once per client; later payments read only balance and nonce", async () => {
    const { client, fake } = setup("permit", { nonce: 3n, tokenName: "Live Name" });
    await client.createPaymentPayload(2, offer);
    expect(fake.methods.sort()).toEqual(["eth_call", "eth_call", "eth_call", "eth_chainId"]);
    fake.methods.length = 0;
    const { payload } = await client.createPaymentPayload(2, offer);
    expect(fake.methods).toEqual(["eth_call", "eth_call"]);
    const classified = classifyPayload(payload);
    if (classified.kind !== "permit") throw new Error(`expected a permit payload, got ${classified.kind}`);
    const permitSigner = await recoverTypedDataAddress({
      ...buildPermitTypedData({ offer: fromOfferRequirements(offer), payer: TEST_PAYER, nonce: 3n, tokenName: "Live Name" }),
      signature: joinSignature(classified.payload.permit),
    });
    expect(permitSigner).toBe(TEST_PAYER);
  });

  it("refuses another chain on every payment, the chain id being remembered", async () => {
    const { client, fake } = setup("permit", { chainId: 1 });
    await expect(client.createPaymentPayload(2, offer)).rejects.toThrow(ChainMismatchError);
    await expect(client.createPaymentPayload(2, offer)).rejects.toThrow(ChainMismatchError);
    expect(fake.methods.filter((method) => method === "eth_chainId")).toEqual(["eth_chainId"]);
  });
});

describe("SvcZerc20SchemeClient, self-transfer mode", () => {
  it("broadcasts transfer(payTo, amount) on the token, waits for success and names the burn", async () => {
    const { client, fake, phases } = setup("self-transfer");
    const { payload } = await client.createPaymentPayload(2, offer);
    expect(fake.sent).toHaveLength(1);
    const raw = fake.sent[0] ?? "0x";
    const transaction = parseTransaction(raw);
    expect(transaction.to?.toLowerCase()).toBe(TEST_TOKEN.toLowerCase());
    expect(decodeFunctionData({ abi: zerc20TokenAbi, data: transaction.data ?? "0x" })).toEqual({
      functionName: "transfer",
      args: [offer.payTo, 2500n],
    });
    expect(payload).toEqual({ challengeNonce: offer.extra.challengeNonce, burnTxHash: keccak256(raw) });
    expect(phases).toEqual([{ phase: "signing" }, { phase: "broadcasting", txHash: keccak256(raw) }, { phase: "waiting-for-receipt", txHash: keccak256(raw) }]);
  });

  it("pays an offer without a helper: self-transfer does not need the gasless path", async () => {
    const { client } = setup("self-transfer");
    const noHelper = buildRequirements({ extra: buildExtra({ helper: undefined, deadline: undefined }) });
    await expect(client.createPaymentPayload(2, noHelper)).resolves.toMatchObject({ payload: { burnTxHash: expect.any(String) } });
  });

  it.each([30, 10, 0])("refuses to start a broadcast with %i s of the offer left, before any RPC call", async (left) => {
    const { client, fake } = setup("self-transfer", {}, left);
    await expect(client.createPaymentPayload(2, offer)).rejects.toThrow(OfferExpiringError);
    expect(fake.methods).toEqual([]);
  });

  it("starts with 31 s left", async () => {
    const { client, fake } = setup("self-transfer", {}, 31);
    await client.createPaymentPayload(2, offer);
    expect(fake.sent).toHaveLength(1);
  });

  it("throws BurnRevertedError on a reverted burn", async () => {
    const { client, fake } = setup("self-transfer", { receipt: "reverted" });
    const error = await client.createPaymentPayload(2, offer).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(BurnRevertedError);
    expect(error).toMatchObject({ txHash: keccak256(fake.sent[0] ?? "0x") });
  });

  it("throws BurnUnconfirmedError when no receipt arrives in time", async () => {
    const { client, fake } = setup("self-transfer", { receipt: "never" });
    const error = await client.createPaymentPayload(2, offer).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(BurnUnconfirmedError);
    expect(error).toMatchObject({ txHash: keccak256(fake.sent[0] ?? "0x") });
  });

  it("throws BurnBroadcastError when the node answers the broadcast with an error", async () => {
    const { client, fake } = setup("self-transfer", { broadcast: "reject" });
    await expect(client.createPaymentPayload(2, offer)).rejects.toThrow(BurnBroadcastError);
    expect(fake.sent).toEqual([]);
  });

  it("calls a broadcast lost in transport unconfirmed: the node may have taken it", async () => {
    const { client, phases } = setup("self-transfer", { broadcast: "drop" });
    await expect(client.createPaymentPayload(2, offer)).rejects.toThrow(BurnUnconfirmedError);
    expect(phases.map((event) => event.phase)).toEqual(["signing", "broadcasting"]);
  });
});

describe("SvcZerc20SchemeClient input checks", () => {
  it("refuses another x402 version and a malformed offer", async () => {
    const { client, fake } = setup("permit");
    await expect(client.createPaymentPayload(1, offer)).rejects.toThrow(InvalidOfferError);
    await expect(client.createPaymentPayload(2, { ...offer, amount: "1e3" })).rejects.toThrow(InvalidOfferError);
    expect(fake.methods).toEqual([]);
  });

  it("refuses an amount above the cap core resolved", async () => {
    const { client, fake } = setup("permit");
    await expect(client.createPaymentPayload(2, offer, { maxAmountPerPayment: "2499" })).rejects.toThrow(SpendCapExceededError);
    expect(fake.methods).toEqual([]);
  });
});

describe("registerSvcZerc20Client with @x402/core's x402Client", () => {
  function register(maxAmountPerPayment: string, requirements: PaymentRequirements = offer) {
    const fake = createFakeChain();
    const client = new x402Client();
    registerSvcZerc20Client(client, {
      mode: "permit",
      publicClient: fake.publicClient,
      walletClient: fake.walletClient,
      now: secondsBeforeExpiry(120),
      allowedAssets: [{ network: requirements.network, asset: requirements.asset, maxAmountPerPayment }],
    });
    return { fake, client, paymentRequired: { ...buildPaymentRequired(), accepts: [requirements] } };
  }

  it("pays through core, which echoes the offer verbatim as accepted", async () => {
    const withUnknownKey = buildRequirements({ amount: "2500", extra: buildExtra({ futureField: { a: 1 } }) });
    const { client, paymentRequired } = register("2500", withUnknownKey);
    const payment = await client.createPaymentPayload(paymentRequired);
    expect(payment.accepted).toEqual(withUnknownKey);
    expect(payment.x402Version).toBe(2);
    expect(classifyPayload(payment.payload).kind).toBe("permit");
  });

  it("lets core's spend controls refuse an amount above our cap before the plugin runs", async () => {
    const { client, fake, paymentRequired } = register("2499");
    await expect(client.createPaymentPayload(paymentRequired)).rejects.toThrow(/maxAmountPerPayment/);
    expect(fake.methods).toEqual([]);
  });

  it("lets core refuse a token that is not listed", async () => {
    const { client, fake } = register("2500");
    const otherToken = buildRequirements({ amount: "2500", asset: "0x0000000000000000000000000000000000000001" });
    await expect(client.createPaymentPayload({ ...buildPaymentRequired(), accepts: [otherToken] })).rejects.toThrow(/spendControls/);
    expect(fake.methods).toEqual([]);
  });
});
