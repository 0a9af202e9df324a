/**
 * The `/history/*` HTTP surface over the real history core (file, recorder, login, tokens, proofs) with no
 * chain: payments are fed through the recorder exactly as settlement would.
 */
import { createHistoryClient, HistoryPaymentsResponseSchema, type HistorySubject, verifyPaymentProof } from "@svc/scheme";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { buildMemoryLogger, buildAppDependencies, startTestServer, type TestServer } from "../../testing/buildAppDependencies.js";
import { openHistory, type HistoryOptions, type OpenedHistory } from "../../../history/openHistory.js";
import { paymentHistoryFileStore } from "../../../history/record/paymentHistoryFileStore.js";
import {
  buildHistoryPayment,
  createHistoryTestEnvironment,
  type HistoryTestEnvironment,
  loginAs,
  TEST_BINDINGS,
  TEST_MINT_TX,
  TEST_RECIPIENT,
} from "../../../history/testing/historyTestEnvironment.js";

const BURN_TX = `0x${"b0".repeat(32)}` as const;
const PAYMENT_ID = `0x${"c1".repeat(32)}`;

let environment: HistoryTestEnvironment;
let history: OpenedHistory | undefined;
let server: TestServer | undefined;
let wallClockOffsetMs = 0;
let limiterMs = 0;

beforeEach(() => {
  wallClockOffsetMs = 0;
  limiterMs = 0;
});

afterEach(async () => {
  await server?.close();
  await history?.close();
  await environment?.close();
  server = undefined;
  history = undefined;
});

/** Starts the app with history from a test environment and one accepted, one finalized payment recorded. */
async function start(options: { proofs?: boolean; env?: Record<string, string>; history?: HistoryOptions } = {}): Promise<string> {
  environment = await createHistoryTestEnvironment({ proofs: options.proofs, env: options.env });
  const { logger } = buildMemoryLogger();
  history = await openHistory({
    env: environment.env,
    recipient: TEST_RECIPIENT,
    logger,
    store: paymentHistoryFileStore,
    options: { now: () => Date.now() + wallClockOffsetMs, ...options.history },
  });
  if (history === undefined) throw new TypeError("history did not open");
  const accepted = buildHistoryPayment();
  await history.recorder.recordIntent(accepted);
  await history.recorder.recordAccepted({ ...accepted, burnTxHash: BURN_TX });
  const finalized = buildHistoryPayment({ challengeNonce: `0x${"f1".repeat(32)}`, path: "self-transfer" });
  await history.recorder.recordIntent(finalized);
  await history.recorder.recordAccepted({ ...finalized, burnTxHash: `0x${"b1".repeat(32)}` });
  await history.recorder.recordFinalized({ challengeNonce: finalized.challengeNonce, mintTxHash: TEST_MINT_TX });
  await history.recorder.recordIntent(buildHistoryPayment({ challengeNonce: `0x${"a0".repeat(32)}` }));
  server = await startTestServer(buildAppDependencies({ history: history.service, listen: { trusted_proxies: ["127.0.0.1"] } }), { now: () => limiterMs });
  return server.url;
}

function post(url: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}

function get(url: string, path: string, token?: string, headers: Record<string, string> = {}) {
  return fetch(`${url}${path}`, { headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...headers } });
}

async function challengeFor(url: string, subject: HistorySubject, headers: Record<string, string> = {}) {
  const response = await post(url, "/history/auth/challenge", { subject }, headers);
  expect(response.status).toBe(200);
  return (await response.json()) as { message: string; nonce: string; expiresAt: number };
}

async function verifyLogin(url: string, message: string, signature: string) {
  const response = await post(url, "/history/auth/verify", { message, signature });
  return { status: response.status, body: (await response.json()) as { token?: string; expiresAt?: number; error?: string } };
}

describe("route registration", () => {
  it("serves no /history route without history, and settlement routes as before", async () => {
    server = await startTestServer(buildAppDependencies());
    for (const [method, path] of [
      ["POST", "/history/auth/challenge"],
      ["GET", "/history/payments"],
      ["POST", "/history/proofs/issue"],
    ] as const) {
      const response = await fetch(`${server.url}${path}`, { method });
      expect(response.status).toBe(404);
    }
    expect((await fetch(`${server.url}/supported`)).status).toBe(200);
  });

  it("serves history without the proof group when the proof configuration is absent", async () => {
    const url = await start({ proofs: false });
    const token = await loginAs(url, "payer", environment.wallets.payer);
    expect((await get(url, "/history/payments", token)).status).toBe(200);
    for (const path of ["/history/proofs/issue", "/history/proofs/verify", "/history/proofs/revoke"]) {
      expect((await post(url, path, {}, { authorization: `Bearer ${token}` })).status).toBe(404);
    }
  });
});

describe("wallet login", () => {
  it("issues the exact message and a token that reads the payer's payments", async () => {
    const url = await start();
    const challenge = await challengeFor(url, "payer");
    expect(challenge.message.split("\n")).toEqual([
      "svc-zerc20 payment history login",
      "Purpose: sign in to read payment history and manage payment proofs; this signature authorizes no payment",
      "Domain: facilitator.test",
      "Tenant ID: tenant-payer",
      "Actor ID: agent-1",
      "Subject: payer",
      `Nonce: ${challenge.nonce}`,
      `Expires At: ${new Date(challenge.expiresAt * 1000).toISOString().replace(".000Z", "Z")}`,
    ]);
    expect(challenge.expiresAt - Math.floor(Date.now() / 1000)).toBeGreaterThanOrEqual(299);
    const signature = await environment.wallets.payer.signMessage({ message: challenge.message });
    const login = await verifyLogin(url, challenge.message, signature);
    expect(login.status).toBe(200);
    expect(login.body.expiresAt! - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(3600);
    const payments = HistoryPaymentsResponseSchema.parse(await (await get(url, "/history/payments", login.body.token)).json());
    expect(payments.payments.map((payment) => payment.paymentId).sort()).toEqual([`0x${"a0".repeat(32)}`, PAYMENT_ID, `0x${"f1".repeat(32)}`].sort());
  });

  it("rejects a signature from another wallet, and keeps the challenge usable", async () => {
    const url = await start();
    const challenge = await challengeFor(url, "payer");
    const stranger = privateKeyToAccount(generatePrivateKey());
    expect(await verifyLogin(url, challenge.message, await stranger.signMessage({ message: challenge.message }))).toEqual({
      status: 401,
      body: { error: "signature is not from the wallet bound to subject payer" },
    });
    // The provider's wallet is a real participant, but not the payer's.
    expect((await verifyLogin(url, challenge.message, await environment.wallets.provider.signMessage({ message: challenge.message }))).status).toBe(401);
    // A failed signature did not consume the nonce: the real wallet still logs in.
    expect((await verifyLogin(url, challenge.message, await environment.wallets.payer.signMessage({ message: challenge.message }))).status).toBe(200);
  });

  it("rejects a message edited to another subject", async () => {
    const url = await start();
    const challenge = await challengeFor(url, "payer");
    const edited = challenge.message.replace("Subject: payer", "Subject: provider");
    const signature = await environment.wallets.provider.signMessage({ message: edited });
    expect(await verifyLogin(url, edited, signature)).toEqual({ status: 401, body: { error: "message differs from the issued challenge" } });
  });

  it("rejects an expired challenge", async () => {
    const url = await start();
    const challenge = await challengeFor(url, "payer");
    const signature = await environment.wallets.payer.signMessage({ message: challenge.message });
    wallClockOffsetMs = 300_000;
    expect(await verifyLogin(url, challenge.message, signature)).toEqual({ status: 401, body: { error: "login challenge expired" } });
  });

  it("rejects a replayed nonce", async () => {
    const url = await start();
    const challenge = await challengeFor(url, "payer");
    const signature = await environment.wallets.payer.signMessage({ message: challenge.message });
    expect((await verifyLogin(url, challenge.message, signature)).status).toBe(200);
    expect(await verifyLogin(url, challenge.message, signature)).toEqual({ status: 401, body: { error: "unknown or already used login challenge" } });
  });

  it("answers 400 for malformed bodies and 403 for a subject without a wallet", async () => {
    const url = await start({ env: { HISTORY_PROVIDER_ADDRESS: "" } });
    expect((await post(url, "/history/auth/challenge", { subject: "admin" })).status).toBe(400);
    expect((await post(url, "/history/auth/verify", { message: "hello", signature: `0x${"11".repeat(65)}` })).status).toBe(400);
    expect((await post(url, "/history/auth/verify", { message: "hello" })).status).toBe(400);
    const response = await post(url, "/history/auth/challenge", { subject: "provider" });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: "no wallet is bound to subject provider" });
  });

  it("expires the identity token", async () => {
    const url = await start();
    const token = await loginAs(url, "payer", environment.wallets.payer);
    expect((await get(url, "/history/payments", token)).status).toBe(200);
    wallClockOffsetMs = 901_000;
    const expired = await get(url, "/history/payments", token);
    expect(expired.status).toBe(401);
    expect(await expired.json()).toEqual({ error: "invalid or expired identity token" });
  });

  it("refuses a token lifetime above 3600 s at startup", async () => {
    await expect(start({ history: { tokenTtlSeconds: 3601 } })).rejects.toMatchObject({ name: "InvalidHistoryOptionError" });
  });

  it("limits challenge issuance to 10 and verification to 20 per minute per client IP and subject", async () => {
    const url = await start();
    for (let i = 0; i < 10; i++) expect((await post(url, "/history/auth/challenge", { subject: "payer" })).status).toBe(200);
    const limited = await post(url, "/history/auth/challenge", { subject: "payer" });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^[0-9]+$/);
    // Another subject, or another client behind the trusted proxy, has its own budget.
    expect((await post(url, "/history/auth/challenge", { subject: "provider" })).status).toBe(200);
    expect((await post(url, "/history/auth/challenge", { subject: "payer" }, { "x-forwarded-for": "203.0.113.7" })).status).toBe(200);
    limiterMs += 120_000;
    const challenge = await challengeFor(url, "payer");
    const bad = await environment.wallets.provider.signMessage({ message: challenge.message });
    for (let i = 0; i < 20; i++) expect((await verifyLogin(url, challenge.message, bad)).status).toBe(401);
    expect((await verifyLogin(url, challenge.message, bad)).status).toBe(429);
  });
});

describe("identity and projections", () => {
  it("never takes identity from x-history-* headers in wallet-token mode", async () => {
    const url = await start();
    const headers = { "x-history-tenant": TEST_BINDINGS.payer.tenantId, "x-history-actor": TEST_BINDINGS.payer.actorId, "x-history-subject": "payer" };
    expect((await get(url, "/history/payments", undefined, headers)).status).toBe(401);
    expect((await get(url, "/history/payments", "not-a-token", headers)).status).toBe(401);
  });

  it("trusts the headers only with the legacy resolver switched on in code, and still checks grant and binding", async () => {
    const url = await start({ history: { identitySource: "legacy-headers" } });
    const payer = await get(url, "/history/payments", undefined, { "x-history-tenant": "tenant-payer", "x-history-actor": "agent-1" });
    expect(payer.status).toBe(200);
    expect(((await payer.json()) as { payments: unknown[] }).payments).toHaveLength(3);
    const unrelated = await get(url, "/history/payments", undefined, {
      "x-history-tenant": "tenant-payer",
      "x-history-actor": "someone-else",
      "x-history-subject": "payer",
    });
    expect(((await unrelated.json()) as { payments: unknown[] }).payments).toEqual([]);
    const ungranted = await get(url, "/history/payments", undefined, {
      "x-history-tenant": "tenant-x",
      "x-history-actor": "agent-1",
      "x-history-subject": "payer",
    });
    expect(ungranted.status).toBe(403);
  });

  it("never shows the payer the recipient, treasury, burn address, mint or salt", async () => {
    const url = await start({ env: { HISTORY_PROVIDER_SETTLEMENT_EVIDENCE: "1" } });
    const token = await loginAs(url, "payer", environment.wallets.payer);
    const text = await (await get(url, "/history/payments", token)).text();
    for (const secret of [
      TEST_RECIPIENT,
      TEST_MINT_TX,
      "0x1111111111111111111111111111111111111111",
      "salt",
      "recipient",
      "mintTxHash",
      "settlementEvidence",
    ]) {
      expect(text.toLowerCase()).not.toContain(secret.toLowerCase());
    }
    const one = await (await get(url, `/history/payments/${`0x${"f1".repeat(32)}`}`, token)).json();
    expect(one).toEqual({
      paymentId: `0x${"f1".repeat(32)}`,
      state: "finalized",
      path: "self-transfer",
      network: "eip155:31337",
      asset: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      amount: "1000",
      payer: "0x2222222222222222222222222222222222222222",
      burnTxHash: `0x${"b1".repeat(32)}`,
      intentAt: expect.any(Number),
      acceptedAt: expect.any(Number),
      finalizedAt: expect.any(Number),
    });
  });

  it("adds provider settlement evidence only behind HISTORY_PROVIDER_SETTLEMENT_EVIDENCE", async () => {
    const url = await start({ env: { HISTORY_PROVIDER_SETTLEMENT_EVIDENCE: "1" } });
    const token = await loginAs(url, "provider", environment.wallets.provider);
    const one = (await (await get(url, `/history/payments/${`0x${"f1".repeat(32)}`}`, token)).json()) as Record<string, unknown>;
    expect(one.settlementEvidence).toEqual({ payTo: "0x1111111111111111111111111111111111111111", recipient: TEST_RECIPIENT, mintTxHash: TEST_MINT_TX });
  });

  it("shows the provider no settlement evidence by default", async () => {
    const url = await start();
    const token = await loginAs(url, "provider", environment.wallets.provider);
    const text = await (await get(url, "/history/payments", token)).text();
    expect(text).not.toContain("settlementEvidence");
    expect(text.toLowerCase()).not.toContain(TEST_RECIPIENT);
  });

  it("answers 404 for an unknown payment and 400 for a malformed id", async () => {
    const url = await start();
    const token = await loginAs(url, "payer", environment.wallets.payer);
    expect((await get(url, `/history/payments/0x${"99".repeat(32)}`, token)).status).toBe(404);
    expect((await get(url, "/history/payments/not-an-id", token)).status).toBe(400);
    expect((await get(url, `/history/payments/${PAYMENT_ID.toUpperCase().replace("0X", "0x")}`, token)).status).toBe(200);
  });
});

describe("proofs over HTTP", () => {
  it("issues a proof bound to the persisted record, verifies it online and offline, and lets only the issuer revoke it", async () => {
    const url = await start();
    const payerToken = await loginAs(url, "payer", environment.wallets.payer);
    const providerToken = await loginAs(url, "provider", environment.wallets.provider);
    const client = createHistoryClient({ facilitatorUrl: url });
    // A caller-supplied commitment is ignored.
    const raw = await post(
      url,
      "/history/proofs/issue",
      { paymentId: PAYMENT_ID, record_commitment: "00".repeat(32) },
      { authorization: `Bearer ${payerToken}` },
    );
    expect(raw.status).toBe(200);
    const issued = (await raw.json()) as Awaited<ReturnType<typeof client.issueProof>>;
    expect(issued.proof.payload.record_commitment.value).not.toBe("00".repeat(32));
    expect(issued.proof.payload).toMatchObject({
      requested_by: "payer",
      payment: { payment_id: PAYMENT_ID, state: "accepted", amount: "1000" },
      participants: { payer: { tenant_id: "tenant-payer", actor_id: "agent-1" }, provider: { tenant_id: "tenant-provider", actor_id: "shop-1" } },
    });
    expect(JSON.stringify(issued.proof).toLowerCase()).not.toContain(TEST_RECIPIENT);
    const offline = { proof: issued.proof, manifest: issued.manifest, trustAnchor: environment.keys?.trustAnchor, statusChain: issued.statusChain };
    expect(verifyPaymentProof(offline).result).toBe("VALID_NOW");
    expect(await client.verifyProof(payerToken, issued.proofId)).toMatchObject({ result: "VALID_NOW" });
    // The other party may verify but not revoke.
    expect(await client.verifyProof(providerToken, issued.proofId)).toMatchObject({ result: "VALID_NOW" });
    const refused = await post(url, "/history/proofs/revoke", { proofId: issued.proofId }, { authorization: `Bearer ${providerToken}` });
    expect(refused.status).toBe(403);
    const revoked = await client.revokeProof(payerToken, issued.proofId, "refunded");
    expect(revoked.status.payload).toMatchObject({ status: "revoked", sequence: 1, reason: "refunded" });
    expect(await client.revokeProof(payerToken, issued.proofId)).toEqual(revoked);
    expect(await client.verifyProof(payerToken, issued.proofId)).toMatchObject({ result: "REVOKED" });
    expect(verifyPaymentProof({ ...offline, statusChain: revoked.statusChain }).result).toBe("REVOKED");
    // The proof bytes the holder kept still verify as they were at issuance.
    expect(verifyPaymentProof({ ...offline, statusChain: undefined }).result).toBe("VALID_AT_ISSUANCE");
  });

  it("refuses a proof for an intent-only payment, an unknown payment, and an unrelated actor", async () => {
    const url = await start({ history: { identitySource: "legacy-headers" } });
    const as = (actor: string) => ({ "x-history-tenant": "tenant-payer", "x-history-actor": actor, "x-history-subject": "payer" });
    expect((await post(url, "/history/proofs/issue", { paymentId: `0x${"a0".repeat(32)}` }, as("agent-1"))).status).toBe(409);
    expect((await post(url, "/history/proofs/issue", { paymentId: `0x${"99".repeat(32)}` }, as("agent-1"))).status).toBe(404);
    expect((await post(url, "/history/proofs/issue", { paymentId: PAYMENT_ID }, as("intruder"))).status).toBe(404);
    const issued = (await (await post(url, "/history/proofs/issue", { paymentId: PAYMENT_ID }, as("agent-1"))).json()) as { proofId: string };
    expect((await post(url, "/history/proofs/verify", { proofId: issued.proofId }, as("intruder"))).status).toBe(404);
    expect((await post(url, "/history/proofs/revoke", { proofId: issued.proofId }, as("intruder"))).status).toBe(404);
  });
});
