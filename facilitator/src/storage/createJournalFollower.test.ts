/**
 * Two instances on one PostgreSQL journal, each with its own settlement book: whatever either appends, both
 * books end the same, including the release-then-new-intent order that folding at append time gets wrong.
 */
import { startPostgres, type RunningPostgres } from "@svc/anvil-fixtures/postgres";
import { openTestPool } from "../testing/openTestPool.js";
import { keccak256, toHex, type Address, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IntentRecord, JournaledChallenge, JournalRecord } from "../journal/journalRecord.js";
import { SettlementBook } from "../settlement/settlementBook.js";
import { createJournalFollower } from "./createJournalFollower.js";
import { openPostgresStorage } from "./openPostgresStorage.js";
import { migratePostgres } from "./postgresMigrations.js";
import type { FacilitatorStorage } from "./storagePorts.js";

let server: RunningPostgres;
const opened: FacilitatorStorage[] = [];

beforeAll(async () => {
  server = await startPostgres();
});

afterAll(async () => {
  for (const storage of opened) await storage.close();
  await server?.stop();
});

async function twoInstances(): Promise<[FacilitatorStorage, FacilitatorStorage]> {
  const url = await server.createDatabase();
  const pool = openTestPool(url);
  await migratePostgres(pool);
  await pool.end();
  const pair: [FacilitatorStorage, FacilitatorStorage] = [await openPostgresStorage({ url }), await openPostgresStorage({ url })];
  opened.push(...pair);
  return pair;
}

const hash = (label: string): Hex => keccak256(toHex(label));
const address = (label: string): Address => `0x${hash(label).slice(26)}` as Address;

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
    const [a, b] = await twoInstances();
    const bookA = new SettlementBook();
    const bookB = new SettlementBook();
    const followA = createJournalFollower(a.journal, (record) => bookA.apply(record));
    const followB = createJournalFollower(b.journal, (record) => bookB.apply(record));

    // Instance a releases an intent; instance b, having seen the release, writes a new one for the same payment.
    await followA.appendAndApply(intent("p1", "first payload"));
    await followA.appendAndApply({ type: "intent_released", challengeNonce: hash("p1"), reason: "relay dropped", at: 1_700_000_011 });
    await followB.appendAndApply(intent("p1", "second payload"));
    await Promise.all(["p2", "p3", "p4", "p5"].map((label, index) => (index % 2 === 0 ? followA : followB).appendAndApply(accepted(label))));
    await followA.appendAndApply({
      type: "late_burn",
      challenge: challenge("p6"),
      path: "self-transfer",
      burnTxHash: hash("late"),
      value: "5",
      blockTimestamp: 1,
      at: 2,
    });

    expect(await followA.catchUp()).toBe(0);
    await followB.catchUp();
    expect(bookA.intent(hash("p1"))?.payloadDigest).toBe(hash("second payload"));
    expect(bookB.intent(hash("p1"))?.payloadDigest).toBe(hash("second payload"));
    expect(
      bookA
        .list("accepted")
        .map((entry) => entry.challenge.challengeNonce)
        .sort(),
    ).toEqual(["p2", "p3", "p4", "p5"].map(hash).sort());
    expect(bookB.list()).toEqual(bookA.list());
    expect(bookA.lateBurns).toHaveLength(1);
    expect(bookB.lateBurns).toEqual(bookA.lateBurns);
    expect(bookB.burnTxOwner(hash("burn:p3"))).toBe(hash("p3"));
  });

  it("catch-ups called while one reads share the next read, which folds what was appended before each call", async () => {
    const [a, b] = await twoInstances();
    await b.journal.append(accepted("r1"));
    // The first read's rows are taken, then it is held until r2 is appended, so only a later read can fold r2.
    let reads = 0;
    let releaseFirst: () => void = () => undefined;
    const firstHeld = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    const port = {
      append: a.journal.append,
      readSince: async (cursor?: bigint) => {
        reads += 1;
        const read = await a.journal.readSince(cursor);
        if (reads === 1) await firstHeld;
        return read;
      },
    };
    const folded: JournalRecord[] = [];
    const follower = createJournalFollower(port, (record) => folded.push(record));

    const first = follower.catchUp();
    await b.journal.append(accepted("r2"));
    const later = Array.from({ length: 50 }, () => follower.catchUp());
    releaseFirst();
    expect(await first).toBe(1);
    expect(await Promise.all(later)).toEqual(Array.from({ length: 50 }, () => 1));
    expect(reads).toBe(2);
    expect(folded.map((record) => (record.type === "accepted" ? record.challenge.challengeNonce : record.type))).toEqual([hash("r1"), hash("r2")]);
  });

  it("a new instance replays the whole journal into the same book", async () => {
    const [a, b] = await twoInstances();
    const bookA = new SettlementBook();
    const followA = createJournalFollower(a.journal, (record) => bookA.apply(record));
    for (const label of ["q1", "q2"]) await followA.appendAndApply(accepted(label));
    await followA.appendAndApply({ type: "finalized", challengeNonce: hash("q1"), mintTxHash: hash("mint"), at: 1_700_000_030 });
    const late = new SettlementBook();
    expect(await createJournalFollower(b.journal, (record) => late.apply(record)).catchUp()).toBe(3);
    expect(late.entry(hash("q1"))?.state).toBe("finalized");
    expect(late.list()).toEqual(bookA.list());
  });
});
