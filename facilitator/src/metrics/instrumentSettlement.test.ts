/**
 * The finalize wrapper counts a failed entry under its reason code as the label, unchanged, and a thrown
 * attempt under the error's name; a waiting entry counts nothing.
 */
import { describe, expect, it } from "vitest";

import type { FinalizeOutcome } from "../finalize/finalizeEntry.js";
import { fromJournaledChallenge } from "../journal/journaledChallenge.js";
import { FINALIZE_FAILED_REASON, FINALIZE_WAITING_REASON } from "../finalize/finalizeReasons.js";
import { BACKLOG_STATES, type SettlementBacklog } from "../operator/settlementBacklog.js";
import type { SettlementEntry } from "../settlement/settlementBook.js";
import { createFacilitatorMetrics } from "./createFacilitatorMetrics.js";
import { instrumentFinalize } from "./instrumentSettlement.js";

const entry: SettlementEntry = {
  type: "accepted",
  challenge: fromJournaledChallenge({
    challengeNonce: `0x${"11".repeat(32)}`,
    protocol: "zerc20-v2" as const,
    network: "eip155:31337",
    chainId: 31337,
    asset: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
    payTo: `0x${"22".repeat(20)}`,
    amount: "1010",
    fee: "10",
    payout: "1000",
    issuedAt: 1,
    expiresAt: 301,
  }),
  path: "self-transfer",
  payloadDigest: `0x${"33".repeat(32)}`,
  burnTxHash: `0x${"44".repeat(32)}`,
  burnBlockNumber: "5",
  token: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
  verifier: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
  treasury: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
  at: 2,
  state: "accepted",
};

function metricsUnderTest() {
  return createFacilitatorMetrics({
    poolStats: () => undefined,
    poseidon: { implementation: "native", path: "portable" },
    backlog: () => Object.fromEntries(BACKLOG_STATES.map((state) => [state, { count: 0, oldestAgeSeconds: null }])) as SettlementBacklog,
    openChallenges: () => 0,
    relayerQueueDepth: () => 0,
    rpcEndpoints: () => [],
    gasBalances: () => Promise.resolve({ relayer: 0n, treasury: 0n }),
  });
}

async function counts(metrics: ReturnType<typeof createFacilitatorMetrics>, name: string): Promise<Record<string, number>> {
  const metric = metrics.registry.getSingleMetric(name);
  if (metric === undefined) throw new TypeError(`metric ${name} is not registered`);
  const { values } = await metric.get();
  return Object.fromEntries(values.map((value) => [Object.values(value.labels).join(","), value.value]));
}

describe("instrumentFinalize", () => {
  it("labels failed entries with their reason code and counts nothing for a waiting one", async () => {
    const metrics = metricsUnderTest();
    const outcomes: FinalizeOutcome[] = [
      { kind: "failed", reason: FINALIZE_FAILED_REASON.evidenceVanished, detail: "the burn transaction is no longer on-chain" },
      { kind: "failed", reason: FINALIZE_FAILED_REASON.evidenceVanished, detail: "the burn no longer transfers the amount" },
      { kind: "failed", reason: FINALIZE_FAILED_REASON.burnAddressMismatch },
      { kind: "waiting", reason: FINALIZE_WAITING_REASON.rootNotProved },
    ];
    const finalize = instrumentFinalize(metrics, () => Promise.resolve(outcomes.shift()!));
    for (let pass = 0; pass < 4; pass++) await finalize(entry, { releasedAlone: true });
    expect(await counts(metrics, "facilitator_finalize_failures_total")).toEqual({ evidence_vanished: 2, burn_address_mismatch: 1 });
  });

  it("counts a payment released alone once its mint lands, not while it waits nor when it was released with a crowd", async () => {
    const metrics = metricsUnderTest();
    const outcomes: FinalizeOutcome[] = [
      { kind: "waiting", reason: FINALIZE_WAITING_REASON.rootNotProved },
      { kind: "finalized", mintTxHash: `0x${"55".repeat(32)}`, minted: 1010n },
      { kind: "finalized", mintTxHash: `0x${"66".repeat(32)}`, minted: 1010n },
    ];
    const finalize = instrumentFinalize(metrics, () => Promise.resolve(outcomes.shift()!));
    await finalize(entry, { releasedAlone: true });
    expect(metrics.releasedAloneTotal()).toBe(0);
    await finalize(entry, { releasedAlone: true });
    await finalize(entry, { releasedAlone: false });
    expect(metrics.releasedAloneTotal()).toBe(1);
    expect((await metrics.registry.getSingleMetric("facilitator_finalize_released_alone_total")?.get())?.values[0]?.value).toBe(1);
  });

  it("counts a thrown attempt by error name and rethrows it", async () => {
    const metrics = metricsUnderTest();
    const finalize = instrumentFinalize(metrics, () => Promise.reject(new RangeError("indexer down")));
    await expect(finalize(entry, { releasedAlone: false })).rejects.toThrow("indexer down");
    expect(await counts(metrics, "facilitator_finalize_pass_errors_total")).toEqual({ RangeError: 1 });
    expect(await counts(metrics, "facilitator_finalize_failures_total")).toEqual({});
  });
});
