import { readdirSync } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { addressToRecipient, BN254_FIELD_MODULUS, generalRecipientHash, openBurnAddress, poseidonChoice, zerc20Protocol } from "@svc/scheme";
import { getAddress, hexToBigInt, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { deriveBurnSeed } from "./burnSeed.js";
import { derivePaymentSecretBase, derivePaymentTweak } from "./paymentSecrets.js";
import { TEST_TREASURY_PK } from "../config/testing/buildConfig.js";
import { BurnAddressPoolClosedError, BurnAddressUnavailableError, InvalidChallengeOptionError } from "./errors.js";
import { BurnAddressPool } from "./burnAddressPool.js";
import { BurnAddressStockFile } from "../storage/burnAddressStockFile.js";
import type { BurnAddressStockStore } from "./burnAddressStock.js";
import { burnSecretInputs } from "./burnSecretInputs.js";
import type { BurnSecret } from "./challengeRecord.js";
import { reopenBurnSecret } from "./reopenBurnSecret.js";

const seed = deriveBurnSeed(TEST_TREASURY_PK);
const chainId = 31337;
// v1: a quarter of the test time of v2 for the same pool behaviour; v2 derivation is proven in the worker and scheme tests.
const protocol = "zerc20-v1" as const;
const treasury = getAddress("0x9999999999999999999999999999999999999999");

function osThreads(): number {
  return readdirSync("/proc/self/task").length;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable("the promise resolved"),
    (error: unknown) => error,
  );
}

describe("a filled pool", () => {
  let pool: BurnAddressPool;
  const taken: BurnSecret[] = [];
  let turnsWhileDeriving = 0;
  let threadsBefore = 0;
  let threadsWhileRunning = 0;

  beforeAll(async () => {
    // Warm up the libuv threadpool first so the thread counts below see only the pool's own threads.
    await readFile(import.meta.filename);
    threadsBefore = osThreads();
    // A callback on this thread, again every millisecond or so (a timer, not a busy loop that would take a core
    // from the worker), counting the turns that find a derivation in flight.
    let watching = true;
    const watch = () => {
      if (!watching) return;
      if (pool !== undefined && pool.stats().deriving > 0) turnsWhileDeriving++;
      setTimeout(watch, 1);
    };
    try {
      pool = new BurnAddressPool({ protocol, chainId, treasury, seed, size: 1, workers: 1 });
      threadsWhileRunning = osThreads();
      // From the next turn on: a derivation started in the constructor is still in flight right now, whatever runs it.
      setTimeout(watch, 1);
      // The first take waits for the first derivation, the second for the refill behind it.
      taken.push(await pool.take(), await pool.take());
    } finally {
      watching = false;
    }
  });

  afterAll(async () => {
    await pool.close();
  });

  it("keeps the event loop turning while workers derive", () => {
    // Callbacks on this thread ran while a derivation was in flight: the search is not on the main thread, where
    // a derivation runs to its end (and its count back to 0) before any callback could see it. How fast the loop
    // turns under load is a speed figure, measured by `make bench` (`/challenge` latency while workers refill).
    expect(turnsWhileDeriving).toBeGreaterThan(0);
  });

  it("hands out burn secrets that meet the scheme's proof of work and commit to the treasury", () => {
    for (const burn of taken) {
      expect(openBurnAddress(zerc20Protocol(protocol), hexToBigInt(burn.recipientHash), burn.secret)).toBe(burn.burnAddress);
      expect(burn.tweak).toBe(derivePaymentTweak(seed, burn.paymentId));
      const recipient = addressToRecipient(treasury);
      expect(burn.recipientHash).toBe(generalRecipientHash({ chainId: BigInt(chainId), recipient, tweak: burn.tweak }));
      // The secret is the seed's base plus a small nonce, so it can be re-derived from the payment id.
      const base = derivePaymentSecretBase(seed, burn.paymentId);
      const nonce = (burn.secret - base + BN254_FIELD_MODULUS) % BN254_FIELD_MODULUS;
      expect(nonce).toBeLessThan(1n << 20n);
      expect(burn.paymentId).toMatch(/^0x[0-9a-f]{64}$/);
    }
  });

  it("never hands out the same payTo or payment id twice", () => {
    expect(new Set(taken.map((burn) => burn.burnAddress)).size).toBe(taken.length);
    expect(new Set(taken.map((burn) => burn.paymentId)).size).toBe(taken.length);
  });

  it("re-derives a pool entry from its payment id alone", () => {
    const [first] = taken;
    if (first === undefined) return expect.unreachable("nothing taken");
    expect(reopenBurnSecret(seed, { protocol, chainId, treasury }, first.paymentId)).toEqual(first);
  });

  it("refills to its size in the background and reports it", async () => {
    await expect.poll(() => pool.stats().stocked, { timeout: 20_000, interval: 50 }).toBe(1);
    const stats = pool.stats();
    expect(stats).toMatchObject({ deriving: 0, waiting: 0, workers: 1, stopped: false });
    expect(stats.derived).toBe(3);
    expect(stats.meanDerivationMs).toBeGreaterThan(0);
  });

  it("leaves no worker thread running after close, and refuses further takes", async () => {
    expect(threadsWhileRunning).toBeGreaterThan(threadsBefore);
    await pool.close();
    expect(pool.stats()).toMatchObject({ workers: 0, stocked: 0, stopped: true });
    await expect.poll(osThreads, { timeout: 2_000, interval: 20 }).toBe(threadsBefore);
    const error = await rejection(pool.take());
    expect(error).toBeInstanceOf(BurnAddressUnavailableError);
    expect((error as BurnAddressUnavailableError).cause).toBeInstanceOf(BurnAddressPoolClosedError);
  });
});

describe("an empty pool", () => {
  it("answers BurnAddressUnavailableError when no address is derived within the take timeout", async () => {
    const pool = new BurnAddressPool({ protocol, chainId, treasury, seed, size: 0, workers: 1, takeTimeoutMs: 20 });
    try {
      await expect(pool.take()).rejects.toThrowErrorMatchingInlineSnapshot(
        `[BurnAddressUnavailableError: no burn address is available right now; retry shortly]`,
      );
      expect(pool.stats().waiting).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it("rejects waiting takes when closed", async () => {
    const pool = new BurnAddressPool({ protocol, chainId, treasury, seed, size: 0, workers: 1 });
    const waiting = rejection(pool.take());
    await pool.close();
    const error = await waiting;
    expect(error).toBeInstanceOf(BurnAddressUnavailableError);
    expect((error as BurnAddressUnavailableError).cause).toBeInstanceOf(BurnAddressPoolClosedError);
  });
});

describe("pool options", () => {
  it.each([
    [{ size: -1 }, "pool size"],
    [{ size: 1.5 }, "pool size"],
    [{ size: 4, maxSize: 3 }, "pool maximum size"],
    [{ size: 4, maxSize: 4.5 }, "pool maximum size"],
    [{ workers: 0 }, "pool workers"],
    [{ takeTimeoutMs: -1 }, "pool take timeout"],
    [{ workerIdleMs: -1 }, "pool worker idle time"],
  ])("refuses %o", (options, option) => {
    expect(() => new BurnAddressPool({ protocol, chainId, treasury, seed: "0x00" as Hex, ...options })).toThrow(InvalidChallengeOptionError);
    expect(() => new BurnAddressPool({ protocol, chainId, treasury, seed: "0x00" as Hex, ...options })).toThrow(option);
  });
});

describe("a pool sized from demand", () => {
  it("grows its target under sustained takes within floor..ceiling, keeps that many ready, and aims at the floor again once demand stops", async () => {
    // The pool's clock is the test's: it moves only when set below, so every rate here is exact.
    let clock = 0;
    const pool = new BurnAddressPool({ protocol, chainId, treasury, seed, size: 1, maxSize: 4, workers: 1, takeTimeoutMs: 1, now: () => clock });
    try {
      // The first derivation started at 0 and cannot finish before this turn of the event loop ends: it takes 1 s.
      clock = 1_000;
      await pool.whenStocked(20_000);
      expect(pool.stats()).toMatchObject({ stocked: 1, floor: 1, ceiling: 4, target: 1, offersPerSecond: 0, derivationsPerSecond: 1, lastsSeconds: null });

      // Thirty seconds of ten takes a second, all in this one turn: no derivation finishes in between.
      const targets: number[] = [];
      const takes: Promise<unknown>[] = [];
      for (let i = 0; i < 300; i++) {
        clock += 100;
        takes.push(
          pool.take().then(
            () => "served",
            (error: unknown) => error,
          ),
        );
        targets.push(pool.stats().target);
      }
      expect(targets[0]).toBe(1);
      expect(targets.every((target, i) => target >= 1 && target <= 4 && target >= (targets[i - 1] ?? target))).toBe(true);
      expect(targets.at(-1)).toBe(4);
      const busy = pool.stats();
      // 300 takes 0.1 s apart weigh (1 - e^-0.5) / (60 (1 - e^(-1/600))) = 3.94 a second against one derivation a second.
      expect(busy.offersPerSecond).toBeCloseTo(3.94, 1);
      expect(busy).toMatchObject({ stocked: 0, target: 4, derivationsPerSecond: 1, lastsSeconds: 0 });

      // The first take had the stocked address; the waiting ones time out (or catch a derivation) within 1 ms.
      const outcomes = await Promise.all(takes);
      expect(outcomes[0]).toBe("served");
      for (const outcome of outcomes) if (outcome !== "served") expect(outcome).toBeInstanceOf(BurnAddressUnavailableError);

      // With the waiters gone the workers refill to the target, not the floor, and stop there.
      await expect.poll(() => pool.stats().stocked, { timeout: 20_000, interval: 10 }).toBe(4);
      expect(pool.stats()).toMatchObject({ stocked: 4, deriving: 0, target: 4 });

      // Ten quiet minutes: the offer rate has decayed, the target is the floor again, the stock is kept.
      clock += 10 * 60_000;
      const quiet = pool.stats();
      expect(quiet.offersPerSecond).toBeLessThan(0.001);
      expect(quiet).toMatchObject({ stocked: 4, target: 1, lastsSeconds: null });
    } finally {
      await pool.close();
    }
  });
});

describe("BurnAddressPool.whenStocked", () => {
  it("resolves once the first address is stocked, so readiness never precedes an instant offer", async () => {
    const treasury = getAddress("0x70997970c51812dc3a010c7d01b50e0d17dc79c8");
    const pool = new BurnAddressPool({ protocol, chainId: 31337, treasury, seed: deriveBurnSeed(TEST_TREASURY_PK), size: 1, workers: 1 });
    try {
      expect(pool.stats().stocked).toBe(0);
      await pool.whenStocked();
      expect(pool.stats().stocked).toBe(1);
    } finally {
      await pool.close();
    }
  });
});

describe("a pool with a persisted stock", () => {
  const binding = { protocol, chainId, treasury, seed };

  it("restores its stock after a restart without re-deriving, and never issues an address twice", async () => {
    const path = join(await mkdtemp(join(tmpdir(), "burn-stock-")), "journal.jsonl.stock");
    const issued: BurnSecret[] = [];

    // No release ahead here: every entry not handed out must come back.
    let pool = new BurnAddressPool({ ...binding, size: 3, workers: 2, releaseAhead: 0, stock: await BurnAddressStockFile.open(path, binding) });
    await expect.poll(() => pool.stats().stocked, { timeout: 20_000, interval: 20 }).toBe(3);
    issued.push(await pool.take());
    await expect.poll(() => pool.stats().stocked, { timeout: 20_000, interval: 20 }).toBe(3);
    await pool.close();

    let stock = await BurnAddressStockFile.open(path, binding);
    expect(stock.restored).toHaveLength(3);
    pool = new BurnAddressPool({ ...binding, size: 3, workers: 1, releaseAhead: 0, stock });
    expect(pool.stats()).toMatchObject({ stocked: 3, restored: 3, derived: 0 });
    for (let i = 0; i < 3; i++) issued.push(await pool.take());
    // Handed out before any new derivation finished: these came from the restored stock.
    expect(pool.stats().derived).toBeLessThanOrEqual(1);
    await pool.close();

    stock = await BurnAddressStockFile.open(path, binding);
    const issuedIds = new Set(issued.map((burn) => burn.paymentId));
    expect(stock.restored.filter((entry) => issuedIds.has(entry.paymentId))).toEqual([]);
    await stock.close();
    expect(new Set(issued.map((burn) => burn.burnAddress)).size).toBe(issued.length);
    for (const burn of issued) expect(reopenBurnSecret(seed, { protocol, chainId, treasury }, burn.paymentId)).toEqual(burn);
  });

  it("has every handed-out address out of the file by the time take() resolves, as a crash right then would find it", async () => {
    const path = join(await mkdtemp(join(tmpdir(), "burn-stock-")), "journal.jsonl.stock");
    const pool = new BurnAddressPool({ ...binding, size: 3, workers: 2, releaseAhead: 0, stock: await BurnAddressStockFile.open(path, binding) });
    try {
      await expect.poll(() => pool.stats().stocked, { timeout: 20_000, interval: 20 }).toBe(3);
      const handedOut = [await pool.take(), await pool.take()].map((burn) => burn.paymentId);
      // Nothing is closed or flushed: the file is read as a restart after a SIGKILL here would read it.
      const afterCrash = await BurnAddressStockFile.open(path, binding);
      const restored = afterCrash.restored.map((entry) => entry.paymentId);
      expect(restored.length).toBeGreaterThanOrEqual(1);
      for (const id of handedOut) expect(restored).not.toContain(id);
      await afterCrash.close();
    } finally {
      await pool.close();
    }
  });

  it("drops a restored entry whose nonce misses the proof of work instead of offering it", async () => {
    const path = join(await mkdtemp(join(tmpdir(), "burn-stock-")), "journal.jsonl.stock");
    const stock = await BurnAddressStockFile.open(path, binding);
    const paymentId = `0x${"5a".repeat(32)}` as const;
    const inputs = burnSecretInputs(seed, { protocol, chainId, treasury }, paymentId);
    const good = reopenBurnSecret(seed, { protocol, chainId, treasury }, paymentId);
    const goodNonce = (good.secret - inputs.secretBase + BN254_FIELD_MODULUS) % BN254_FIELD_MODULUS;
    await stock.add({ paymentId, nonce: goodNonce + 1n });
    await stock.close();

    const reopened = await BurnAddressStockFile.open(path, binding);
    expect(reopened.restored).toEqual([{ paymentId, nonce: goodNonce + 1n }]);
    const pool = new BurnAddressPool({ ...binding, size: 0, workers: 1, stock: reopened });
    try {
      expect(pool.stats()).toMatchObject({ stocked: 0, restored: 0 });
    } finally {
      await pool.close();
    }
    const after = await BurnAddressStockFile.open(path, binding);
    expect(after.restored).toEqual([]);
    await after.close();
  });

  it("withholds an address whose removal from the stock cannot be made durable", async () => {
    const path = join(await mkdtemp(join(tmpdir(), "burn-stock-")), "journal.jsonl.stock");
    const stock = await BurnAddressStockFile.open(path, binding);
    const pool = new BurnAddressPool({ ...binding, size: 1, workers: 1, stock });
    try {
      // The file is closed under the pool before anything is stocked: no take record can be written.
      await stock.close();
      await pool.whenStocked();
      const error = await rejection(pool.take());
      expect(error).toBeInstanceOf(BurnAddressUnavailableError);
    } finally {
      await pool.close();
    }
  });

  it("releases the head of the stock ahead of demand, so those takes need no write, and a restart forgets them", async () => {
    const path = join(await mkdtemp(join(tmpdir(), "burn-stock-")), "journal.jsonl.stock");
    const stock = await BurnAddressStockFile.open(path, binding);
    const pool = new BurnAddressPool({ ...binding, size: 4, workers: 2, releaseAhead: 2, stock });
    const released = async () =>
      (await readFile(path, "utf8"))
        .split("\n")
        .filter((line) => line.startsWith('{"take"'))
        .map((line) => (JSON.parse(line) as { take: string }).take);
    try {
      await expect.poll(() => pool.stats().stocked, { timeout: 20_000, interval: 20 }).toBe(4);
      await expect.poll(async () => (await released()).length, { timeout: 5_000, interval: 20 }).toBe(2);
      const releasedFirst = await released();
      // With the file closed, only takes that need no further write can succeed: exactly the released two.
      await stock.close();
      const taken = [await pool.take(), await pool.take()];
      expect(taken.map((burn) => burn.paymentId)).toEqual(releasedFirst);
      expect(await rejection(pool.take())).toBeInstanceOf(BurnAddressUnavailableError);
    } finally {
      await pool.close();
    }
    const reopened = await BurnAddressStockFile.open(path, binding);
    expect(reopened.restored).toHaveLength(2);
    expect(reopened.restored.map((entry) => entry.paymentId)).not.toContain((await released())[0]);
    await reopened.close();
  });
});

describe("BurnAddressPool.takeHeld", () => {
  const binding = { protocol, chainId, treasury, seed };

  it("starts neither the next stock release nor the refill until resume, so the caller's own fsync has the disk alone", async () => {
    const path = join(await mkdtemp(join(tmpdir(), "burn-stock-")), "journal.jsonl.stock");
    const file = await BurnAddressStockFile.open(path, binding);
    const released: Hex[] = [];
    const stock: BurnAddressStockStore = {
      restored: file.restored,
      add: (entry) => file.add(entry),
      take: (paymentId) => {
        released.push(paymentId);
        return file.take(paymentId);
      },
      close: () => file.close(),
    };
    const pool = new BurnAddressPool({ ...binding, size: 3, workers: 1, releaseAhead: 1, stock });
    try {
      await expect.poll(() => pool.stats().stocked, { timeout: 20_000, interval: 20 }).toBe(3);
      await expect.poll(() => pool.stats().deriving, { timeout: 5_000, interval: 20 }).toBe(0);
      expect(released).toHaveLength(1);

      const taken = await pool.takeHeld();
      expect(taken.burn.paymentId).toBe(released[0]);
      // Held: the next entry's release and the refill's derivation have not started.
      expect(released).toHaveLength(1);
      expect(pool.stats()).toMatchObject({ stocked: 2, deriving: 0 });

      taken.resume();
      // On the next turn of the event loop, after whatever the caller does in this one.
      expect(released).toHaveLength(1);
      await new Promise((resolve) => setImmediate(resolve));
      expect(released).toHaveLength(2);
      expect(pool.stats().deriving).toBe(1);
      // Once only: a second resume starts nothing more.
      taken.resume();
      await new Promise((resolve) => setImmediate(resolve));
      expect(released).toHaveLength(2);
      expect(pool.stats().deriving).toBe(1);
      await expect.poll(() => pool.stats().stocked, { timeout: 20_000, interval: 20 }).toBeGreaterThanOrEqual(3);

      // take() is takeHeld() resumed at once.
      const next = await pool.take();
      expect(next.paymentId).toBe(released[1]);
      await expect.poll(() => released.length, { timeout: 5_000, interval: 5 }).toBe(3);
    } finally {
      await pool.close();
    }
  });

  it("releases the head in batches: once at most half of it is released, so back-to-back takes share one write", async () => {
    const path = join(await mkdtemp(join(tmpdir(), "burn-stock-")), "journal.jsonl.stock");
    const file = await BurnAddressStockFile.open(path, binding);
    let releases = 0;
    const stock: BurnAddressStockStore = {
      restored: file.restored,
      add: (entry) => file.add(entry),
      take: (paymentId) => {
        releases++;
        return file.take(paymentId);
      },
      close: () => file.close(),
    };
    const pool = new BurnAddressPool({ ...binding, size: 8, workers: 1, releaseAhead: 4, stock });
    try {
      await expect.poll(() => pool.stats().stocked, { timeout: 20_000, interval: 20 }).toBeGreaterThanOrEqual(8);
      // Filling: released up to 3 of the head of 4, the point past half where releasing waits.
      const seen = [releases];
      for (let take = 0; take < 4; take++) {
        await pool.take();
        await new Promise((resolve) => setImmediate(resolve));
        seen.push(releases);
      }
      // One release of two entries for every two takes, where one per take was written before.
      expect(seen).toEqual([3, 5, 5, 7, 7]);
    } finally {
      await pool.close();
    }
  });

  it("holds nothing back for a take that waited for a derivation", async () => {
    const pool = new BurnAddressPool({ ...binding, size: 0, workers: 1 });
    try {
      const taken = await pool.takeHeld();
      expect(pool.stats()).toMatchObject({ stocked: 0, deriving: 0 });
      taken.resume();
      await new Promise((resolve) => setImmediate(resolve));
      expect(pool.stats()).toMatchObject({ stocked: 0, deriving: 0 });
    } finally {
      await pool.close();
    }
  });
});

describe("pool workers", () => {
  it("default to one per core and search with the process's Poseidon", async () => {
    const pool = new BurnAddressPool({ protocol, chainId, treasury, seed, size: 4 });
    try {
      await expect.poll(() => pool.stats().workers, { timeout: 5_000, interval: 10 }).toBe(Math.min(4, availableParallelism()));
      expect(poseidonChoice().implementation.name).toBe("native");
    } finally {
      await pool.close();
    }
  });
});

describe("idle pool workers", () => {
  it("exit once the stock is full, and start again when a take needs a derivation", async () => {
    const pool = new BurnAddressPool({ protocol, chainId, treasury, seed, size: 1, workers: 1, workerIdleMs: 50 });
    try {
      await expect.poll(() => pool.stats().stocked, { timeout: 20_000, interval: 20 }).toBe(1);
      await expect.poll(() => pool.stats().workers, { timeout: 5_000, interval: 20 }).toBe(0);
      await pool.take();
      // The take's refill starts on the next turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      expect(pool.stats().workers).toBe(1);
      await expect.poll(() => pool.stats().stocked, { timeout: 20_000, interval: 20 }).toBe(1);
      await expect.poll(() => pool.stats().workers, { timeout: 5_000, interval: 20 }).toBe(0);
    } finally {
      await pool.close();
    }
  });
});
