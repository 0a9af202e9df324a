import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { JournaledChallenge, JournalRecord } from "./journalRecord.js";
import { openSettlementJournal } from "./openSettlementJournal.js";
import { planCompaction } from "./planCompaction.js";

const RETENTION = 100;
const nonce = (n: number) => `0x${n.toString(16).padStart(64, "0")}` as const;
const hash = (n: number) => `0x${(n + 0xabc).toString(16).padStart(64, "0")}` as const;

function challenge(n: number, expiresAt: number): JournaledChallenge {
  return {
    challengeNonce: nonce(n),
    protocol: "zerc20-v2" as const,
    network: "eip155:31337",
    chainId: 31337,
    asset: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
    payTo: `0x${n.toString(16).padStart(40, "0")}`,
    amount: "1010",
    fee: "10",
    payout: "1000",
    issuedAt: expiresAt - 300,
    expiresAt,
  };
}

const issued = (n: number, expiresAt: number): JournalRecord => ({ type: "challenge", challenge: challenge(n, expiresAt), at: expiresAt - 300 });
const accepted = (n: number, expiresAt: number): JournalRecord => ({
  type: "accepted",
  challenge: challenge(n, expiresAt),
  path: "self-transfer",
  payloadDigest: hash(n),
  burnTxHash: hash(n),
  burnBlockNumber: "5",
  token: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
  verifier: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
  treasury: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
  at: expiresAt - 200,
});
const finalized = (n: number): JournalRecord => ({ type: "finalized", challengeNonce: nonce(n), mintTxHash: hash(n + 1), at: 1 });
const feeSettled = (n: number): JournalRecord => ({ type: "fee_settled", challengeNonce: nonce(n), amount: "10", at: 1 });
const intent = (n: number, expiresAt: number): JournalRecord => ({
  type: "intent",
  challenge: challenge(n, expiresAt),
  path: "permit",
  payloadDigest: hash(n),
  fromBlock: "1",
  at: 1,
});

describe("planCompaction", () => {
  const now = 10_000;
  const old = now - RETENTION - 1;
  const recent = now - RETENTION + 1;

  it("archives closed payments past retention and keeps everything that can still happen or be asked", () => {
    const records: JournalRecord[] = [
      issued(1, old), // never paid, past retention: goes
      issued(2, recent), // never paid, within retention: a late burn must still be recognised
      issued(3, old),
      accepted(3, old),
      finalized(3),
      feeSettled(3), // closed and past retention: goes
      accepted(4, old),
      finalized(4), // fee not settled yet: stays
      accepted(5, old), // still to finalize: stays
      intent(6, old), // an open permit intent may still burn: stays
      intent(7, old),
      { type: "intent_released", challengeNonce: nonce(7), reason: "relay_failed", at: 1 }, // released: goes
      accepted(8, old),
      { type: "failed", challengeNonce: nonce(8), reason: "evidence gone", at: 1 }, // failed: goes
      { type: "late_burn", challenge: challenge(9, old), path: "self-transfer", burnTxHash: hash(9), value: "1", blockTimestamp: old + 5, at: 1 }, // kept for the operator
    ];
    const { keep, drop } = planCompaction(records, now, { retentionSeconds: RETENTION });
    const nonces = (list: JournalRecord[]) => [
      ...new Set(list.map((record) => ("challenge" in record ? (record.challenge as JournaledChallenge).challengeNonce : record.challengeNonce))),
    ];
    expect(nonces(drop)).toEqual([nonce(1), nonce(3), nonce(7), nonce(8)]);
    expect(nonces(keep)).toEqual([nonce(2), nonce(4), nonce(5), nonce(6), nonce(9)]);
    expect(keep.length + drop.length).toBe(records.length);
  });
});

describe("planCompaction of late burns", () => {
  const now = 10_000_000;
  const lateBurn = (n: number, at: number): JournalRecord => ({
    type: "late_burn",
    challenge: challenge(n, 1_000),
    path: "self-transfer",
    burnTxHash: hash(n),
    value: "1",
    blockTimestamp: 1_005,
    at,
  });
  const LATE_BURN_RETENTION = 90 * 86_400;

  it("keeps a late burn for its retention after it was recorded, then archives it with its challenge", () => {
    const recorded = [issued(1, 1_000), lateBurn(1, now - LATE_BURN_RETENTION + 1), issued(2, 1_000), lateBurn(2, now - LATE_BURN_RETENTION - 1)];
    const { keep, drop } = planCompaction(recorded, now, { retentionSeconds: RETENTION, lateBurnRetentionSeconds: LATE_BURN_RETENTION });
    expect(keep).toEqual(recorded.slice(0, 2));
    expect(drop).toEqual(recorded.slice(2));
  });

  it("counts from the latest late burn of a payment, and keeps late burns for good without a retention", () => {
    const twice = [issued(3, 1_000), lateBurn(3, now - LATE_BURN_RETENTION - 1), lateBurn(3, now - 10)];
    expect(planCompaction(twice, now, { retentionSeconds: RETENTION, lateBurnRetentionSeconds: LATE_BURN_RETENTION }).drop).toEqual([]);
    expect(planCompaction([issued(4, 1_000), lateBurn(4, 1)], now, { retentionSeconds: RETENTION }).drop).toEqual([]);
  });
});

describe("journal compaction", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "journal-compaction-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("archives an aggregated fee sweep only with the last payment it covers", () => {
    const sweep = (...ns: number[]): JournalRecord => ({
      type: "fee_sweep_batch",
      challengeNonces: ns.map(nonce),
      txHash: hash(900),
      rawTransaction: "0x02f8",
      amount: "20",
      at: 1,
    });
    const now = 10_000;
    const old = now - RETENTION - 1;
    const recent = now - RETENTION + 1;
    const closed = (n: number, expiresAt: number) => [accepted(n, expiresAt), finalized(n), feeSettled(n)];
    const both = [...closed(1, old), ...closed(2, old), sweep(1, 2)];
    expect(planCompaction(both, now, { retentionSeconds: RETENTION }).keep).toEqual([]);
    const oneRecent = [...closed(1, old), ...closed(2, recent), sweep(1, 2)];
    expect(planCompaction(oneRecent, now, { retentionSeconds: RETENTION }).keep).toEqual([...closed(2, recent), sweep(1, 2)]);
    const oneOwing = [...closed(1, old), accepted(3, old), finalized(3), sweep(1, 3)];
    expect(planCompaction(oneOwing, now, { retentionSeconds: RETENTION }).keep).toEqual([accepted(3, old), finalized(3), sweep(1, 3)]);
  });

  it("moves closed records to the archive, keeps the rest, and the reopened journal restores exactly the rest", async () => {
    const path = join(dir, "journal.jsonl");
    let now = 1_000;
    const journal = await openSettlementJournal(path, { retentionSeconds: RETENTION, now: () => now });
    for (const record of [issued(1, 900), accepted(1, 900), finalized(1), feeSettled(1), issued(2, 1_500), accepted(2, 1_500)]) await journal.append(record);
    expect(await journal.compact()).toBe(0);
    now = 1_500;
    expect(await journal.compact()).toBe(4);
    await journal.append(finalized(2));
    await journal.close();

    const archive = (await readFile(`${path}.archive`, "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as JournalRecord);
    expect(archive.map((record) => record.type)).toEqual(["challenge", "accepted", "finalized", "fee_settled"]);
    const reopened = await openSettlementJournal(path, { retentionSeconds: RETENTION, now: () => now });
    expect(reopened.restored.map((record) => record.type)).toEqual(["challenge", "accepted", "finalized"]);
    await reopened.close();
  });

  it("trims the archive to settlement.archive_retention_days by each record's time, also when nothing new is archived", async () => {
    const path = join(dir, "journal.jsonl");
    const readArchive = async () =>
      (await readFile(`${path}.archive`, "utf8"))
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as JournalRecord);
    let now = 1_500;
    // Payment 1's records are stamped 600 and 700, payment 2's 1_700 and 1_800 (expiry 900 and 2_000).
    const journal = await openSettlementJournal(path, { retentionSeconds: RETENTION, now: () => now, archiveRetentionSeconds: 1_000 });
    for (const record of [issued(1, 900), issued(2, 2_000)]) await journal.append(record);
    expect(await journal.compact()).toBe(1);
    expect((await readArchive()).map((record) => record.at)).toEqual([600]);
    now = 2_200;
    expect(await journal.compact()).toBe(1);
    // 600 is older than 2_200 - 1_000: it left the archive; 1_700 stays.
    expect((await readArchive()).map((record) => record.at)).toEqual([1_700]);
    now = 2_800;
    expect(await journal.compact()).toBe(0);
    expect(await readFile(`${path}.archive`, "utf8")).toBe("");
    await journal.close();
  });

  it("compacts by itself every `compactEvery` appends, and appends queued around it all survive", async () => {
    const path = join(dir, "journal.jsonl");
    const journal = await openSettlementJournal(path, { retentionSeconds: 0, now: () => 10_000, compactEvery: 3 });
    await Promise.all([issued(1, 1), issued(2, 1), issued(3, 20_000), issued(4, 20_000), issued(5, 20_000)].map((record) => journal.append(record)));
    await journal.close();
    const reopened = await openSettlementJournal(path);
    expect(reopened.restored.map((record) => (record.type === "challenge" ? record.challenge.challengeNonce : ""))).toEqual([nonce(3), nonce(4), nonce(5)]);
    await reopened.close();
  });
});
