import { describe, expect, it } from "vitest";

import { buildChallengeOffer, TEST_CHAIN_ID, TEST_HELPER, TEST_PAY_TO } from "../testing/builders.js";
import { createChallengeClient } from "./createChallengeClient.js";
import { ChallengeRequestError } from "./errors.js";

type Call = { url: string; init: RequestInit | undefined };

/** A `fetch` that records calls and answers with `respond`. */
function buildFetch(respond: (call: Call) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fetchFn: typeof fetch = async (input, init) => {
    const call = { url: String(input), init };
    calls.push(call);
    return respond(call);
  };
  return { calls, fetch: fetchFn };
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

const network = `eip155:${TEST_CHAIN_ID}` as const;

/** The ChallengeRequestError a call rejects with; fails the test when it resolves or throws anything else. */
async function rejection(promise: Promise<unknown>): Promise<ChallengeRequestError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ChallengeRequestError)) throw new TypeError(`expected ChallengeRequestError, got ${String(error)}`);
  return error;
}

describe("createChallengeClient", () => {
  it("posts the list price and returns the offer with every string as the facilitator wrote it", async () => {
    // The builder's payTo is checksummed and its helper all lowercase: both spellings must survive.
    const offer = buildChallengeOffer({ fee: { amount: "10", bps: 100 } });
    const { calls, fetch } = buildFetch(() => json({ ...offer, futureField: 1 }));
    const challenge = createChallengeClient({ facilitatorUrl: "http://facilitator.test/base/", network, fetch });

    const answer = await challenge("1000");

    expect(answer).toEqual({ ...offer, futureField: 1 });
    expect([answer.payTo, answer.helper]).toEqual([TEST_PAY_TO, TEST_HELPER]);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe("http://facilitator.test/base/challenge");
    expect(calls[0]?.init?.method).toBe("POST");
    expect(calls[0]?.init?.body).toBe('{"amount":"1000"}');
  });

  it("passes the facilitator's error text on a refusal", async () => {
    const { fetch } = buildFetch(() => json({ error: "payment acceptance is disabled for profile testnet" }, 403));
    const challenge = createChallengeClient({ facilitatorUrl: "http://facilitator.test", network, fetch });
    await expect(challenge("1000")).rejects.toThrowErrorMatchingInlineSnapshot(`
      [ChallengeRequestError: The payment facilitator could not issue an svc-zerc20 offer: POST /challenge answered HTTP 403 (payment acceptance is disabled for profile testnet).

      Details: POST http://facilitator.test/challenge]
    `);
  });

  it("names a refusal without a readable body by its status", async () => {
    const { fetch } = buildFetch(() => new Response("<html>busy</html>", { status: 503 }));
    const challenge = createChallengeClient({ facilitatorUrl: "http://facilitator.test", network, fetch });
    const error = await rejection(challenge("1000"));
    expect(error.failure).toEqual({ kind: "refused", status: 503, facilitatorError: undefined });
    expect(error.shortMessage).toBe("The payment facilitator could not issue an svc-zerc20 offer: POST /challenge answered HTTP 503.");
  });

  it("reports an unreachable facilitator without its address in the short message", async () => {
    const { fetch } = buildFetch(() => {
      throw new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED 127.0.0.1:9") });
    });
    const challenge = createChallengeClient({ facilitatorUrl: "http://127.0.0.1:9", network, fetch });
    const error = await rejection(challenge("1000"));
    expect(error.shortMessage).toBe("The payment facilitator could not issue an svc-zerc20 offer: it is unreachable.");
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it("gives up after timeoutMs", async () => {
    const { fetch } = buildFetch(
      (call) =>
        new Promise<Response>((_resolve, reject) => {
          call.init?.signal?.addEventListener("abort", () => reject(call.init?.signal?.reason));
        }),
    );
    const challenge = createChallengeClient({ facilitatorUrl: "http://facilitator.test", network, fetch, timeoutMs: 20 });
    const error = await rejection(challenge("1000"));
    expect(error.failure).toEqual({ kind: "timeout", timeoutMs: 20 });
  });

  it.each([
    ["a malformed offer", { ...buildChallengeOffer(), amount: "1.5" }, "amount: expected a plain non-negative decimal integer string"],
    ["an offer for another chain", buildChallengeOffer({ chainId: 1 }), `offer is for chain 1, not eip155:${TEST_CHAIN_ID}`],
  ])("refuses %s", async (_label, body, issues) => {
    const { fetch } = buildFetch(() => json(body));
    const challenge = createChallengeClient({ facilitatorUrl: "http://facilitator.test", network, fetch });
    const error = await rejection(challenge("1000"));
    expect(error.failure).toEqual({ kind: "invalid_offer", issues });
  });
});
