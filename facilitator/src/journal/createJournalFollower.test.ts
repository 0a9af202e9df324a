/**
 * Two instances following one shared log, each folding into its own book: whatever either appends, both fold
 * every record once and in the log's order, including the release-then-new-intent order that folding at
 * append time gets wrong. The log here is in memory; that PostgreSQL's journal keeps one order across
 * instances is the storage contract's to check (storage/storageContract.test.ts).
 */
import { keccak256, toHex, type Address, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import { createJournalFollower, type FollowedLog } from "./createJournalFollower.js";
import type { IntentRecord, JournaledChallenge, JournalRecord } from "./journalRecord.js";

/** One append-only log shared by every follower, with the cursor semantics of the storage's `JournalPort`. */
function sharedLog(): FollowedLog<JournalRecord> & { records: JournalRecord[] } {
  const records: JournalRecord[] = [];
  return {
    records,
    append: async (record) => {
      // Durable a turn later, as a database append would be, so concurrent appends interleave.
      await Promise.resolve();
      records.push(record);
    },
    readSince: async (cursor = 0n) => {
      await Promise.resolve();
      return { records: records.slice(Number(cursor)), cursor: BigInt(records.length) };
    },
  };
}

/** A follower of `log` and the records it folded, in fold order. */
function follow(log: FollowedLog<JournalRecord>) {
  const folded: JournalRecord[] = [];
  return { folded, follower: createJournalFollower(log, (record) => folded.push(record)) };
}

const hash = (label: string): Hex => keccak256(toHex(label));
const address = (label: string): Address => `0x${hash(label).slice(26)}` as Address;
const kinds = (records: JournalRecord[]) => records.map((record) => (record.type === "intent" ? `intent:${record.payloadDigest}` : record.type));

function challenge(label: string): JournaledChallenge {
  return {
    challengeNonce: hash(label),
    protocol: "zerc20-v2" as const,
    network: "eip155:31337",
    chainId: 31337,
    asset: address("asset"),
    payTo: address(`payTo:${label}`),
    amount: "1000",
    fee: "10",
    payout: "990",
    issuedAt: 1_700_000_000,
    expiresAt: 1_700_000_300,
  };
}

const intent = (label: string, digest: string): IntentRecord => ({
  type: "intent",
  challenge: challenge(label),
  path: "permit",
  payloadDigest: hash(digest),
  authorizationId: hash(`auth:${digest}`),
  fromBlock: "7",
  at: 1_700_000_010,
});

const accepted = (label: string): JournalRecord => ({
  type: "accepted",
  challenge: challenge(label),
  path: "self-transfer",
  payloadDigest: hash(`digest:${label}`),
  burnTxHash: hash(`burn:${label}`),
  burnBlockNumber: "9",
  token: address("token"),
  verifier: address("verifier"),
  treasury: address("treasury"),
  at: 1_700_000_020,
});

describe("journal follower", () => {
  it("keeps both instances' books identical, each record folded once in journal order", async () => {
    const log = sharedLog();
    const a = follow(log);
    const b = follow(log);

    // Instance a releases an intent; instance b, having seen the release, writes a new one for the same payment.
    await a.follower.appendAndApply(intent("p1", "first payload"));
    await a.follower.appendAndApply({ type: "intent_released", challengeNonce: hash("p1"), reason: "relay dropped", at: 1_700_000_011 });
    await b.follower.appendAndApply(intent("p1", "second payload"));
    // b folded a's release before its own new intent, so its book holds the new intent, not none.
    expect(kinds(b.folded)).toEqual([`intent:${hash("first payload")}`, "intent_released", `intent:${hash("second payload")}`]);
    await Promise.all(["p2", "p3", "p4", "p5"].map((label, index) => (index % 2 === 0 ? a : b).follower.appendAndApply(accepted(label))));
    await a.follower.appendAndApply({
      type: "late_burn",
      challenge: challenge("p6"),
      path: "self-transfer",
      burnTxHash: hash("late"),
      value: "5",
      blockTimestamp: 1,
      at: 2,
    });

    expect(await a.follower.catchUp()).toBe(0);
    await b.follower.catchUp();
    expect(log.records).toHaveLength(8);
    expect(a.folded).toEqual(log.records);
    expect(b.folded).toEqual(log.records);
  });

  it("catch-ups called while one reads share the next read, which folds what was appended before each call", async () => {
    const log = sharedLog();
    await log.append(accepted("r1"));
    // The first read's rows are taken, then it is held until r2 is appended, so only a later read can fold r2.
    let reads = 0;
    let releaseFirst: () => void = () => undefined;
    const firstHeld = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    const port: FollowedLog<JournalRecord> = {
      append: log.append,
      readSince: async (cursor?: bigint) => {
        reads += 1;
        const read = await log.readSince(cursor);
        if (reads === 1) await firstHeld;
        return read;
      },
    };
    const { folded, follower } = follow(port);

    const first = follower.catchUp();
    // Let the first read take its rows before r2 exists.
    await new Promise((resolve) => setImmediate(resolve));
    await log.append(accepted("r2"));
    const later = Array.from({ length: 50 }, () => follower.catchUp());
    releaseFirst();
    expect(await first).toBe(1);
    expect(await Promise.all(later)).toEqual(Array.from({ length: 50 }, () => 1));
    expect(reads).toBe(2);
    expect(folded.map((record) => (record.type === "accepted" ? record.challenge.challengeNonce : record.type))).toEqual([hash("r1"), hash("r2")]);
  });

  it("a new instance replays the whole journal in the same order", async () => {
    const log = sharedLog();
    const a = follow(log);
    for (const label of ["q1", "q2"]) await a.follower.appendAndApply(accepted(label));
    await a.follower.appendAndApply({ type: "finalized", challengeNonce: hash("q1"), mintTxHash: hash("mint"), at: 1_700_000_030 });
    const late = follow(log);
    expect(await late.follower.catchUp()).toBe(3);
    expect(late.folded).toEqual(a.folded);
  });
});
