/**
 * The demo app in-process, on a real port, against the real facilitator process on a real anvil chain:
 * every payment below is signed or broadcast for real and settled by the facilitator, and the assertions
 * read the chain. One stack serves the file; each test builds its own app (a fresh offer cache), so tests do
 * not share state. Every `/challenge` costs the facilitator a burn-address derivation, so the file issues 14.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

import { createTestPayer } from "@svc/anvil-fixtures";
import { decodePaymentResponseHeader, type PaymentRequirements, toNetwork } from "@svc/scheme";
import { decodePaymentRequiredHeader as coreDecodePaymentRequired } from "@x402/core/http";
import { validatePaymentRequired } from "@x402/core/schemas";
import { HTTPFacilitatorClient } from "@x402/core/server";
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createProviderApp, type ProviderAppOptions } from "./createProviderApp.js";
import {
  balanceOf,
  countingFacilitatorClient,
  offerOf,
  type PaymentStack,
  paymentSignature,
  startPaymentStack,
  unusedLocalUrl,
} from "./testing/paymentStack.js";
import { demoWeatherSource } from "./weatherSource.js";

const PRICE = "1000000000000000";
/** The local stack's facilitator charges the payer a 1% fee on top of the list price. */
const QUOTED = "1010000000000000";

let payments: PaymentStack;

beforeAll(async () => {
  payments = await startPaymentStack();
});

afterAll(async () => {
  await payments?.close();
});

/** The kit's test payer for `privateKey` on the stack's chain. */
const payerOf = (privateKey: Hex) => createTestPayer({ rpcUrl: payments.stack.deployment.rpcUrl, privateKey });

/** Builds the app with a counting facilitator client and captured log lines, and listens on a free port. */
async function startApp(overrides: Partial<ProviderAppOptions> = {}) {
  const counting = countingFacilitatorClient(new HTTPFacilitatorClient({ url: payments.facilitator.url }));
  const logs: string[] = [];
  const app = createProviderApp({
    facilitatorUrl: payments.facilitator.url,
    network: toNetwork(payments.stack.deployment.chainId),
    price: PRICE,
    facilitatorClient: counting.client,
    log: (line) => logs.push(line),
    ...overrides,
  });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    calls: counting.calls,
    logs: () => logs.map((line) => JSON.parse(line) as Record<string, unknown>),
    get: (path: string, headers: Record<string, string> = {}) => fetch(`${url}${path}`, { headers }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

type App = Awaited<ReturnType<typeof startApp>>;

/** Runs `body` with an app that is closed afterwards, pass or fail. */
async function withApp(overrides: Partial<ProviderAppOptions>, body: (app: App) => Promise<void>): Promise<void> {
  const app = await startApp(overrides);
  try {
    await body(app);
  } finally {
    await app.close();
  }
}

/** An unpaid request to `/weather` and its offer. */
async function requestOffer(app: App): Promise<PaymentRequirements> {
  const response = await app.get("/weather");
  expect(response.status).toBe(402);
  return offerOf(response);
}

const accounts = () => payments.stack.deployment.accounts;
const token = () => payments.stack.deployment.token;
const burned = (offer: PaymentRequirements) => balanceOf(payments.client, token(), offer.payTo);

/** The 402's `error`, decoded from `PAYMENT-REQUIRED`. */
const requiredError = (response: Response) => coreDecodePaymentRequired(response.headers.get("PAYMENT-REQUIRED") ?? "").error;

/** A `PAYMENT-SIGNATURE` built from raw JSON, for echoes the typed builders cannot express. */
const rawPaymentSignature = (json: unknown) => ({ "PAYMENT-SIGNATURE": Buffer.from(JSON.stringify(json), "utf8").toString("base64") });

describe("unpaid requests", () => {
  it("answer 402 with a PAYMENT-REQUIRED offer that passes @x402/core/schemas, with a new payTo every time", async () => {
    await withApp({}, async (app) => {
      const first = await app.get("/weather");
      const second = await app.get("/weather");

      expect([first.status, second.status]).toEqual([402, 402]);
      expect(await first.json()).toEqual({});
      const paymentRequired = coreDecodePaymentRequired(first.headers.get("PAYMENT-REQUIRED") ?? "");
      expect(() => validatePaymentRequired(paymentRequired)).not.toThrow();
      const offer = offerOf(first);
      expect(offer).toMatchObject({
        scheme: "svc-zerc20",
        network: "eip155:31337",
        amount: QUOTED,
        description: "Current weather",
        mimeType: "application/json",
        extra: { fee: { amount: "10000000000000", bps: 100 } },
      });
      expect(offer.asset.toLowerCase()).toBe(token().toLowerCase());
      expect(offer.extra.helper?.toLowerCase()).toBe(payments.stack.deployment.permitBurner.toLowerCase());
      expect(offer.maxTimeoutSeconds).toBeGreaterThan(290);
      expect(offer.maxTimeoutSeconds).toBeLessThanOrEqual(300);
      expect(offerOf(second).payTo).not.toBe(offer.payTo);
      expect(offerOf(second).extra.challengeNonce).not.toBe(offer.extra.challengeNonce);
      expect((await app.get("/healthz")).status).toBe(200);
    });
  });
});

describe("paid requests", () => {
  it("serve a permit payment: verify, handler, settle, 200 with PAYMENT-RESPONSE accepted, logged without payload", async () => {
    await withApp({}, async (app) => {
      const offer = await requestOffer(app);
      const payer = accounts().payer;
      const payerBefore = await balanceOf(payments.client, token(), payer.address);
      const payload = await payerOf(payer.privateKey).signPermit(offer);

      const response = await app.get("/weather", paymentSignature(offer, payload));

      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(await demoWeatherSource.current());
      const settled = decodePaymentResponseHeader(response.headers.get("PAYMENT-RESPONSE") ?? "");
      expect(settled).toMatchObject({ success: true, network: "eip155:31337", payer: payer.address, extra: { phase: "accepted" } });
      expect(await burned(offer)).toBe(BigInt(QUOTED));
      expect(await balanceOf(payments.client, token(), payer.address)).toBe(payerBefore - BigInt(QUOTED));
      expect(app.calls).toEqual({ verify: 1, settle: 1 });

      const requests = app.logs().filter((line) => line.event === "request");
      expect(requests).toEqual([
        expect.objectContaining({ method: "GET", path: "/weather", status: 402, challenge_nonce: offer.extra.challengeNonce, error: "Payment required" }),
        expect.objectContaining({ method: "GET", path: "/weather", status: 200, challenge_nonce: offer.extra.challengeNonce, phase: "accepted" }),
      ]);
      const logText = JSON.stringify(app.logs()).toLowerCase();
      for (const secret of [payload.burnAuthSig, payload.permit.r, payload.permit.s, payer.address]) {
        expect(logText).not.toContain(secret.toLowerCase());
      }
    });
  });

  it("serve a self-transfer payment the same way", async () => {
    await withApp({}, async (app) => {
      const offer = await requestOffer(app);
      const payload = await payerOf(accounts().payer.privateKey).paySelfTransfer(offer);

      const response = await app.get("/weather", paymentSignature(offer, payload));

      expect(response.status).toBe(200);
      const settled = decodePaymentResponseHeader(response.headers.get("PAYMENT-RESPONSE") ?? "");
      expect(settled).toMatchObject({ success: true, transaction: payload.burnTxHash, extra: { phase: "accepted" } });
      expect(app.calls).toEqual({ verify: 1, settle: 1 });
    });
  });

  it("serve an identical re-sent payment again within the offer's life, without a second burn or settle", async () => {
    await withApp({}, async (app) => {
      const offer = await requestOffer(app);
      const header = paymentSignature(offer, await payerOf(accounts().payer.privateKey).signPermit(offer));
      const first = await app.get("/weather", header);
      const payerAfterFirst = await balanceOf(payments.client, token(), accounts().payer.address);

      const again = await app.get("/weather", header);

      expect([first.status, again.status]).toEqual([200, 200]);
      expect(await again.json()).toEqual(await demoWeatherSource.current());
      expect(again.headers.get("PAYMENT-RESPONSE")).toBe(first.headers.get("PAYMENT-RESPONSE"));
      expect(await burned(offer)).toBe(BigInt(QUOTED));
      expect(await balanceOf(payments.client, token(), accounts().payer.address)).toBe(payerAfterFirst);
      expect(app.calls).toEqual({ verify: 1, settle: 1 });
    });
  });

  it("settle once for concurrent identical paid requests, serving each of them", async () => {
    let handled = 0;
    const weather = {
      ...demoWeatherSource,
      current: () => {
        handled++;
        return demoWeatherSource.current();
      },
    };
    await withApp({ weather }, async (app) => {
      const offer = await requestOffer(app);
      const header = paymentSignature(offer, await payerOf(accounts().payer.privateKey).signPermit(offer));

      const responses = await Promise.all([app.get("/weather", header), app.get("/weather", header), app.get("/weather", header)]);

      expect(responses.map((response) => response.status)).toEqual([200, 200, 200]);
      const receipts = new Set(responses.map((response) => response.headers.get("PAYMENT-RESPONSE")));
      expect(receipts.size).toBe(1);
      expect(app.calls).toEqual({ verify: 1, settle: 1 });
      expect(await burned(offer)).toBe(BigInt(QUOTED));
      // Each served response runs the (side-effect-free) handler; payment work happened once.
      expect(handled).toBe(3);
    });
  });

  it("answer 402 and discard the handler's body when settle fails after the handler ran", async () => {
    // Provoked for real: the handler moves the payer's whole balance away between verify and settle, so the
    // facilitator's settle-time re-check finds it insufficient.
    const { payer2, payee } = accounts();
    const weather = {
      ...demoWeatherSource,
      current: async () => {
        const balance = await balanceOf(payments.client, token(), payer2.address);
        await payerOf(payer2.privateKey).transfer({ token: token(), to: payee.address, amount: balance });
        return demoWeatherSource.current();
      },
    };
    await withApp({ weather }, async (app) => {
      const offer = await requestOffer(app);
      const header = paymentSignature(offer, await payerOf(payer2.privateKey).signPermit(offer));

      const response = await app.get("/weather", header);

      expect(response.status).toBe(402);
      expect(await response.text()).toBe("{}");
      const settled = decodePaymentResponseHeader(response.headers.get("PAYMENT-RESPONSE") ?? "");
      expect(settled).toMatchObject({ success: false, errorReason: "insufficient_balance" });
      expect(app.calls).toEqual({ verify: 1, settle: 1 });
      expect(await burned(offer)).toBe(0n);
      expect(app.logs()).toContainEqual(expect.objectContaining({ status: 402, challenge_nonce: offer.extra.challengeNonce, error: "insufficient_balance" }));
    });
  });

  it("answer 500 and never settle when the handler throws: the burn address receives nothing", async () => {
    const weather = {
      ...demoWeatherSource,
      current: () => {
        throw new TypeError("weather station offline");
      },
    };
    await withApp({ weather }, async (app) => {
      const offer = await requestOffer(app);
      const header = paymentSignature(offer, await payerOf(accounts().payer.privateKey).signPermit(offer));

      const response = await app.get("/weather", header);

      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ error: "Internal Server Error" });
      expect(response.headers.get("PAYMENT-RESPONSE")).toBeNull();
      expect(app.calls).toEqual({ verify: 1, settle: 0 });
      expect(await burned(offer)).toBe(0n);
    });
  });
});

describe("matching the echoed offer", () => {
  it("refuses a payment whose accepted drops or rewrites fields, without verifying it", async () => {
    await withApp({}, async (app) => {
      const offer = await requestOffer(app);
      const payload = await payerOf(accounts().payer.privateKey).signPermit(offer);
      const tampered = [
        { ...offer, extra: { ...offer.extra, helper: undefined } },
        { ...offer, description: undefined },
        { ...offer, amount: PRICE },
        { ...offer, payTo: accounts().payee.address },
        { ...offer, payTo: recase(offer.payTo) },
        { ...offer, maxTimeoutSeconds: offer.maxTimeoutSeconds + 60 },
      ];

      for (const accepted of tampered) {
        const response = await app.get("/weather", rawPaymentSignature({ x402Version: 2, accepted, payload }));
        expect(response.status).toBe(402);
        expect(requiredError(response)).toBe("No matching payment requirements");
      }
      expect(app.calls).toEqual({ verify: 0, settle: 0 });
      expect(await burned(offer)).toBe(0n);
    });
  });

  it("accepts the echoed offer with its keys in another order", async () => {
    await withApp({}, async (app) => {
      const offer = await requestOffer(app);
      const payload = await payerOf(accounts().payer.privateKey).signPermit(offer);
      const reversed = (value: object) => Object.fromEntries(Object.entries(value).reverse());
      const accepted = reversed({ ...offer, extra: reversed(offer.extra) });
      expect(Object.keys(accepted)).not.toEqual(Object.keys(offer));

      const response = await app.get("/weather", rawPaymentSignature({ payload, accepted, x402Version: 2 }));

      expect(response.status).toBe(200);
      expect(await burned(offer)).toBe(BigInt(QUOTED));
    });
  });

  it("answers a request carrying only a v1 X-PAYMENT header with a fresh 402 and never verifies it", async () => {
    await withApp({}, async (app) => {
      const offer = await requestOffer(app);
      const payload = await payerOf(accounts().payer.privateKey).signPermit(offer);
      const v1Payment = { x402Version: 1, scheme: "svc-zerc20", network: offer.network, payload };

      const response = await app.get("/weather", { "X-PAYMENT": rawPaymentSignature(v1Payment)["PAYMENT-SIGNATURE"] });

      expect(response.status).toBe(402);
      expect(offerOf(response).payTo).not.toBe(offer.payTo);
      expect(app.calls).toEqual({ verify: 0, settle: 0 });
      expect(await burned(offer)).toBe(0n);
    });
  });

  it("answers a payment made before a provider restart with a fresh 402: the new instance never issued it", async () => {
    let offer: PaymentRequirements | undefined;
    await withApp({}, async (before) => {
      offer = await requestOffer(before);
    });
    if (offer === undefined) throw new TypeError("no offer before the restart");
    const header = paymentSignature(offer, await payerOf(accounts().payer.privateKey).signPermit(offer));

    await withApp({}, async (after) => {
      const response = await after.get("/weather", header);

      expect(response.status).toBe(402);
      expect(requiredError(response)).toBe("No matching payment requirements");
      expect(offerOf(response).payTo).not.toBe(offer?.payTo);
      expect(after.calls).toEqual({ verify: 0, settle: 0 });
    });
    expect(await burned(offer)).toBe(0n);
  });
});

describe("facilitator failures", () => {
  it("answer 502 with a clear message when POST /challenge is unreachable", async () => {
    const deadUrl = await unusedLocalUrl();
    // Verify, settle and supported still reach the real facilitator; only the offers' source is gone.
    await withApp({ facilitatorUrl: deadUrl }, async (app) => {
      const response = await app.get("/weather");

      expect(response.status).toBe(502);
      expect(await response.json()).toEqual({ error: "The payment facilitator could not issue an svc-zerc20 offer: it is unreachable." });
      expect(app.logs()).toContainEqual(expect.objectContaining({ path: "/weather", status: 502, error: "facilitator_error" }));
    });
  });
});

/** The same address spelled in another case: equal on-chain, different on the wire. */
function recase(address: string): string {
  const lower = `0x${address.slice(2).toLowerCase()}`;
  return lower !== address ? lower : `0x${address.slice(2).toUpperCase()}`;
}
