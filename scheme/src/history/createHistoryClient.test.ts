import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";

import { TEST_PAYER_KEY } from "../testing/builders.js";
import { createHistoryClient } from "./createHistoryClient.js";
import { HistoryRequestError } from "./errors.js";
import { buildHistoryLoginMessage, type HistoryLoginMessageFields } from "./historyLoginMessage.js";

const NOW_MS = 1_893_456_000_000;
const NONCE = `0x${"ab".repeat(32)}` as const;
const payer = privateKeyToAccount(TEST_PAYER_KEY);

/** A fake facilitator: answers the challenge with `fields`, and records what was sent to verify. */
function fakeFacilitator(fields: Partial<HistoryLoginMessageFields> = {}, answer: { nonce?: string } = {}) {
  const sent: { path: string; body: unknown; authorization: string | null }[] = [];
  const message = buildHistoryLoginMessage({
    domain: "facilitator.example",
    tenantId: "tenant-a",
    actorId: "agent-1",
    subject: "payer",
    nonce: NONCE,
    expiresAt: NOW_MS / 1000 + 300,
    ...fields,
  });
  const fetchFn: typeof fetch = async (input, init) => {
    const path = new URL(String(input)).pathname;
    const body: unknown = init?.body === undefined ? undefined : JSON.parse(String(init.body));
    sent.push({ path, body, authorization: new Headers(init?.headers).get("authorization") });
    if (path === "/history/auth/challenge") {
      return Response.json({ message, nonce: answer.nonce ?? NONCE, expiresAt: fields.expiresAt ?? NOW_MS / 1000 + 300 });
    }
    if (path === "/history/auth/verify") return Response.json({ token: "identity-token", expiresAt: NOW_MS / 1000 + 900 });
    if (path === "/history/payments") return Response.json({ payments: [] });
    return Response.json({ error: "not found" }, { status: 404 });
  };
  return { sent, fetchFn, message };
}

describe("createHistoryClient", () => {
  it("logs in by signing exactly the issued message, then reads with the bearer token", async () => {
    const facilitator = fakeFacilitator();
    const client = createHistoryClient({ facilitatorUrl: "http://facilitator.test/", fetch: facilitator.fetchFn });
    const login = await client.login({
      subject: "payer",
      signMessage: (message) => payer.signMessage({ message }),
      expectedDomain: "facilitator.example",
      now: () => NOW_MS,
    });
    expect(login).toEqual({ token: "identity-token", expiresAt: NOW_MS / 1000 + 900 });
    const verifyBody = facilitator.sent[1]?.body as { message: string; signature: string };
    expect(verifyBody.message).toBe(facilitator.message);
    expect(await client.listPayments(login.token)).toEqual([]);
    expect(facilitator.sent[2]?.authorization).toBe("Bearer identity-token");
  });

  it.each([
    ["another subject", { subject: "provider" as const }, {}],
    ["another domain", { domain: "phish.example" }, {}],
    ["an expired challenge", { expiresAt: NOW_MS / 1000 - 1 }, {}],
    ["a nonce unlike the answer's", {}, { nonce: `0x${"cd".repeat(32)}` }],
  ])("refuses to sign a message with %s", async (_label, fields, answer) => {
    const facilitator = fakeFacilitator(fields, answer);
    const client = createHistoryClient({ facilitatorUrl: "http://facilitator.test", fetch: facilitator.fetchFn });
    let signed = false;
    const login = client.login({
      subject: "payer",
      signMessage: (message) => {
        signed = true;
        return payer.signMessage({ message });
      },
      expectedDomain: "facilitator.example",
      now: () => NOW_MS,
    });
    await expect(login).rejects.toMatchObject({ name: "HistoryRequestError", failure: { kind: "unexpected_challenge" } });
    expect(signed).toBe(false);
  });

  it("surfaces the facilitator's refusal with its status and error text", async () => {
    const client = createHistoryClient({ facilitatorUrl: "http://facilitator.test", fetch: fakeFacilitator().fetchFn });
    const failure = await client.getPayment("t", `0x${"00".repeat(32)}`).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HistoryRequestError);
    expect((failure as HistoryRequestError).shortMessage).toMatchInlineSnapshot(
      `"history request /history/payments/0x0000000000000000000000000000000000000000000000000000000000000000 failed: HTTP 404 (not found)"`,
    );
  });
});
