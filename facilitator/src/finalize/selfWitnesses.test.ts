/**
 * `[finalize] witnesses` on a real daemon and stack, with a recording proxy in front of the indexer: under
 * `self` (the default) a paid request is minted while the indexer hears nothing of it (no `/proofs`, no burn
 * address, no leaf of ours), the follower's state is saved beside the journal and a restart resumes from it;
 * under `indexer` the same payment's leaf reaches the indexer's `/proofs`, so the proxy does see what it records.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { waitFor } from "@svc/anvil-fixtures";
import { type PaymentRequirements, zerc20TokenAbi } from "@svc/scheme";
import { parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePrometheusText, sampleValue } from "../testing/parsePrometheusText.js";
import { type RecordingHttpProxy, startRecordingHttpProxy } from "../testing/recordingHttpProxy.js";
import {
  broadcastBurn,
  facilitatorBody,
  postJson,
  requestOffer,
  startTestDaemon,
  startTestStack,
  type TestDaemon,
  type TestStack,
  waitForState,
} from "../testing/localFacilitator.js";

let stack: TestStack;
let indexer: RecordingHttpProxy;

beforeAll(async () => {
  stack = await startTestStack({ rootIntervalMs: 300 });
  indexer = await startRecordingHttpProxy(stack.deployment.indexerUrl);
});

afterAll(async () => {
  await indexer?.close();
  await stack?.close();
});

/** Pays `amount` with a self-transfer burn; the offer and the burn's leaf index. */
async function pay(daemon: TestDaemon, amount: string): Promise<{ requirements: PaymentRequirements; leaf: bigint }> {
  const requirements = await requestOffer(daemon, amount);
  const burnTxHash = await broadcastBurn(stack, requirements, stack.deployment.accounts.payer.privateKey);
  const settled = await postJson(`${daemon.url}/settle`, facilitatorBody(requirements, { challengeNonce: requirements.extra.challengeNonce, burnTxHash }));
  expect(settled.body.success).toBe(true);
  const receipt = await stack.client.getTransactionReceipt({ hash: burnTxHash });
  const [transfer] = parseEventLogs({ abi: zerc20TokenAbi, eventName: "IndexedTransfer", logs: receipt.logs, strict: true });
  return { requirements, leaf: transfer!.args.index };
}

async function metrics(daemon: TestDaemon) {
  const response = await fetch(`${daemon.url}/metrics`, { headers: { authorization: `Bearer ${stack.env.SVC_ADMIN_TOKEN}` } });
  return parsePrometheusText(await response.text());
}

const proofRequests = (since: number) => indexer.requests.slice(since).filter((request) => request.path.split("?")[0] === "/proofs");

describe('[finalize] witnesses = "self"', () => {
  it("mints with the followed tree: no indexer request names our leaf or burn address, and a restart resumes from the saved state", async () => {
    const since = indexer.requests.length;
    const daemon = await startTestDaemon(stack, "self-witnesses", { daemon: { finalize_interval_ms: 1000 }, network: { indexer_url: indexer.url } });
    let leaves: number | undefined;
    try {
      const { requirements, leaf } = await pay(daemon, "2500");
      await waitForState(stack, daemon, requirements.extra.challengeNonce, "finalized", 30_000);

      const told = indexer.requests.slice(since);
      expect(proofRequests(since)).toEqual([]);
      const burnAddress = requirements.payTo.toLowerCase().slice(2);
      expect(told.filter((request) => `${request.path} ${request.body}`.toLowerCase().includes(burnAddress))).toEqual([]);
      expect(told.filter((request) => request.body.includes(String(leaf)))).toEqual([]);

      const samples = await metrics(daemon);
      leaves = sampleValue(samples, "facilitator_witness_leaves");
      expect(leaves).toBeGreaterThan(Number(leaf));
      expect(sampleValue(samples, "facilitator_witness_last_checked_index")).toBe(leaves);
      // The minted payment's path is released once its mint is final (a pass after the chain moved on).
      await stack.client.request({ method: "anvil_mine" as never, params: ["0x4"] as never });
      await waitFor(async () => sampleValue(await metrics(daemon), "facilitator_witness_tracked_paths") === 0, {
        what: "the minted payment's path released",
        timeoutMs: 10_000,
      });
    } finally {
      await daemon.stop();
    }

    const saved = JSON.parse(await readFile(join(stack.dir, "self-witnesses.journal.jsonl.witnesses"), "utf8")) as { leaves: string };
    expect(BigInt(saved.leaves)).toBeGreaterThanOrEqual(BigInt(leaves ?? 0));

    const again = await startTestDaemon(stack, "self-witnesses", { daemon: { finalize_interval_ms: 1000 }, network: { indexer_url: indexer.url } });
    try {
      const opened = await waitFor(async () => again.logs.find((line) => line.includes('"witness_follower_opened"')), {
        what: "the follower opened",
        timeoutMs: 10_000,
      });
      expect(JSON.parse(opened)).toMatchObject({ restored: true, leaves: saved.leaves });
    } finally {
      await again.stop();
    }
  });
});

describe('[finalize] witnesses = "indexer"', () => {
  it("asks the indexer's /proofs for the burn's leaf (mixed with decoys)", async () => {
    const since = indexer.requests.length;
    const daemon = await startTestDaemon(stack, "indexer-witnesses", {
      daemon: { finalize_interval_ms: 1000 },
      network: { indexer_url: indexer.url },
      finalize: { witnesses: "indexer" },
    });
    try {
      const { requirements, leaf } = await pay(daemon, "2600");
      await waitForState(stack, daemon, requirements.extra.challengeNonce, "finalized", 30_000);
      const asked = proofRequests(since).flatMap((request) => (JSON.parse(request.body) as { leaf_indices: number[] }).leaf_indices);
      expect(asked).toContain(Number(leaf));
    } finally {
      await daemon.stop();
    }
  });
});
