/**
 * One contract, two adapters: every storage port behaves the same embedded and on PostgreSQL. Each case gets
 * two handles that share state ("instance a" and "instance b"): two pools on one database for PostgreSQL,
 * the one process-wide store for the embedded adapter, whose callers all live in one process.
 */
import type { JournalCompactionOptions } from "../journal/openSettlementJournal.js";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPostgres, type RunningPostgres } from "@svc/anvil-fixtures/postgres";
import { waitFor } from "@svc/anvil-fixtures";
import { openTestPool } from "../testing/openTestPool.js";
import { keccak256, toHex, type Address, type Hex } from "viem";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { HistoryRecord } from "../history/record/historyRecord.js";
import type { PaymentHistory } from "../history/record/openPaymentHistory.js";
import type { ChallengeRecord } from "../challenges/challengeRecord.js";
import { buildChallengeRecord } from "../challenges/testing/buildChallengeRecord.js";
import { toJournaledChallenge } from "../journal/journaledChallenge.js";
import type { JournaledChallenge, JournalRecord } from "../journal/journalRecord.js";
import { openEmbeddedStorage } from "./openEmbeddedStorage.js";
import { openPostgresStorage } from "./openPostgresStorage.js";
import { migratePostgres } from "./postgresMigrations.js";
import type { FacilitatorStorage } from "./storagePorts.js";

type Pair = {
  a: FacilitatorStorage;
  b: FacilitatorStorage;
  reopen: () => Promise<FacilitatorStorage>;
  /** Everything the adapter wrote for challenges and the journal, as stored text. */
  written: () => Promise<string>;
};

let server: RunningPostgres;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  server = await startPostgres();
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(async () => {
  await server?.stop();
});

async function embeddedPair(compaction?: JournalCompactionOptions): Promise<Pair> {
  const dir = await mkdtemp(join(tmpdir(), "svc-storage-"));
  const journalPath = join(dir, "journal.jsonl");
  const challenges = { maxOpenChallenges: 1_000, retentionSeconds: 3_600 };
  const storage = await openEmbeddedStorage({ journalPath, challenges, compaction });
  let closed = false;
  cleanups.push(async () => {
    if (!closed) await storage.close();
    await rm(dir, { recursive: true, force: true });
  });
  return {
    a: storage,
    b: storage,
    reopen: async () => {
      closed = true;
      await storage.close();
      const reopened = await openEmbeddedStorage({ journalPath, challenges, compaction });
      cleanups.push(() => reopened.close());
      return reopened;
    },
    written: () => readFile(journalPath, "utf8"),
  };
}

async function postgresPair(compaction?: JournalCompactionOptions): Promise<Pair> {
  const url = await server.createDatabase();
  const pool = openTestPool(url);
  await migratePostgres(pool);
  await pool.end();
  const open = async () => {
    const storage = await openPostgresStorage({ url, compaction });
    cleanups.push(() => storage.close());
    return storage;
  };
  const written = async () => {
    const reader = openTestPool(url);
    try {
      const { rows } = await reader.query<{ text: string }>("select record::text as text from challenges union all select record::text from journal_records");
      return rows.map((row) => row.text).join("\n");
    } finally {
      await reader.end();
    }
  };
  return { a: await open(), b: await open(), reopen: open, written };
}

const nonceOf = (label: string): Hex => keccak256(toHex(label));
const addressOf = (label: string): Address => `0x${keccak256(toHex(label)).slice(26)}` as Address;

// Issued now: the embedded store keeps match data only while open or retained.
const issuedAt = Math.floor(Date.now() / 1000);

/** A challenge as the issuer puts it, burn secret included. */
function issued(label: string): ChallengeRecord {
  return buildChallengeRecord({
    challengeNonce: nonceOf(label),
    asset: addressOf("asset"),
    payTo: addressOf(`payTo:${label}`),
    issuedAt,
    expiresAt: issuedAt + 300,
  });
}

/** A challenge as the storage gives it back: everything but the burn secret. */
const stored = (label: string): ChallengeRecord => ({ ...issued(label), burn: undefined });

/** A challenge in its journal form, as journal records carry it. */
const challenge = (label: string): JournaledChallenge => toJournaledChallenge(issued(label));

describe.each([
  ["embedded", embeddedPair],
  ["postgres", postgresPair],
] as const)("storage contract: %s", (_kind, openPair) => {
  it("keeps the followed tree's state per binding across a reopen, and never takes it back to fewer leaves", async () => {
    const pair = await openPair();
    expect(await pair.a.witnessState.load("31337:0xtoken")).toBeUndefined();
    expect(await pair.a.witnessState.save("31337:0xtoken", 10n, "ten")).toBe(true);
    expect(await pair.b.witnessState.save("31337:0xtoken", 9n, "nine")).toBe(false);
    expect(await pair.b.witnessState.load("31337:0xtoken")).toBe("ten");
    expect(await pair.b.witnessState.save("31337:0xtoken", 12n, "twelve")).toBe(true);
    expect(await pair.a.witnessState.load("31337:0xother")).toBeUndefined();
    const reopened = await pair.reopen();
    expect(await reopened.witnessState.load("31337:0xtoken")).toBe("twelve");
  });

  it("compaction archives a closed payment past retention and an unpaid challenge, and keeps an open payment", async () => {
    const retentionSeconds = 60;
    const pastRetention = issuedAt + 300 + retentionSeconds + 1;
    const pair = await openPair({ retentionSeconds, now: () => pastRetention });
    const accepted = (label: string): JournalRecord => ({
      type: "accepted",
      challenge: challenge(label),
      path: "self-transfer",
      payloadDigest: nonceOf(`digest:${label}`),
      burnTxHash: nonceOf(`burn:${label}`),
      burnBlockNumber: "7",
      token: addressOf("token"),
      verifier: addressOf("verifier"),
      treasury: addressOf("treasury"),
      at: issuedAt,
    });
    for (const label of ["closed", "open", "unpaid"]) await pair.a.challenges.put(issued(label));
    await pair.a.journal.append(accepted("closed"));
    await pair.a.journal.append({ type: "finalized", challengeNonce: nonceOf("closed"), mintTxHash: nonceOf("mint:closed"), at: issuedAt });
    await pair.a.journal.append({ type: "fee_settled", challengeNonce: nonceOf("closed"), amount: "10", at: issuedAt });
    await pair.a.journal.append(accepted("open"));

    expect(await pair.b.journal.compact()).toBeGreaterThanOrEqual(3);
    const reopened = await pair.reopen();
    const kept = (await reopened.journal.readSince()).records;
    expect(kept.filter((record) => record.type !== "challenge")).toEqual([accepted("open")]);
    expect(await reopened.challenges.get(nonceOf("open"))).toEqual(stored("open"));
    expect(await reopened.challenges.get(nonceOf("closed"))).toBeUndefined();
    expect(await reopened.challenges.get(nonceOf("unpaid"))).toBeUndefined();
    // Nothing more is past retention.
    expect(await reopened.journal.compact()).toBe(0);
  });

  it("the first chain identity claimed is kept: a later claim of another chain gets the recorded one back, also after a reopen", async () => {
    const pair = await openPair();
    const first = { chainId: 31337, genesisHash: `0x${"1a".repeat(32)}` as Hex };
    const other = { chainId: 31337, genesisHash: `0x${"2b".repeat(32)}` as Hex };
    expect(await pair.a.chainIdentity.claim(first)).toEqual(first);
    expect(await pair.b.chainIdentity.claim(other)).toEqual(first);
    expect(await (await pair.reopen()).chainIdentity.claim(other)).toEqual(first);
  });

  it("a challenge put through one instance is found by nonce and by payTo through the other", async () => {
    const { a, b } = await openPair();
    await a.challenges.put(issued("one"));
    expect(await b.challenges.get(nonceOf("one"))).toEqual(stored("one"));
    expect(await b.challenges.findByPayTo(addressOf("payTo:one"))).toEqual(stored("one"));
    expect(await b.challenges.get(nonceOf("other"))).toBeUndefined();
    expect(await b.challenges.findByPayTo(addressOf("payTo:other"))).toBeUndefined();
  });

  it("a challenge is stored in its journal form: no part of its burn secret is written", async () => {
    const pair = await openPair();
    const record = issued("secret");
    const burn = record.burn!;
    await pair.a.challenges.put(record);
    const written = (await pair.written()).toLowerCase();
    expect(written).toContain(nonceOf("secret").slice(2));
    for (const part of [burn.paymentId.slice(2), burn.tweak.slice(2), burn.recipientHash.slice(2), burn.secret.toString(), burn.secret.toString(16)]) {
      expect(written).not.toContain(part.toLowerCase());
    }
    expect((await pair.b.challenges.get(nonceOf("secret")))?.burn).toBeUndefined();
  });

  it("journal records appended by both instances read back in one order, and from a cursor only the new ones", async () => {
    const { a, b } = await openPair();
    const released = (index: number): JournalRecord => ({
      type: "intent_released",
      challengeNonce: nonceOf(`r${index}`),
      reason: `reason ${index}`,
      at: 1_700_000_000 + index,
    });
    await Promise.all(Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? a : b).journal.append(released(index))));
    const fromA = await a.journal.readSince();
    const fromB = await b.journal.readSince();
    expect(fromB.records).toEqual(fromA.records);
    expect(new Set(fromA.records.map((record) => (record.type === "intent_released" ? record.reason : ""))).size).toBe(20);
    await b.journal.append(released(20));
    const next = await a.journal.readSince(fromA.cursor);
    expect(next.records).toEqual([released(20)]);
    expect((await a.journal.readSince(next.cursor)).records).toEqual([]);
  });

  it("journal records and challenges survive a reopen", async () => {
    const pair = await openPair();
    const record: JournalRecord = { type: "intent_released", challengeNonce: nonceOf("kept"), reason: "relay dropped", at: 1 };
    await pair.a.challenges.put(issued("kept"));
    await pair.a.journal.append(record);
    const reopened = await pair.reopen();
    expect(await reopened.challenges.get(nonceOf("kept"))).toEqual(stored("kept"));
    expect((await reopened.journal.readSince()).records).toContainEqual(record);
  });

  it("of many concurrent settle claims on one payment from two instances exactly one wins", async () => {
    const { a, b } = await openPair();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? a : b).settleClaims.claim(nonceOf("pay"), `owner-${index}`, 60_000)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = `owner-${results.indexOf(true)}`;
    expect(await b.settleClaims.claim(nonceOf("pay"), winner, 60_000)).toBe(true);
    expect(await a.settleClaims.complete(nonceOf("pay"), "someone-else")).toBe(false);
    expect(await a.settleClaims.complete(nonceOf("pay"), winner)).toBe(true);
    expect(await b.settleClaims.claim(nonceOf("pay"), winner, 60_000)).toBe(false);
  });

  it("a released claim is free again; an expired lease passes to another instance, a completed claim never", async () => {
    const { a, b } = await openPair();
    expect(await a.settleClaims.claim(nonceOf("x"), "a", 60_000)).toBe(true);
    expect(await b.settleClaims.claim(nonceOf("x"), "b", 60_000)).toBe(false);
    await a.settleClaims.release(nonceOf("x"), "a");
    expect(await b.settleClaims.claim(nonceOf("x"), "b", 60_000)).toBe(true);

    expect(await a.settleClaims.claim(nonceOf("y"), "a", 100)).toBe(true);
    await waitFor(() => b.settleClaims.claim(nonceOf("y"), "b", 60_000), { what: "the lease of a crashed owner to run out", timeoutMs: 5_000, intervalMs: 20 });
    expect(await a.settleClaims.complete(nonceOf("y"), "a")).toBe(false);

    expect(await a.settleClaims.claim(nonceOf("z"), "a", 100)).toBe(true);
    expect(await a.settleClaims.complete(nonceOf("z"), "a")).toBe(true);
    await b.settleClaims.release(nonceOf("z"), "a");
    expect(await b.settleClaims.claim(nonceOf("z"), "b", 60_000)).toBe(false);
  });

  it("the finalize queue leases each payment to one instance and returns a crashed owner's work after its lease", async () => {
    const { a, b } = await openPair();
    const nonces = Array.from({ length: 12 }, (_, index) => nonceOf(`f${index}`));
    for (const nonce of nonces) await a.finalizeQueue.enqueue(nonce);
    await b.finalizeQueue.enqueue(nonces[0]!);
    const [leasedA, leasedB] = await Promise.all([a.finalizeQueue.lease("a", 8, 60_000), b.finalizeQueue.lease("b", 8, 60_000)]);
    expect(new Set([...leasedA, ...leasedB]).size).toBe(leasedA.length + leasedB.length);
    expect(new Set([...leasedA, ...leasedB])).toEqual(new Set(nonces.map((nonce) => nonce.toLowerCase())));
    expect(await b.finalizeQueue.lease("b", 8, 60_000)).toEqual([]);
    for (const nonce of leasedB) expect(await a.finalizeQueue.complete(nonce, "a")).toBe(false);
    for (const nonce of leasedB) expect(await b.finalizeQueue.complete(nonce, "b")).toBe(true);

    const crashed = nonceOf("crashed");
    await a.finalizeQueue.enqueue(crashed);
    expect(await a.finalizeQueue.lease("a", 1, 100)).toEqual([crashed.toLowerCase()]);
    const retaken = await waitFor(
      async () => {
        const leased = await b.finalizeQueue.lease("b", 1, 60_000);
        return leased.length > 0 ? leased : undefined;
      },
      { what: "the crashed owner's lease to run out", timeoutMs: 5_000, intervalMs: 20 },
    );
    expect(retaken).toEqual([crashed.toLowerCase()]);
    expect(await a.finalizeQueue.complete(crashed, "a")).toBe(false);
    expect(await b.finalizeQueue.complete(crashed, "b")).toBe(true);
  });

  it("a released payment goes to the back of the queue, so a batch that waits does not hold back the ones behind it", async () => {
    const { a } = await openPair();
    const [first, second, third] = ["r0", "r1", "r2"].map((label) => nonceOf(label).toLowerCase() as Hex);
    for (const nonce of [first, second, third]) await a.finalizeQueue.enqueue(nonce!);
    expect(await a.finalizeQueue.lease("a", 2, 60_000)).toEqual([first, second]);
    await a.finalizeQueue.release(first!, "a");
    await a.finalizeQueue.release(second!, "a");
    expect(await a.finalizeQueue.lease("a", 3, 60_000)).toEqual([third, first, second]);
  });

  it("a released lease is free at once for any instance; only its owner releases it", async () => {
    const { a, b } = await openPair();
    const waiting = nonceOf("waiting");
    await a.finalizeQueue.enqueue(waiting);
    expect(await a.finalizeQueue.lease("a", 1, 60_000)).toEqual([waiting.toLowerCase()]);
    await b.finalizeQueue.release(waiting, "b");
    expect(await b.finalizeQueue.lease("b", 1, 60_000)).toEqual([]);
    await a.finalizeQueue.release(waiting, "a");
    expect(await b.finalizeQueue.lease("b", 1, 60_000)).toEqual([waiting.toLowerCase()]);
    expect(await a.finalizeQueue.complete(waiting, "a")).toBe(false);
    expect(await b.finalizeQueue.complete(waiting, "b")).toBe(true);
  });

  it("broadcasts of one key from two instances get distinct consecutive nonces; a failed one leaves no gap", async () => {
    const { a, b } = await openPair();
    const account = addressOf("relayer");
    const pending = 5;
    let running = 0;
    let overlapped = false;
    const broadcast = async (nonce: number) => {
      running += 1;
      if (running > 1) overlapped = true;
      await new Promise((resolve) => setImmediate(resolve));
      running -= 1;
      return nonce;
    };
    const nonces = await Promise.all(
      Array.from({ length: 30 }, (_, index) => (index % 2 === 0 ? a : b).relayNonces.withNextNonce(31337, account, async () => pending, broadcast)),
    );
    expect([...nonces].sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, index) => 5 + index));
    expect(overlapped).toBe(false);

    const refused = a.relayNonces.withNextNonce(
      31337,
      account,
      async () => pending,
      async () => {
        throw new Error("node refused the transaction");
      },
    );
    await expect(refused).rejects.toThrow("node refused");
    expect(
      await b.relayNonces.withNextNonce(
        31337,
        account,
        async () => pending,
        async (nonce) => nonce,
      ),
    ).toBe(35);
    expect(
      await b.relayNonces.withNextNonce(
        1,
        account,
        async () => 0,
        async (nonce) => nonce,
      ),
    ).toBe(0);
  });

  it("rate limits count requests from both instances against one limit", async () => {
    const { a, b } = await openPair();
    const decisions = await Promise.all(Array.from({ length: 12 }, (_, index) => (index % 2 === 0 ? a : b).rateLimits.take("payer-1", 5, 60_000)));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(5);
    for (const decision of decisions) if (!decision.allowed) expect(decision.retryAfterMs).toBeGreaterThan(0);
    expect((await b.rateLimits.take("payer-2", 5, 60_000)).allowed).toBe(true);
  });

  it("the burn-address stock restores what was added and not taken, and forgets it when the binding changes", async () => {
    const pair = await openPair();
    const binding = { protocol: "zerc20-v2" as const, chainId: 31337, treasury: addressOf("treasury"), seed: nonceOf("seed") };
    const stock = await pair.a.openBurnAddressStock(binding, "instance-a");
    expect(stock?.restored).toEqual([]);
    for (const index of [1, 2, 3]) await stock!.add({ paymentId: nonceOf(`p${index}`), nonce: BigInt(index) * 10n ** 18n });
    await stock!.take(nonceOf("p2"));
    await stock!.close();
    const reopened = await pair.reopen();
    const again = await reopened.openBurnAddressStock(binding, "instance-a");
    expect(new Set(again!.restored.map((entry) => `${entry.paymentId}:${entry.nonce}`))).toEqual(
      new Set([`${nonceOf("p1")}:${10n ** 18n}`, `${nonceOf("p3")}:${3n * 10n ** 18n}`]),
    );
    await again!.close();
    // Another protocol version derives other addresses from the same nonces: its stock starts empty.
    const otherVersion = await reopened.openBurnAddressStock({ ...binding, protocol: "zerc20-v1" }, "instance-a");
    expect(otherVersion!.restored).toEqual([]);
    await otherVersion!.close();
    const rebound = await reopened.openBurnAddressStock({ ...binding, seed: nonceOf("other seed") }, "instance-a");
    expect(rebound!.restored).toEqual([]);
    await rebound!.close();
  });
});

describe("relay nonces and the chain's pending count", () => {
  /** The chain's pending count as the port sees it, counting how often the port asks. */
  const readCounted = (pending: () => number) => {
    const counted = {
      reads: 0,
      read: async () => {
        counted.reads++;
        return pending();
      },
    };
    return counted;
  };
  const sendWith = (storage: FacilitatorStorage, read: () => Promise<number>, outcome: "broadcast" | "refused" = "broadcast") =>
    storage.relayNonces.withNextNonce(31337, addressOf("relayer"), read, async (nonce) => {
      if (outcome === "refused") throw new Error("node refused the transaction");
      return nonce;
    });

  it("embedded ends a turn when its broadcast says it was sent; failing later, it gives its nonce back only if no later one was sent", async () => {
    const { a } = await embeddedPair();
    const account = addressOf("pipelined-relayer");
    const pending = async () => 7;
    let refuseFirst = () => {};
    const firstAnswer = new Promise<void>((_resolve, reject) => {
      refuseFirst = () => reject(new Error("node refused the transaction"));
    });
    const first = a.relayNonces.withNextNonce(31337, account, pending, async (nonce, sent) => {
      sent();
      await firstAnswer;
      return nonce;
    });
    // The next turn runs, and ends, while the first broadcast still waits for the node's answer.
    expect(await a.relayNonces.withNextNonce(31337, account, pending, async (nonce) => nonce)).toBe(8);
    refuseFirst();
    await expect(first).rejects.toThrow("node refused");
    // Nonce 8 went out after 7: the counter stays past both (the key's monitor fills 7).
    expect(await a.relayNonces.withNextNonce(31337, account, pending, async (nonce) => nonce)).toBe(9);
    const refused = a.relayNonces.withNextNonce(31337, account, pending, async (_nonce, sent) => {
      sent();
      throw new Error("node refused the transaction");
    });
    await expect(refused).rejects.toThrow("node refused");
    // Nothing went out after 10: it is the next nonce again.
    expect(await a.relayNonces.withNextNonce(31337, account, pending, async (nonce) => nonce)).toBe(10);
  });

  it("postgres holds a turn until the node answered, sent or not: a refusal leaves no gap for the other instance", async () => {
    const { a, b } = await postgresPair();
    const account = addressOf("postgres-pipelined-relayer");
    const pending = async () => 7;
    let refuseFirst = () => {};
    let firstSent = () => {};
    const firstOnItsWay = new Promise<void>((resolve) => {
      firstSent = resolve;
    });
    const first = a.relayNonces.withNextNonce(31337, account, pending, async (_nonce, sent) => {
      sent();
      firstSent();
      await new Promise<void>((_resolve, reject) => {
        refuseFirst = () => reject(new Error("node refused the transaction"));
      });
    });
    await firstOnItsWay;
    const next = b.relayNonces.withNextNonce(31337, account, pending, async (nonce) => nonce);
    refuseFirst();
    await expect(first).rejects.toThrow("node refused");
    expect(await next).toBe(7);
  });

  it("postgres reads the pending count on every turn: a nonce another sender took is skipped", async () => {
    const { a } = await postgresPair();
    let pending = 5;
    const chain = readCounted(() => pending);
    expect(await sendWith(a, chain.read)).toBe(5);
    pending = 100;
    expect(await sendWith(a, chain.read)).toBe(100);
    expect(chain.reads).toBe(2);
  });

  it("embedded reads the pending count on a key's first use and after a failed broadcast, else counts on from the last success", async () => {
    const { a } = await embeddedPair();
    let pending = 5;
    const chain = readCounted(() => pending);
    expect(await Promise.all([sendWith(a, chain.read), sendWith(a, chain.read), sendWith(a, chain.read)])).toEqual([5, 6, 7]);
    expect(chain.reads).toBe(1);
    // The process alone sends with the key: a larger count now is not read while the next nonce is known.
    pending = 100;
    expect(await sendWith(a, chain.read)).toBe(8);
    expect(chain.reads).toBe(1);
    await expect(sendWith(a, chain.read, "refused")).rejects.toThrow("node refused");
    expect(await sendWith(a, chain.read)).toBe(100);
    expect(chain.reads).toBe(2);
    // Never below the one after the last success, whatever the node says after a failure.
    await expect(sendWith(a, chain.read, "refused")).rejects.toThrow("node refused");
    pending = 3;
    expect(await sendWith(a, chain.read)).toBe(101);
    expect(chain.reads).toBe(3);
  });
});

describe("postgres nonce locks and the pool", () => {
  // A broadcast journals its signed transaction while it holds the key's nonce lock (createKeySender's
  // beforeBroadcast hook). Holding a pooled connection for the lock while the append waits for another one
  // deadlocks the pool as soon as every connection waits on the lock: each case below failed that way.
  it.each([1, 10])(
    "100 concurrent journaling broadcasts from two instances at %i main-pool connections all complete, with consecutive nonces",
    async (maxConnections) => {
      const url = await server.createDatabase();
      const pool = openTestPool(url);
      await migratePostgres(pool);
      await pool.end();
      const [a, b] = await Promise.all([openPostgresStorage({ url, maxConnections }), openPostgresStorage({ url, maxConnections })]);
      cleanups.push(
        () => a.close(),
        () => b.close(),
      );
      const account = addressOf("relayer-under-load");
      const outcomes = await Promise.allSettled(
        Array.from({ length: 100 }, async (_, index) => {
          const instance = index % 2 === 0 ? a : b;
          // Other traffic of a settle runs beside the broadcasts and needs main-pool connections too.
          await instance.settleClaims.claim(nonceOf(`load-${index}`), `owner-${index % 2}`, 60_000);
          return instance.relayNonces.withNextNonce(
            31337,
            account,
            async () => 0,
            async (nonce) => {
              await instance.journal.append({
                type: "intent_released",
                challengeNonce: nonceOf(`load-${index}`),
                reason: "relay_failed",
                at: nonce,
              } as JournalRecord);
              return nonce;
            },
          );
        }),
      );
      const failures = outcomes.filter((outcome) => outcome.status === "rejected");
      expect(failures.map((failure) => String((failure as PromiseRejectedResult).reason))).toEqual([]);
      const nonces = outcomes.map((outcome) => (outcome as PromiseFulfilledResult<number>).value).sort((x, y) => x - y);
      expect(nonces).toEqual(Array.from({ length: 100 }, (_, index) => index));
      expect((await a.journal.readSince()).records.filter((record) => record.type === "intent_released")).toHaveLength(100);
    },
  );
});

describe("postgres journal archive", () => {
  it("keeps archived records for settlement.archive_retention_days by their time, then deletes them", async () => {
    const url = await server.createDatabase();
    const pool = openTestPool(url);
    cleanups.push(() => pool.end());
    await migratePostgres(pool);
    let now = issuedAt + 300 + 61;
    const storage = await openPostgresStorage({ url, compaction: { retentionSeconds: 60, now: () => now, archiveRetentionSeconds: 3_600 } });
    cleanups.push(() => storage.close());
    await storage.journal.append({ type: "challenge", challenge: challenge("gone"), at: issuedAt });
    await storage.journal.append({ type: "challenge", challenge: challenge("later"), at: issuedAt + 2_000 });
    const archivedAt = async () =>
      (await pool.query<{ at: string }>("select record->>'at' as at from journal_archive order by seq")).rows.map((row) => Number(row.at));
    // Offers never paid, past retention: both move to the archive.
    expect(await storage.journal.compact()).toBe(2);
    expect(await archivedAt()).toEqual([issuedAt, issuedAt + 2_000]);
    now = issuedAt + 3_600 + 1;
    await storage.journal.compact();
    expect(await archivedAt()).toEqual([issuedAt + 2_000]);
  });
});

describe("postgres stock ownership", () => {
  it("stock derived by one instance is never handed to another", async () => {
    const { a, b } = await postgresPair();
    const binding = { protocol: "zerc20-v2" as const, chainId: 31337, treasury: addressOf("treasury"), seed: nonceOf("seed") };
    const mine = await a.openBurnAddressStock(binding, "instance-a");
    await mine!.add({ paymentId: nonceOf("p1"), nonce: 1n });
    const theirs = await b.openBurnAddressStock(binding, "instance-b");
    expect(theirs!.restored).toEqual([]);
  });
});

describe("payment history through the storage", () => {
  const intent = (index: number): HistoryRecord => ({
    v: 1,
    type: "intent",
    paymentId: nonceOf(`h${index}`),
    at: 1_700_000_000 + index,
    path: "permit",
    network: "eip155:31337",
    asset: addressOf("asset"),
    payTo: addressOf(`payTo:h${index}`),
    amount: "1000",
    recipient: addressOf("treasury"),
    bindings: { payer: { tenantId: "tenant-payer", actorId: "agent-1" } },
    salt: nonceOf(`salt${index}`).slice(2),
  });
  const paymentIds = (history: PaymentHistory) => history.book.entries().map((entry) => entry.paymentId);

  /** A fresh `PAYMENT_HISTORY_PATH`, which only the embedded adapter uses. */
  async function historyPath(): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), "svc-history-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    return join(dir, "history.jsonl");
  }

  /** Opens `storage`'s history at `path` and waits for its fold, whichever way it runs. */
  async function openLoaded(storage: FacilitatorStorage, path: string, foregroundBytes = 8 * 1024 * 1024): Promise<PaymentHistory> {
    const { history } = await storage.history.open(path, { foregroundBytes });
    await history.loaded;
    return history;
  }

  it.each([
    ["embedded", embeddedPair],
    ["postgres", postgresPair],
  ] as const)("%s: what was appended is folded again after a reopen, in the order it was written", async (_kind, openPair) => {
    const pair = await openPair();
    const path = await historyPath();
    const first = await openLoaded(pair.a, path);
    for (const index of [3, 1, 2]) await first.append(intent(index));
    await first.close();
    const reopened = await openLoaded(await pair.reopen(), path);
    cleanups.push(reopened.close);
    expect(paymentIds(reopened)).toEqual([3, 1, 2].map((index) => nonceOf(`h${index}`)));
    expect(await reopened.loaded).toMatchObject({ records: 3 });
  });

  it("embedded: the history is the PAYMENT_HISTORY_PATH file, folded in the foreground up to foregroundBytes, larger once `after` resolves", async () => {
    const { a } = await embeddedPair();
    expect(a.history.kind).toBe("file");
    const path = await historyPath();
    const small = await a.history.open(path, { foregroundBytes: 0 });
    expect(small.foreground).toBe(true);
    await small.history.append(intent(1));
    await small.history.close();
    expect(await readFile(path, "utf8")).toContain(nonceOf("h1"));

    let start: () => void = () => undefined;
    const after = new Promise<void>((resolve) => {
      start = resolve;
    });
    const large = await a.history.open(path, { foregroundBytes: 1, after });
    cleanups.push(large.history.close);
    expect(large.foreground).toBe(false);
    const loaded = large.history.loaded.then(() => "loaded");
    expect(await Promise.race([loaded, new Promise((resolve) => setTimeout(() => resolve("waiting"), 50))])).toBe("waiting");
    start();
    expect(await loaded).toBe("loaded");
    expect(paymentIds(large.history)).toEqual([nonceOf("h1")]);
  });

  it("postgres: records appended through both instances are folded by both, in one order, always in the background and into no file", async () => {
    const pair = await postgresPair();
    expect(pair.a.history.kind).toBe("shared");
    const path = await historyPath();
    const opened = await pair.a.history.open(path, { foregroundBytes: Number.MAX_SAFE_INTEGER });
    expect(opened.foreground).toBe(false);
    const [a, b] = [opened.history, await openLoaded(pair.b, path)];
    await a.loaded;
    await Promise.all(Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? a : b).append(intent(index))));
    await a.catchUp();
    await b.catchUp();
    expect(new Set(paymentIds(a)).size).toBe(20);
    expect(paymentIds(b)).toEqual(paymentIds(a));
    await b.append(intent(20));
    await a.catchUp();
    expect(paymentIds(a).at(-1)).toBe(nonceOf("h20"));
    expect(paymentIds(await openLoaded(await pair.reopen(), path))).toEqual(paymentIds(a));
    await expect(readFile(path, "utf8")).rejects.toMatchObject({ code: "ENOENT" });
  });
});
