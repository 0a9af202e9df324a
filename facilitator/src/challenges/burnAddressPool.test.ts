import { readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import {
  addressToRecipient,
  BN254_FIELD_MODULUS,
  burnAddressFromHash,
  burnAddressHash,
  generalRecipientHash,
  meetsBurnAddressPow,
} from "@svc/scheme";
import { getAddress, hexToBigInt, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { deriveBurnSeed } from "../config/burnSeed.js";
import { derivePaymentSecretBase, derivePaymentTweak } from "../config/paymentSecrets.js";
import { TEST_TREASURY_PK } from "../config/testing/buildConfig.js";
import {
  BurnAddressPoolClosedError,
  BurnAddressUnavailableError,
  InvalidChallengeOptionError,
} from "../errors/challenges.js";
import { BurnAddressPool } from "./burnAddressPool.js";
import type { BurnSecret } from "./challengeRecord.js";
import { reopenBurnSecret } from "./reopenBurnSecret.js";

const seed = deriveBurnSeed(TEST_TREASURY_PK);
const chainId = 31337;
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
  let maxTickGapMs = 0;
  let ticks = 0;
  let threadsBefore = 0;
  let threadsWhileRunning = 0;

  beforeAll(async () => {
    // Warm up the libuv threadpool first so the thread counts below see only the pool's own threads.
    await readFile(import.meta.filename);
    threadsBefore = osThreads();
    let last = performance.now();
    const interval = setInterval(() => {
      const now = performance.now();
      maxTickGapMs = Math.max(maxTickGapMs, now - last);
      last = now;
      ticks++;
    }, 10);
    try {
      pool = new BurnAddressPool({ chainId, treasury, seed, size: 1, workers: 1 });
      threadsWhileRunning = osThreads();
      // The first take waits for the first derivation, the second for the refill behind it.
      taken.push(await pool.take(), await pool.take());
    } finally {
      clearInterval(interval);
    }
  });

  afterAll(async () => {
    await pool.close();
  });

  it("keeps the event loop responsive while workers derive", () => {
    // Two derivations take seconds of CPU; a 10 ms timer must keep firing throughout.
    expect(ticks).toBeGreaterThan(50);
    // One derivation on the main thread would block for over a second; 500 ms leaves room for a busy machine.
    expect(maxTickGapMs).toBeLessThan(500);
  });

  it("hands out burn secrets that meet the scheme's proof of work and commit to the treasury", () => {
    for (const burn of taken) {
      const hash = burnAddressHash(hexToBigInt(burn.recipientHash), burn.secret);
      expect(meetsBurnAddressPow(hash)).toBe(true);
      expect(burnAddressFromHash(hash)).toBe(burn.burnAddress);
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
    expect(reopenBurnSecret(seed, chainId, treasury, first.paymentId)).toEqual(first);
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
    const pool = new BurnAddressPool({ chainId, treasury, seed, size: 0, workers: 1, takeTimeoutMs: 20 });
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
    const pool = new BurnAddressPool({ chainId, treasury, seed, size: 0, workers: 1 });
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
    [{ workers: 0 }, "pool workers"],
    [{ takeTimeoutMs: -1 }, "pool take timeout"],
  ])("refuses %o", (options, option) => {
    expect(() => new BurnAddressPool({ chainId, treasury, seed: "0x00" as Hex, ...options })).toThrow(
      InvalidChallengeOptionError,
    );
    expect(() => new BurnAddressPool({ chainId, treasury, seed: "0x00" as Hex, ...options })).toThrow(option);
  });
});

describe("BurnAddressPool.whenStocked", () => {
  it("resolves once the first address is stocked, so readiness never precedes an instant offer", async () => {
    const treasury = getAddress("0x70997970c51812dc3a010c7d01b50e0d17dc79c8");
    const pool = new BurnAddressPool({ chainId: 31337, treasury, seed: deriveBurnSeed(TEST_TREASURY_PK), size: 1, workers: 1 });
    try {
      expect(pool.stats().stocked).toBe(0);
      await pool.whenStocked();
      expect(pool.stats().stocked).toBe(1);
    } finally {
      await pool.close();
    }
  });
});
