/**
 * The plugin inside @x402/core's own HTTP resource server (the engine of every official middleware), with an
 * in-memory facilitator so timing can be controlled exactly. The same behaviours against the real facilitator
 * process and chain are proven in provider-demo.
 */
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { validatePaymentRequired } from "@x402/core/schemas";
import {
  FacilitatorResponseError,
  type HTTPAdapter,
  type HTTPProcessResult,
  type HTTPRequestContext,
  x402HTTPResourceServer,
  x402ResourceServer,
} from "@x402/core/server";
import type { PaymentPayload, PaymentRequirements, SettleResponse, VerifyResponse } from "@x402/core/types";
import { describe, expect, it } from "vitest";

import { CHALLENGE_EXPIRED, INSUFFICIENT_BALANCE, PAYLOAD_CONFLICT } from "../reasons/reasonCodes.js";
import {
  buildChallengeOffer,
  buildPermitPayload,
  buildSettleResponse,
  buildSupportedResponse,
  buildVerifyResponse,
  TEST_CHAIN_ID,
  TEST_HELPER,
  TEST_TOKEN,
} from "../testing/builders.js";
import { registerSvcZerc20Server } from "./registerSvcZerc20Server.js";
import { CONCURRENT_PAYMENT_FAILED } from "./serverReasonCodes.js";

const network = `eip155:${TEST_CHAIN_ID}` as const;
const START = 1_900_000_000;
const TTL = 300;

/** The n-th offer's burn address and nonce: distinct, lowercase hex with letters (so re-casing shows). */
const payToOf = (n: number): `0x${string}` => `0x${n.toString(16).padStart(40, "a")}`;
const nonceOf = (n: number): `0x${string}` => `0x${n.toString(16).padStart(64, "0")}`;

/** A deferred value, for holding the fake facilitator mid-call. */
function gate<T>() {
  let open: (value: T) => void = () => undefined;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** Lets every pending promise callback and I/O callback run once. */
const settleMicrotasks = () => new Promise((resolve) => setImmediate(resolve));

type HarnessOptions = { maxCachedOffers?: number; challengeStatus?: number };

/** Core's HTTP resource server with the plugin, a counting in-memory facilitator and a hand-moved clock. */
async function buildHarness(options: HarnessOptions = {}) {
  const clock = { now: START };
  let issued = 0;
  const fetchChallenge: typeof fetch = async () => {
    if (options.challengeStatus !== undefined) {
      return Response.json({ error: "no burn address available" }, { status: options.challengeStatus });
    }
    issued++;
    const offer = buildChallengeOffer({
      payTo: payToOf(issued),
      challengeNonce: nonceOf(issued),
      amount: "1010",
      fee: { amount: "10", bps: 100 },
      expiresAt: clock.now + TTL,
      deadline: clock.now + TTL,
    });
    return Response.json(offer);
  };

  const facilitator = {
    verifies: [] as PaymentRequirements[],
    settles: [] as PaymentRequirements[],
    verifyAnswer: (): Promise<VerifyResponse> => Promise.resolve(buildVerifyResponse()),
    settleAnswer: (): Promise<SettleResponse> => Promise.resolve(buildSettleResponse()),
    async verify(_payment: PaymentPayload, requirements: PaymentRequirements) {
      this.verifies.push(requirements);
      return this.verifyAnswer();
    },
    async settle(_payment: PaymentPayload, requirements: PaymentRequirements) {
      this.settles.push(requirements);
      return this.settleAnswer();
    },
    getSupported: async () => buildSupportedResponse(),
  };

  const resourceServer = new x402ResourceServer(facilitator);
  const zerc20 = registerSvcZerc20Server(resourceServer, {
    network,
    facilitatorUrl: "http://facilitator.test",
    fetch: fetchChallenge,
    maxCachedOffers: options.maxCachedOffers,
    now: () => clock.now,
  });
  const http = new x402HTTPResourceServer(resourceServer, {
    "GET /weather": {
      accepts: zerc20.accepts({ price: "1000", description: "Weather report", mimeType: "application/json" }),
      description: "Weather report",
    },
    "GET /premium": { accepts: zerc20.accepts({ price: "5000" }) },
  });
  await http.initialize();

  const contextFor = (path: string, headers: Record<string, string>): HTTPRequestContext => {
    const lower = Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
    const adapter: HTTPAdapter = {
      getHeader: (name) => lower[name.toLowerCase()],
      getMethod: () => "GET",
      getPath: () => path,
      getUrl: () => `http://provider.test${path}`,
      getAcceptHeader: () => "application/json",
      getUserAgent: () => "vitest",
    };
    // As @x402/express does: the v1 header is offered as paymentHeader too.
    return { adapter, path, method: "GET", paymentHeader: lower["payment-signature"] ?? lower["x-payment"] };
  };

  /** One request through core, the way a middleware drives it; a verified payment is settled at once. */
  const request = async (path: string, headers: Record<string, string> = {}) => {
    const context = contextFor(path, headers);
    const result = await http.processHTTPRequest(context);
    return { context, result };
  };

  const settle = (context: HTTPRequestContext, result: HTTPProcessResult) => {
    if (result.type !== "payment-verified") throw new TypeError(`expected a verified payment, got ${result.type}`);
    return http.processSettlement(result.paymentPayload, result.paymentRequirements, result.declaredExtensions, { request: context });
  };

  return { clock, facilitator, request, settle, challenges: () => issued };
}

/** The offer of a 402 answer. */
function offerOf(result: HTTPProcessResult): PaymentRequirements {
  if (result.type !== "payment-error") throw new TypeError(`expected a 402, got ${result.type}`);
  const header = result.response.headers["PAYMENT-REQUIRED"];
  if (header === undefined) throw new TypeError("the answer has no PAYMENT-REQUIRED header");
  const offer = decodePaymentRequiredHeader(header).accepts[0];
  if (offer === undefined) throw new TypeError("the 402 offers nothing");
  return offer;
}

/** The `error` of a 402 answer. */
function errorOf(result: HTTPProcessResult): string | undefined {
  if (result.type !== "payment-error") throw new TypeError(`expected a 402, got ${result.type}`);
  expect(result.response.status).toBe(402);
  return decodePaymentRequiredHeader(result.response.headers["PAYMENT-REQUIRED"] ?? "").error;
}

/** The `PAYMENT-SIGNATURE` header paying `accepted` (echoed as given) with a permit payload. */
function pay(accepted: unknown, payload: Record<string, unknown> = buildPermitPayload()): Record<string, string> {
  // Built by hand so a test can echo a tampered or reordered offer exactly as a client would send it.
  const json = JSON.stringify({ x402Version: 2, accepted, payload });
  return { "PAYMENT-SIGNATURE": Buffer.from(json, "utf8").toString("base64") };
}

describe("offers", () => {
  it("answers each unpaid request with a fresh offer, exactly as the facilitator issued it", async () => {
    const harness = await buildHarness();
    const first = await harness.request("/weather");
    const second = await harness.request("/weather");

    expect(offerOf(first.result)).toEqual({
      scheme: "svc-zerc20",
      network,
      asset: TEST_TOKEN,
      amount: "1010",
      payTo: payToOf(1),
      maxTimeoutSeconds: TTL,
      extra: {
        challengeNonce: nonceOf(1),
        expiresAt: START + TTL,
        helper: TEST_HELPER,
        deadline: START + TTL,
        fee: { amount: "10", bps: 100 },
      },
      description: "Weather report",
      mimeType: "application/json",
    });
    expect(offerOf(second.result).payTo).toBe(payToOf(2));
    expect(harness.challenges()).toBe(2);
    if (first.result.type !== "payment-error") throw new TypeError("expected a 402");
    const body = decodePaymentRequiredHeader(first.result.response.headers["PAYMENT-REQUIRED"] ?? "");
    expect(() => validatePaymentRequired(body)).not.toThrow();
  });

  it("rebuilds the echoed offer on the paid retry without a new challenge, even as time passes", async () => {
    const harness = await buildHarness();
    const offer = offerOf((await harness.request("/weather")).result);
    harness.clock.now += 120;

    const { result } = await harness.request("/weather", pay(offer));

    expect(result.type).toBe("payment-verified");
    expect(harness.challenges()).toBe(1);
    expect(harness.facilitator.verifies).toEqual([offer]);
    expect(harness.facilitator.verifies[0]?.maxTimeoutSeconds).toBe(TTL);
  });

  it("accepts the echoed offer with its keys reordered", async () => {
    const harness = await buildHarness();
    const offer = offerOf((await harness.request("/weather")).result);
    const reordered = Object.fromEntries(Object.entries({ ...offer, extra: Object.fromEntries(Object.entries(offer.extra).reverse()) }).reverse());

    const { result } = await harness.request("/weather", pay(reordered));

    expect(result.type).toBe("payment-verified");
  });

  it.each([
    ["drops extra.helper", (offer: PaymentRequirements) => ({ ...offer, extra: { ...offer.extra, helper: undefined } })],
    ["drops description", ({ description: _dropped, ...offer }: PaymentRequirements & { description?: string }) => offer],
    ["rewrites amount", (offer: PaymentRequirements) => ({ ...offer, amount: "1" })],
    ["re-cases payTo", (offer: PaymentRequirements) => ({ ...offer, payTo: offer.payTo.toUpperCase().replace("0X", "0x") })],
    ["rewrites maxTimeoutSeconds", (offer: PaymentRequirements) => ({ ...offer, maxTimeoutSeconds: TTL + 1 })],
    ["rewrites extra.deadline", (offer: PaymentRequirements) => ({ ...offer, extra: { ...offer.extra, deadline: 1 } })],
  ])("refuses an echo that %s, without calling verify", async (_label, tamper) => {
    const harness = await buildHarness();
    const offer = offerOf((await harness.request("/weather")).result);

    const { result } = await harness.request("/weather", pay(tamper(offer)));

    expect(errorOf(result)).toBe("No matching payment requirements");
    expect(harness.facilitator.verifies).toEqual([]);
  });

  it("never lets one route's offer pay for another route", async () => {
    const harness = await buildHarness();
    const cheap = offerOf((await harness.request("/weather")).result);

    const { result } = await harness.request("/premium", pay(cheap));

    expect(errorOf(result)).toBe("No matching payment requirements");
    expect(offerOf(result).payTo).toBe(payToOf(2));
    expect(harness.facilitator.verifies).toEqual([]);
  });

  it("answers a payment carried only in the v1 X-PAYMENT header with a fresh 402, never verifying it", async () => {
    const harness = await buildHarness();
    const offer = offerOf((await harness.request("/weather")).result);

    const { result } = await harness.request("/weather", { "X-PAYMENT": pay(offer)["PAYMENT-SIGNATURE"] ?? "" });

    expect(errorOf(result)).toBe("Payment required");
    expect(offerOf(result).payTo).toBe(payToOf(2));
    expect(harness.facilitator.verifies).toEqual([]);
  });

  it("answers a payment for an expired offer with a fresh 402", async () => {
    const harness = await buildHarness();
    const offer = offerOf((await harness.request("/weather")).result);
    harness.clock.now += TTL + 1;

    const { result } = await harness.request("/weather", pay(offer));

    expect(errorOf(result)).toBe("No matching payment requirements");
    expect(offerOf(result).payTo).toBe(payToOf(2));
    expect(harness.facilitator.verifies).toEqual([]);
  });

  it("answers a payment for an evicted offer with a fresh 402", async () => {
    const harness = await buildHarness({ maxCachedOffers: 1 });
    const evicted = offerOf((await harness.request("/weather")).result);
    await harness.request("/weather");

    const { result } = await harness.request("/weather", pay(evicted));

    expect(offerOf(result).payTo).toBe(payToOf(3));
    expect(harness.facilitator.verifies).toEqual([]);
  });

  it("turns a failed /challenge into core's FacilitatorResponseError with a message for the client", async () => {
    const harness = await buildHarness({ challengeStatus: 503 });
    const error = await harness.request("/weather").then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(FacilitatorResponseError);
    expect(error).toHaveProperty(
      "message",
      "The payment facilitator could not issue an svc-zerc20 offer: POST /challenge answered HTTP 503 (no burn address available).",
    );
  });
});

describe("the in-flight lock and re-sent payments", () => {
  it("runs verify and settle once for concurrent identical payments and serves the others the same result", async () => {
    const harness = await buildHarness();
    const offer = offerOf((await harness.request("/weather")).result);
    const settleGate = gate<SettleResponse>();
    harness.facilitator.settleAnswer = () => settleGate.promise;

    const first = await harness.request("/weather", pay(offer));
    const firstSettle = harness.settle(first.context, first.result);
    let secondDone = false;
    const second = harness.request("/weather", pay(offer)).finally(() => {
      secondDone = true;
    });
    await settleMicrotasks();
    expect(secondDone).toBe(false);

    settleGate.open(buildSettleResponse());
    const firstSettled = await firstSettle;
    const secondRequest = await second;
    const secondSettled = await harness.settle(secondRequest.context, secondRequest.result);

    expect([firstSettled.success, secondSettled.success]).toEqual([true, true]);
    expect(secondSettled.headers).toEqual(firstSettled.headers);
    expect(decodePaymentResponseHeader(secondSettled.headers["PAYMENT-RESPONSE"] ?? "").extra).toEqual({ phase: "accepted" });
    expect([harness.facilitator.verifies.length, harness.facilitator.settles.length]).toEqual([1, 1]);
  });

  it("serves an identical payment re-sent after acceptance from the record, without the facilitator", async () => {
    const harness = await buildHarness();
    const offer = offerOf((await harness.request("/weather")).result);
    const first = await harness.request("/weather", pay(offer));
    const firstSettled = await harness.settle(first.context, first.result);
    harness.clock.now += TTL - 1;

    const again = await harness.request("/weather", pay(offer));
    const againSettled = await harness.settle(again.context, again.result);

    expect(againSettled.headers).toEqual(firstSettled.headers);
    expect([harness.facilitator.verifies.length, harness.facilitator.settles.length]).toEqual([1, 1]);
  });

  it("refuses a different payment for an offer already paid", async () => {
    const harness = await buildHarness();
    const offer = offerOf((await harness.request("/weather")).result);
    const first = await harness.request("/weather", pay(offer));
    await harness.settle(first.context, first.result);

    const other = await harness.request("/weather", pay(offer, buildPermitPayload({ burnAuthSig: `0x${"22".repeat(64)}1b` })));

    expect(errorOf(other.result)).toBe(PAYLOAD_CONFLICT);
    expect(harness.facilitator.verifies).toHaveLength(1);
  });

  it("answers waiters 402 when the run fails, and lets a later re-send reach the facilitator again", async () => {
    const harness = await buildHarness();
    const offer = offerOf((await harness.request("/weather")).result);
    const settleGate = gate<SettleResponse>();
    harness.facilitator.settleAnswer = () => settleGate.promise;

    const first = await harness.request("/weather", pay(offer));
    const firstSettle = harness.settle(first.context, first.result);
    const waiter = harness.request("/weather", pay(offer));
    await settleMicrotasks();
    settleGate.open(buildSettleResponse({ success: false, transaction: "", errorReason: INSUFFICIENT_BALANCE, extra: undefined }));

    expect((await firstSettle).success).toBe(false);
    expect(errorOf((await waiter).result)).toBe(CONCURRENT_PAYMENT_FAILED);
    harness.facilitator.settleAnswer = () => Promise.resolve(buildSettleResponse());
    const resent = await harness.request("/weather", pay(offer));
    expect((await harness.settle(resent.context, resent.result)).success).toBe(true);
    expect([harness.facilitator.verifies.length, harness.facilitator.settles.length]).toEqual([2, 2]);
  });

  it("releases the lock when the handler fails, recording nothing", async () => {
    const harness = await buildHarness();
    const offer = offerOf((await harness.request("/weather")).result);
    const first = await harness.request("/weather", pay(offer));
    if (first.result.type !== "payment-verified") throw new TypeError("expected a verified payment");

    await first.result.cancellationDispatcher.cancel({ reason: "handler_threw", error: new Error("boom") });
    const resent = await harness.request("/weather", pay(offer));

    expect(resent.result.type).toBe("payment-verified");
    expect([harness.facilitator.verifies.length, harness.facilitator.settles.length]).toEqual([2, 0]);
  });

  it("releases the lock when verify says invalid", async () => {
    const harness = await buildHarness();
    const offer = offerOf((await harness.request("/weather")).result);
    harness.facilitator.verifyAnswer = () => Promise.resolve({ isValid: false, invalidReason: INSUFFICIENT_BALANCE });

    expect(errorOf((await harness.request("/weather", pay(offer))).result)).toBe(INSUFFICIENT_BALANCE);
    harness.facilitator.verifyAnswer = () => Promise.resolve(buildVerifyResponse());
    expect((await harness.request("/weather", pay(offer))).result.type).toBe("payment-verified");
  });

  it("stops waiting when the offer expires", async () => {
    const harness = await buildHarness();
    const offer = offerOf((await harness.request("/weather")).result);
    const first = await harness.request("/weather", pay(offer));
    expect(first.result.type).toBe("payment-verified");
    // The offer has one second left; the run never finishes.
    harness.clock.now = START + TTL;

    const waiter = await harness.request("/weather", pay(offer));

    expect(errorOf(waiter.result)).toBe(CHALLENGE_EXPIRED);
  });
});
