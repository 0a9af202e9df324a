import type { ServerResponse } from "node:http";

import { encodePaymentResponseHeader } from "@svc/scheme";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { Ledger } from "../ledger/ledger.js";
import type { LedgerEntry } from "../ledger/ledgerEntry.js";
import { buildPolicy } from "../testing/buildPolicy.js";
import { buildReserveInput } from "../testing/buildReserveInput.js";
import { startTestServer, type TestServer } from "../testing/startTestServer.js";
import { makeTempDir } from "../testing/tempDir.js";
import { NothingToResendError, OfferExpiredError, resendPayment } from "./resendPayment.js";
import { sendStoredPayment } from "./sendStoredPayment.js";

const BURN = `0x${"cd".repeat(32)}` as const;
const HEADER = "eyJzdG9yZWQiOiJieXRlcyJ9";

let dir: Awaited<ReturnType<typeof makeTempDir>>;
let server: TestServer | undefined;
let answer: (response: ServerResponse) => void;
beforeEach(async () => {
  dir = await makeTempDir();
  answer = (response) => response.end();
  server = await startTestServer((_request, response) => answer(response));
});
afterEach(async () => {
  await server?.close();
  await dir.remove();
});

function settled(response: ServerResponse, success: boolean, errorReason?: string) {
  response.setHeader(
    "PAYMENT-RESPONSE",
    encodePaymentResponseHeader({ success, transaction: success ? BURN : "", network: "eip155:31337", ...(errorReason === undefined ? {} : { errorReason }) }),
  );
  response.statusCode = success ? 200 : 402;
  response.end(success ? '{"weather":"sunny"}' : "{}");
}

async function signedEntry(
  ledger: Ledger,
  mode: "permit" | "self-transfer" = "permit",
  expiresAt = 1_900_000_300,
): Promise<LedgerEntry & { paymentHeader: string }> {
  const reserved = await ledger.reserve(buildReserveInput({ mode, url: `${server?.origin}/weather`, expiresAt }), {});
  if (reserved.kind !== "reserved") throw new Error("expected a reservation");
  const entry = await ledger.recordSigned(reserved.entry.id, HEADER);
  return { ...entry, paymentHeader: HEADER };
}

describe("sendStoredPayment", () => {
  it("sends the stored bytes once and records a settled payment", async () => {
    const ledger = new Ledger(dir.path);
    const entry = await signedEntry(ledger);
    answer = (response) => settled(response, true);
    const outcome = await sendStoredPayment({ entry, policy: buildPolicy(), ledger });
    expect(outcome).toMatchObject({ kind: "paid", id: entry.id, transaction: BURN, resource: { status: 200, body: '{"weather":"sunny"}' } });
    expect(server?.requests.map((request) => request.headers["payment-signature"])).toEqual([HEADER]);
    expect(await ledger.get(entry.id)).toMatchObject({ status: "settled", transaction: BURN });
  });

  it("repeats the request's method, headers and body, and only the stored payment header goes out", async () => {
    const ledger = new Ledger(dir.path);
    const reserved = await ledger.reserve(
      buildReserveInput({
        url: `${server?.origin}/weather`,
        request: { method: "POST", headers: { "x-trace": "t1", "Payment-Signature": "forged" }, body: "city=Zurich" },
      }),
      {},
    );
    if (reserved.kind !== "reserved") throw new Error("expected a reservation");
    const entry = { ...(await ledger.recordSigned(reserved.entry.id, HEADER)), paymentHeader: HEADER };
    answer = (response) => settled(response, true);
    await expect(sendStoredPayment({ entry, policy: buildPolicy(), ledger })).resolves.toMatchObject({ kind: "paid" });
    expect(server?.requests).toEqual([
      expect.objectContaining({ method: "POST", headers: expect.objectContaining({ "x-trace": "t1", "payment-signature": HEADER, "content-length": "11" }) }),
    ]);
  });

  it("releases a refused permit payment and shows the facilitator's reason", async () => {
    const ledger = new Ledger(dir.path);
    const entry = await signedEntry(ledger);
    answer = (response) => settled(response, false, "stale_permit_nonce");
    const outcome = await sendStoredPayment({ entry, policy: buildPolicy(), ledger });
    expect(outcome).toMatchObject({
      kind: "failed",
      errorReason: "stale_permit_nonce",
      message: "the payment was refused: stale_permit_nonce; nothing was paid",
    });
    expect(await ledger.get(entry.id)).toMatchObject({ status: "released", errorReason: "stale_permit_nonce" });
  });

  it("keeps a refused self-transfer's spend: its burn is already on-chain", async () => {
    const ledger = new Ledger(dir.path);
    const entry = await signedEntry(ledger, "self-transfer");
    answer = (response) => settled(response, false, "burn_after_expiry");
    expect(await sendStoredPayment({ entry, policy: buildPolicy(), ledger })).toMatchObject({ kind: "failed", errorReason: "burn_after_expiry" });
    expect(await ledger.get(entry.id)).toMatchObject({ status: "failed" });
  });

  it("keeps the spend on pending_burn and on a lost answer", async () => {
    const ledger = new Ledger(dir.path);
    const pending = await signedEntry(ledger);
    answer = (response) => settled(response, false, "pending_burn");
    expect(await sendStoredPayment({ entry: pending, policy: buildPolicy(), ledger })).toMatchObject({ kind: "unknown", errorReason: "pending_burn" });
    expect(await ledger.get(pending.id)).toMatchObject({ status: "unknown" });

    const lost = await signedEntry(ledger);
    answer = (response) => response.socket?.destroy();
    expect(await sendStoredPayment({ entry: lost, policy: buildPolicy(), ledger })).toMatchObject({ kind: "unknown" });
    expect(await ledger.get(lost.id)).toMatchObject({ status: "unknown" });
  });

  it("releases a permit payment that provably never left (connection refused)", async () => {
    const ledger = new Ledger(dir.path);
    const entry = await signedEntry(ledger);
    await server?.close();
    server = undefined;
    expect(await sendStoredPayment({ entry, policy: buildPolicy(), ledger })).toMatchObject({ kind: "failed" });
    expect(await ledger.get(entry.id)).toMatchObject({ status: "released" });
  });
});

describe("resendPayment", () => {
  it("re-sends exactly the stored bytes of an unknown payment and never downgrades it on a refusal", async () => {
    const ledger = new Ledger(dir.path);
    const entry = await signedEntry(ledger);
    await ledger.recordOutcome(entry.id, { status: "unknown", message: "lost" });
    answer = (response) => settled(response, false, "payload_conflict");
    expect(await resendPayment({ id: entry.id, policy: buildPolicy(), ledger })).toMatchObject({ kind: "unknown", errorReason: "payload_conflict" });
    expect(await ledger.get(entry.id)).toMatchObject({ status: "unknown" });
    answer = (response) => settled(response, true);
    expect(await resendPayment({ id: entry.id, policy: buildPolicy(), ledger })).toMatchObject({ kind: "paid" });
    expect(server?.requests.map((request) => request.headers["payment-signature"])).toEqual([HEADER, HEADER]);
  });

  it("refuses an expired offer with a clear message, sending nothing", async () => {
    const ledger = new Ledger(dir.path);
    const entry = await signedEntry(ledger, "permit", 1_700_000_000);
    await ledger.recordOutcome(entry.id, { status: "unknown", message: "lost" });
    const error = await resendPayment({ id: entry.id, policy: buildPolicy(), ledger }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OfferExpiredError);
    expect(String(error)).toBe(
      `OfferExpiredError: The offer of payment ${entry.id} expired at 2023-11-14T22:13:20.000Z; it cannot be re-sent. A new purchase needs a fresh 402: run \`svc-agent pay ${entry.url}\` again once you have checked that payment ${entry.id} (unknown) did not go through.`,
    );
    expect(server?.requests).toEqual([]);
  });

  it("refuses a payment with nothing to re-send", async () => {
    const ledger = new Ledger(dir.path);
    const reserved = await ledger.reserve(buildReserveInput(), {});
    if (reserved.kind !== "reserved") throw new Error("expected a reservation");
    await expect(resendPayment({ id: reserved.entry.id, policy: buildPolicy(), ledger })).rejects.toThrow(NothingToResendError);
    const settledEntry = await signedEntry(ledger);
    await ledger.recordOutcome(settledEntry.id, { status: "settled" });
    await expect(resendPayment({ id: settledEntry.id, policy: buildPolicy(), ledger })).rejects.toThrow(NothingToResendError);
    expect(server?.requests).toEqual([]);
  });
});
