/**
 * The finalize loop applies the finalize schedule, alone and from the shared PostgreSQL queue: nothing is
 * handed to the finalize step before it is due, due payments go in the keyed order, and a payment leased
 * while not due goes straight back to the queue. The finalize step here only records what it was given
 * (the mint itself is covered by finalize.test.ts and scheduledFinalize.test.ts); the queue is a real
 * PostgreSQL database.
 */
import { startPostgres, type RunningPostgres } from "@svc/anvil-fixtures/postgres";
import { keccak256, toHex, type Address, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { noHistory } from "../history/record/historyRecorder.js";
import type { JournalRecord } from "../journal/journalRecord.js";
import { createLogger } from "../log/createLogger.js";
import { SettlementBook } from "../settlement/settlementBook.js";
import { openEmbeddedStorage } from "../storage/openEmbeddedStorage.js";
import { openPostgresStorage } from "../storage/openPostgresStorage.js";
import { migratePostgres } from "../storage/postgresMigrations.js";
import type { FacilitatorStorage } from "../storage/storagePorts.js";
import { openTestPool } from "../testing/openTestPool.js";
import { createFinalizeLoop, SHARED_FINALIZE_BATCH, type FinalizePassReport, type SharedFinalizeQueue } from "./createFinalizeLoop.js";
import { deriveScheduleKey, dueAt, sortByMintOrder, type FinalizeSchedule } from "./finalizeSchedule.js";
import { ProverTimeoutError } from "./provers/errors.js";

const TOKEN: Address = "0x1111111111111111111111111111111111111111";
const deployment = { chainId: 31337, token: TOKEN, verifier: TOKEN, treasury: TOKEN };
const schedule: FinalizeSchedule = {
  policy: { min_delay_seconds: 10, max_delay_seconds: 100, min_anonymity_set: 1 },
  key: deriveScheduleKey(keccak256(toHex("loop test seed"))),
};
const ACCEPTED_AT = 1_000;

const nonce = (n: number): Hex => keccak256(toHex(`loop payment ${n}`));

function accepted(n: number): JournalRecord & { type: "accepted" } {
  return {
    type: "accepted",
    challenge: {
      challengeNonce: nonce(n),
      protocol: "zerc20-v2" as const,
      network: "eip155:31337",
      chainId: 31337,
      asset: TOKEN,
      payTo: `0x${(n + 1).toString(16).padStart(40, "0")}`,
      amount: "1010",
      fee: "10",
      payout: "1000",
      issuedAt: ACCEPTED_AT - 5,
      expiresAt: ACCEPTED_AT + 295,
    },
    path: "self-transfer",
    payloadDigest: nonce(n + 1000),
    burnTxHash: nonce(n + 2000),
    burnBlockNumber: "5",
    token: TOKEN,
    verifier: TOKEN,
    treasury: TOKEN,
    at: ACCEPTED_AT,
  };
}

/** The embedded storage's finalize queue: what a single instance finalizes from. */
async function embeddedQueue(): Promise<SharedFinalizeQueue> {
  const storage = await openEmbeddedStorage({ journalPath: null, challenges: { maxOpenChallenges: 10, retentionSeconds: 0 } });
  return { port: storage.finalizeQueue, owner: "loop-test/embedded", leaseMs: 60_000, catchUp: async () => undefined };
}

/** A loop over `count` accepted payments whose finalize step records the order it was called in. */
async function loopOver(count: number, given?: SharedFinalizeQueue, onPass?: (pass: FinalizePassReport) => void) {
  const queue = given ?? (await embeddedQueue());
  const book = new SettlementBook();
  const records = Array.from({ length: count }, (_, n) => accepted(n));
  for (const record of records) book.apply(record);
  const clock = { now: ACCEPTED_AT };
  const called: Hex[] = [];
  const loop = createFinalizeLoop({
    active: true,
    intervalMs: 600_000,
    deployment,
    book,
    journal: async (record) => book.apply(record),
    finalize: async (entry) => {
      called.push(entry.challenge.challengeNonce);
      return { kind: "finalized", mintTxHash: entry.burnTxHash, minted: 1n };
    },
    sweepFees: async () => [],
    history: noHistory,
    logger: createLogger({ write: () => undefined }),
    now: () => clock.now,
    schedule,
    queue,
    onPass,
  });
  const dueTimes = records.map((record) => dueAt(schedule, record));
  return { loop, clock, called, records, dueTimes };
}

describe("createFinalizeLoop with a schedule, one instance", () => {
  it("hands over nothing before it is due, then as many payments as are due, drawn from the mature ones, in the keyed order", async () => {
    const { loop, clock, called, records, dueTimes } = await loopOver(12);
    try {
      clock.now = Math.min(...dueTimes) - 1;
      await loop.runOnce();
      expect(called).toEqual([]);
      // Halfway through the window: as many payments as are due by then, each at least min_delay_seconds old, in the keyed order.
      clock.now = [...dueTimes].sort((a, b) => a - b)[5]!;
      await loop.runOnce();
      const dueNow = records.filter((_, index) => dueTimes[index]! <= clock.now);
      const handed = called.map((nonce) => records.find((record) => record.challenge.challengeNonce === nonce)!);
      expect(called).toHaveLength(dueNow.length);
      expect(handed.every((record) => record.at + schedule.policy.min_delay_seconds <= clock.now)).toBe(true);
      expect(called).toEqual(sortByMintOrder(schedule, handed).map((record) => record.challenge.challengeNonce));
      clock.now = ACCEPTED_AT + schedule.policy.max_delay_seconds;
      await loop.runOnce();
      expect(new Set(called)).toEqual(new Set(records.map((record) => record.challenge.challengeNonce)));
      expect(called).toHaveLength(records.length);
    } finally {
      await loop.stop();
    }
  });
});

describe("createFinalizeLoop with more payments than one batch", () => {
  it("passes again at once only after a full batch that finished payments; a full batch of payments not due waits the interval", async () => {
    const passes: FinalizePassReport[] = [];
    const { loop, clock, called, dueTimes } = await loopOver(SHARED_FINALIZE_BATCH + 8, undefined, (pass) => void passes.push(pass));
    try {
      // None due: the whole batch goes back unchanged, and leasing it again at once would only spin.
      clock.now = Math.min(...dueTimes) - 1;
      await loop.runOnce();
      expect(called).toEqual([]);
      expect(passes).toEqual([{ decoysShort: 0, nextPassInMs: 600_000 }]);
      // All due: the first batch is minted, and the rest follows at once, not an interval later.
      clock.now = ACCEPTED_AT + schedule.policy.max_delay_seconds;
      await loop.runOnce();
      expect(called).toHaveLength(SHARED_FINALIZE_BATCH);
      expect(passes.at(-1)).toEqual({ decoysShort: 0, nextPassInMs: 0 });
      const deadline = Date.now() + 10_000;
      while (called.length < SHARED_FINALIZE_BATCH + 8 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(called).toHaveLength(SHARED_FINALIZE_BATCH + 8);
    } finally {
      await loop.stop();
    }
  });
});

describe("createFinalizeLoop with k = 3", () => {
  it("mints a lone payment at max_delay_seconds, tells the finalize step it is released alone, and logs released_alone", async () => {
    const lonely: FinalizeSchedule = { ...schedule, policy: { ...schedule.policy, min_anonymity_set: 3 } };
    const book = new SettlementBook();
    book.apply(accepted(0));
    const lines: string[] = [];
    const given: { nonce: Hex; releasedAlone: boolean }[] = [];
    const clock = { now: ACCEPTED_AT + lonely.policy.max_delay_seconds - 1 };
    const loop = createFinalizeLoop({
      active: true,
      intervalMs: 600_000,
      deployment,
      book,
      journal: async (record) => book.apply(record),
      finalize: async (entry, release) => {
        given.push({ nonce: entry.challenge.challengeNonce, releasedAlone: release.releasedAlone });
        return { kind: "finalized", mintTxHash: entry.burnTxHash, minted: 1n };
      },
      sweepFees: async () => [],
      history: noHistory,
      logger: createLogger({ write: (line) => void lines.push(line) }),
      now: () => clock.now,
      schedule: lonely,
      queue: await embeddedQueue(),
    });
    try {
      await loop.runOnce();
      expect(given).toEqual([]);
      clock.now += 1;
      await loop.runOnce();
      expect(given).toEqual([{ nonce: nonce(0), releasedAlone: true }]);
      const finalized = lines.map((line) => JSON.parse(line) as { event: string; released_alone?: boolean }).find((line) => line.event === "payment_finalized");
      expect(finalized?.released_alone).toBe(true);
    } finally {
      await loop.stop();
    }
  });
});

describe("createFinalizeLoop when the prover fails", () => {
  it("logs the failed pass with the error's name and the prover's reason code, and retries at the next pass", async () => {
    const book = new SettlementBook();
    book.apply(accepted(0));
    const lines: string[] = [];
    let proverDown = true;
    const loop = createFinalizeLoop({
      active: true,
      intervalMs: 600_000,
      deployment,
      book,
      journal: async (record) => book.apply(record),
      finalize: async (entry) => {
        if (proverDown) throw new ProverTimeoutError({ adapter: "command", circuit: "single", timeoutMs: 1000 });
        return { kind: "finalized", mintTxHash: entry.burnTxHash, minted: 1n };
      },
      sweepFees: async () => [],
      history: noHistory,
      logger: createLogger({ write: (line) => lines.push(line) }),
      now: () => ACCEPTED_AT,
      queue: await embeddedQueue(),
    });
    try {
      await loop.runOnce();
      const failed = lines.map((line) => JSON.parse(line)).find((event) => event.event === "finalize_pass_failed");
      expect(failed).toMatchObject({ level: "warn", error: "ProverTimeoutError", reason: "prover_timeout", failures: 1 });
      // The failed pass handed its lease back: the very next pass mints, no lease time later.
      proverDown = false;
      await loop.runOnce();
      expect(book.entry(accepted(0).challenge.challengeNonce)?.state).toBe("finalized");
    } finally {
      await loop.stop();
    }
  });
});

describe("createFinalizeLoop after a /proofs request", () => {
  it("logs decoys_short per short leaf without naming it, reports the count after the pass, and spreads the mints at the lead's offsets", async () => {
    const book = new SettlementBook();
    for (const n of [0, 1, 2]) book.apply(accepted(n));
    const lines: string[] = [];
    const passes: FinalizePassReport[] = [];
    const leads: number[] = [];
    let requested = true;
    const loop = createFinalizeLoop({
      active: true,
      intervalMs: 600_000,
      deployment,
      book,
      journal: async (record) => book.apply(record),
      finalize: async (entry) => ({ kind: "waiting", reason: "root_not_proved", detail: entry.challenge.challengeNonce }),
      sweepFees: async () => [],
      history: noHistory,
      logger: createLogger({ write: (line) => void lines.push(line) }),
      now: () => ACCEPTED_AT,
      queue: await embeddedQueue(),
      prefetch: async () => ({
        requested,
        decoysShort: requested
          ? [
              { wanted: 3, found: 1 },
              { wanted: 3, found: 0 },
            ]
          : [],
      }),
      lead: (mints) => {
        leads.push(mints);
        return Array.from({ length: mints }, () => 0);
      },
      onPass: (pass) => void passes.push(pass),
    });
    try {
      await loop.runOnce();
      const short = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.event === "decoys_short");
      expect(short.map(({ wanted, found }) => ({ wanted, found }))).toEqual([
        { wanted: 3, found: 1 },
        { wanted: 3, found: 0 },
      ]);
      for (const line of short) expect(Object.keys(line).sort()).toEqual(["event", "found", "level", "ts", "wanted"]);
      expect(leads).toEqual([3]);
      expect(passes).toEqual([{ decoysShort: 2, nextPassInMs: 600_000 }]);
      // A pass that sent no request neither waits for a lead nor reports a shortfall.
      requested = false;
      await loop.runOnce();
      expect(leads).toEqual([3]);
      expect(passes).toEqual([
        { decoysShort: 2, nextPassInMs: 600_000 },
        { decoysShort: 0, nextPassInMs: 600_000 },
      ]);
    } finally {
      await loop.stop();
    }
  });
});

describe("createFinalizeLoop with a schedule, from the shared queue", () => {
  let server: RunningPostgres;
  let storage: FacilitatorStorage;

  beforeAll(async () => {
    server = await startPostgres();
    const url = await server.createDatabase();
    const pool = openTestPool(url);
    await migratePostgres(pool);
    await pool.end();
    storage = await openPostgresStorage({ url });
  }, 60_000);

  afterAll(async () => {
    await storage?.close();
    await server?.stop();
  });

  it("releases a leased payment that is not due at once, and mints the due ones in the keyed order", async () => {
    const queue: SharedFinalizeQueue = { port: storage.finalizeQueue, owner: "loop-test/1", leaseMs: 60_000, catchUp: async () => undefined };
    const { loop, clock, called, records, dueTimes } = await loopOver(6, queue);
    try {
      clock.now = Math.min(...dueTimes) - 1;
      await loop.runOnce();
      expect(called).toEqual([]);
      // Not held: another instance can lease every one of them right away.
      const other = await storage.finalizeQueue.lease("loop-test/2", 32, 60_000);
      expect(new Set(other)).toEqual(new Set(records.map((record) => record.challenge.challengeNonce.toLowerCase())));
      for (const challengeNonce of other) await storage.finalizeQueue.release(challengeNonce, "loop-test/2");

      clock.now = ACCEPTED_AT + schedule.policy.max_delay_seconds;
      await loop.runOnce();
      expect(called).toEqual(sortByMintOrder(schedule, records).map((record) => record.challenge.challengeNonce));
    } finally {
      await loop.stop();
    }
  });
});
