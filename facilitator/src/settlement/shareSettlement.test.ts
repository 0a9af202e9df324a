/**
 * The start-up sweep under settle claims: an open permit intent is taken over (relay adopted, burn looked up)
 * only by the instance that claims it, and the claim is completed or released when the sweep is done with it.
 * Two storages stand for two instances' views of one claim table; the settlement core is replaced by a
 * recorder, since what is under test is which intents reach it.
 */
import type { Hex } from "viem";
import { describe, expect, it } from "vitest";
import { ChallengeStore } from "../challenges/challengeStore.js";
import { JournalRecordSchema } from "../journal/journalRecord.js";
import { openEmbeddedStorage } from "../storage/openEmbeddedStorage.js";
import type { SettlementCore } from "./createSettlementService.js";
import { testJournaledChallenge, testNonce } from "../testing/journalRecords.js";
import { SettlementBook } from "./settlementBook.js";
import { shareSettlement } from "./shareSettlement.js";

const nonce = testNonce;

function intent(n: number) {
  return JournalRecordSchema.parse({
    type: "intent",
    challenge: testJournaledChallenge(n),
    path: "permit",
    payloadDigest: nonce(n + 100),
    authorizationId: nonce(n + 200),
    fromBlock: "1",
    at: 10,
  });
}

async function sweepWith(options: { heldElsewhere: number[]; accepts: number[] }) {
  const storage = await openEmbeddedStorage({ journalPath: null, challenges: { maxOpenChallenges: 10, retentionSeconds: 60 } });
  const book = new SettlementBook();
  for (const n of [1, 2, 3]) book.apply(intent(n));
  for (const n of options.heldElsewhere) expect(await storage.settleClaims.claim(nonce(n), "other-instance", 60_000)).toBe(true);
  const adopted: Hex[] = [];
  const reconciled: Hex[] = [];
  const core: SettlementCore = {
    verify: async () => ({ isValid: true }),
    settle: async () => ({ success: true, transaction: "", network: "eip155:31337" }),
    inflight: () => [],
    adoptRelay: (challengeNonce) => adopted.push(challengeNonce),
    reconcileIntent: async (challengeNonce) => {
      reconciled.push(challengeNonce);
      return options.accepts.some((n) => nonce(n) === challengeNonce);
    },
  };
  const settlement = shareSettlement({
    settlement: core,
    catchUp: async () => 0,
    issued: storage.challenges,
    store: new ChallengeStore({ maxOpenChallenges: 10, retentionSeconds: 60 }),
    book,
    claims: storage.settleClaims,
    owner: "this-instance",
    claimLeaseMs: 60_000,
    network: "eip155:31337",
  });
  return { storage, settlement, adopted, reconciled };
}

describe("shareSettlement's start-up sweep", () => {
  it("takes over only the intents it can claim, and leaves one held by another instance's settle alone", async () => {
    const { storage, settlement, adopted, reconciled } = await sweepWith({ heldElsewhere: [2], accepts: [1] });
    expect(await settlement.resume()).toEqual({ claimed: 2, left: 1 });
    expect(adopted).toEqual([nonce(1), nonce(3)]);
    expect(await settlement.reconcileIntents()).toBe(1);
    expect(reconciled).toEqual([nonce(1), nonce(3)]);
    // The accepted one's claim is complete for good; the one still open is free for the payer's re-send.
    expect(await storage.settleClaims.claim(nonce(1), "other-instance", 60_000)).toBe(false);
    expect(await storage.settleClaims.claim(nonce(3), "other-instance", 60_000)).toBe(true);
    // A second sweep has nothing left of the first.
    expect(await settlement.reconcileIntents()).toBe(0);
    await storage.close();
  });

  it("skips an intent whose claim another instance took between resume and the sweep", async () => {
    const { storage, settlement, reconciled } = await sweepWith({ heldElsewhere: [], accepts: [1, 2, 3] });
    expect(await settlement.resume()).toEqual({ claimed: 3, left: 0 });
    // This instance's lease on 2 lapses (released here, as a crash would let it run out) and another claims it.
    await storage.settleClaims.release(nonce(2), "this-instance");
    expect(await storage.settleClaims.claim(nonce(2), "other-instance", 60_000)).toBe(true);
    expect(await settlement.reconcileIntents()).toBe(2);
    expect(reconciled).toEqual([nonce(1), nonce(3)]);
    await storage.close();
  });
});
