/**
 * Payment history end to end: a real daemon (in-process) on the real local stack, real settlements through
 * `/settle`, the finalize loop, wallet login over HTTP with the agent-facing client, and proofs exported to
 * disk and verified from the files alone.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { waitFor } from "@svc/anvil-fixtures";
import { createHistoryClient, type HistoryPaymentView } from "@svc/scheme";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { runVerifyProof } from "../commands/history/verifyProof.js";
import { openFoldedJsonlFile, type FoldedJsonlFile } from "../journal/jsonlFile.js";
import {
  balanceOf,
  broadcastBurn,
  facilitatorBody,
  postJson,
  requestOffer,
  signPermitPayment,
  startTestDaemon,
  startTestStack,
  type TestStack,
  waitForState,
} from "../testing/localFacilitator.js";
import { createHistoryTestEnvironment, type HistoryTestEnvironment, loginAs } from "./testing/historyTestEnvironment.js";

let stack: TestStack;
const environments: HistoryTestEnvironment[] = [];
const payerKey = () => stack.deployment.accounts.payer.privateKey;
const FAST = { daemon: { finalize_interval_ms: 1000 } };

beforeAll(async () => {
  stack = await startTestStack({ rootIntervalMs: 300 });
});

afterAll(async () => {
  await stack?.close();
  await Promise.all(environments.map((environment) => environment.close()));
});

async function historyEnvironment(options: Parameters<typeof createHistoryTestEnvironment>[0] = {}) {
  const environment = await createHistoryTestEnvironment(options);
  environments.push(environment);
  return environment;
}

async function historyLines(environment: HistoryTestEnvironment): Promise<{ type: string; paymentId: string }[]> {
  const text = await readFile(environment.files.history, "utf8").catch(() => "");
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as { type: string; paymentId: string });
}

describe("payment history with a real daemon", () => {
  it("records intent, accepted and finalized for both paths, and the payer reads them without settlement linkage", async () => {
    const environment = await historyEnvironment();
    const daemon = await startTestDaemon(stack, "history-lifecycle", FAST, { ...stack.env, ...environment.env });
    try {
      const permitOffer = await requestOffer(daemon, "2000");
      const permit = await postJson(`${daemon.url}/settle`, facilitatorBody(permitOffer, await signPermitPayment(stack, permitOffer, payerKey())));
      expect(permit.body).toMatchObject({ success: true, extra: { phase: "accepted" } });
      const selfOffer = await requestOffer(daemon, "3000");
      const burnTxHash = await broadcastBurn(stack, selfOffer, payerKey());
      const self = await postJson(`${daemon.url}/settle`, facilitatorBody(selfOffer, { challengeNonce: selfOffer.extra.challengeNonce, burnTxHash }));
      expect(self.body.success).toBe(true);

      const permitId = permitOffer.extra.challengeNonce.toLowerCase();
      const selfId = selfOffer.extra.challengeNonce.toLowerCase();
      await waitForState(stack, daemon, permitOffer.extra.challengeNonce, "finalized");
      await waitForState(stack, daemon, selfOffer.extra.challengeNonce, "finalized");
      const lines = await waitFor(
        async () => {
          const all = await historyLines(environment);
          return all.filter((line) => line.type === "finalized").length === 2 ? all : undefined;
        },
        { what: "two finalized history lines", intervalMs: 100 },
      );
      for (const id of [permitId, selfId]) {
        expect(lines.filter((line) => line.paymentId === id).map((line) => line.type)).toEqual(["intent", "accepted", "finalized"]);
      }

      const token = await loginAs(daemon.url, "payer", environment.wallets.payer);
      const client = createHistoryClient({ facilitatorUrl: daemon.url });
      const payments = await client.listPayments(token);
      const byId = new Map<string, HistoryPaymentView>(payments.map((payment) => [payment.paymentId, payment]));
      expect(byId.get(permitId)).toMatchObject({
        state: "finalized",
        path: "permit",
        amount: permitOffer.amount,
        burnTxHash: permit.body.transaction,
        payer: stack.deployment.accounts.payer.address,
      });
      expect(byId.get(selfId)).toMatchObject({ state: "finalized", path: "self-transfer", burnTxHash });
      const text = JSON.stringify(payments).toLowerCase();
      expect(text).not.toContain(stack.deployment.accounts.treasury.address.toLowerCase());
      expect(text).not.toContain(permitOffer.payTo.toLowerCase());

      // The payer proves the payment; the exported files verify offline with the published trust anchor.
      const issued = await client.issueProof(token, permitId);
      expect(issued.proof.payload.payment).toMatchObject({ payment_id: permitId, state: "finalized" });
      const folder = join(environment.files.artifacts, issued.proofId);
      const files = { proofPath: join(folder, "proof.json"), manifestPath: join(folder, "manifest.json"), trustAnchorPath: environment.files.trustAnchor };
      expect(await runVerifyProof({ ...files, statusChainPath: join(folder, "status-chain.jsonl") })).toMatchObject({ result: "VALID_NOW" });
      expect(await runVerifyProof(files)).toMatchObject({ result: "VALID_AT_ISSUANCE" });
      await client.revokeProof(token, issued.proofId);
      expect(await runVerifyProof({ ...files, statusChainPath: join(folder, "status-chain.jsonl") })).toMatchObject({ result: "REVOKED" });
      expect(JSON.parse(await readFile(files.proofPath, "utf8"))).toEqual(issued.proof);
    } finally {
      await daemon.stop();
    }
  });

  it("aborts a settle whose intent cannot be written: nothing burned, and the same payload succeeds once history is writable", async () => {
    const environment = await historyEnvironment({ proofs: false });
    const failing = { on: true };
    const openFile = async (path: string, fold: (value: unknown, lineNumber: number) => void): Promise<FoldedJsonlFile> => {
      const file = await openFoldedJsonlFile(path, fold);
      return { ...file, append: (value) => (failing.on ? Promise.reject(new Error("EIO: history disk failed")) : file.append(value)) };
    };
    const daemon = await startTestDaemon(stack, "history-intent-failure", {}, { ...stack.env, ...environment.env }, { history: { openFile } });
    try {
      const offer = await requestOffer(daemon, "1500");
      const body = facilitatorBody(offer, await signPermitPayment(stack, offer, payerKey()));
      expect((await postJson(`${daemon.url}/settle`, body)).body).toMatchObject({ success: false, errorReason: "intent_not_recorded" });
      expect(await balanceOf(stack, offer.payTo)).toBe(0n);
      expect(await historyLines(environment)).toEqual([]);
      expect(daemon.logs.some((line) => line.includes('"history_intent_failed"'))).toBe(true);

      // The claim was released: the identical payload is retried and accepted.
      failing.on = false;
      const retried = await postJson(`${daemon.url}/settle`, body);
      expect(retried.body).toMatchObject({ success: true, extra: { phase: "accepted" } });
      expect(await balanceOf(stack, offer.payTo)).toBe(BigInt(offer.amount));
      await waitFor(async () => ((await historyLines(environment)).some((line) => line.type === "accepted") ? true : undefined), {
        what: "an accepted history line",
        intervalMs: 100,
      });
      expect((await historyLines(environment)).map((line) => line.type)).toEqual(["intent", "accepted"]);

      // Self-transfer: the payer's burn is already on-chain, so the refusal only delays acceptance.
      failing.on = true;
      const selfOffer = await requestOffer(daemon, "1500");
      const burnTxHash = await broadcastBurn(stack, selfOffer, payerKey());
      const selfBody = facilitatorBody(selfOffer, { challengeNonce: selfOffer.extra.challengeNonce, burnTxHash });
      expect((await postJson(`${daemon.url}/settle`, selfBody)).body).toMatchObject({ success: false, errorReason: "intent_not_recorded" });
      failing.on = false;
      expect((await postJson(`${daemon.url}/settle`, selfBody)).body).toMatchObject({ success: true });
    } finally {
      await daemon.stop();
    }
  });

  it("with one history variable missing attaches nothing, registers no route, and settles as before", async () => {
    const environment = await historyEnvironment();
    const { HISTORY_PROVIDER_ACTOR: _dropped, ...incomplete } = environment.env;
    const daemon = await startTestDaemon(stack, "history-incomplete", {}, { ...stack.env, ...incomplete });
    try {
      expect((await postJson(`${daemon.url}/history/auth/challenge`, { subject: "payer" })).status).toBe(404);
      expect((await fetch(`${daemon.url}/history/payments`)).status).toBe(404);
      const offer = await requestOffer(daemon, "1000");
      const burnTxHash = await broadcastBurn(stack, offer, payerKey());
      expect((await postJson(`${daemon.url}/settle`, facilitatorBody(offer, { challengeNonce: offer.extra.challengeNonce, burnTxHash }))).body.success).toBe(
        true,
      );
      expect(await historyLines(environment)).toEqual([]);
      const disabled = daemon.logs.find((line) => line.includes('"history_disabled"'));
      expect(disabled).toContain("HISTORY_PROVIDER_ACTOR");
      expect(daemon.logs.join("\n")).not.toContain(environment.env.HISTORY_IDENTITY_SECRET);
    } finally {
      await daemon.stop();
    }
  });

  it("refuses to start with a partial proof configuration or an unwritable history path", async () => {
    const environment = await historyEnvironment();
    const { HISTORY_ARTIFACT_PATH: _dropped, ...partial } = environment.env;
    await expect(startTestDaemon(stack, "history-partial-proofs", {}, { ...stack.env, ...partial })).rejects.toMatchObject({
      name: "IncompleteProofConfigurationError",
      missing: ["HISTORY_ARTIFACT_PATH"],
    });
    const blocker = join(environment.dir, "not-a-folder");
    await writeFile(blocker, "");
    await expect(
      startTestDaemon(stack, "history-unwritable", {}, { ...stack.env, ...environment.env, PAYMENT_HISTORY_PATH: join(blocker, "history.jsonl") }),
    ).rejects.toMatchObject({ name: "PaymentHistoryFileError" });
  });
});
