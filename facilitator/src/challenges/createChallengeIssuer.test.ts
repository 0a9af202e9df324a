import { ChallengeOfferSchema, offerRequirements, openBurnAddress, zerc20Protocol } from "@svc/scheme";
import { getAddress, hexToBigInt, type Hex } from "viem";
import { describe, expect, it } from "vitest";

import { deriveBurnSeed } from "./burnSeed.js";
import { parseConfig } from "../config/parseConfig.js";
import { buildConfigTable, TEST_TREASURY_PK, type ConfigTable } from "../config/testing/buildConfig.js";
import {
  BurnAddressUnavailableError,
  BurnAddressVerificationError,
  ChallengeCapacityError,
  ChallengeNotRecordedError,
  ProfileDisabledError,
} from "./errors.js";
import { QuoteOutOfRangeError } from "./errors.js";
import { BurnAddressPool, type BurnAddressSource } from "./burnAddressPool.js";
import type { BurnSecret, ChallengeRecord } from "./challengeRecord.js";
import { ChallengeStore } from "./challengeStore.js";
import { createChallengeIssuer } from "./createChallengeIssuer.js";
import { buildBurnSecret } from "./testing/buildChallengeRecord.js";

const seed = deriveBurnSeed(TEST_TREASURY_PK);
const NOW = 1_700_000_000;

/** A pool stand-in that derives no proof of work. */
function fakePool(take: () => Promise<BurnSecret>): BurnAddressSource {
  return { takeHeld: async () => ({ burn: await take(), resume: () => undefined }) };
}

function setup({
  table = {},
  maxOpenChallenges = 10,
  pool,
  record,
  token,
}: {
  table?: ConfigTable;
  maxOpenChallenges?: number;
  pool?: (config: ReturnType<typeof parseConfig>) => BurnAddressSource;
  record?: (record: ChallengeRecord) => Promise<void>;
  token?: { permit: boolean; decimals: number };
} = {}) {
  const config = parseConfig(buildConfigTable(table), { configDir: "/tmp" });
  const treasury = config.settlement.treasury;
  const inner = pool?.(config) ?? fakePool(async () => buildBurnSecret(seed, config.network.chain_id, treasury));
  // Counts takes so tests can tell whether a refused request consumed a burn address.
  const source = {
    takes: 0,
    takeHeld() {
      source.takes++;
      return inner.takeHeld();
    },
  };
  const store = new ChallengeStore({
    maxOpenChallenges,
    retentionSeconds: config.settlement.expired_challenge_retention_seconds,
    now: () => NOW,
  });
  const issuer = createChallengeIssuer({
    config,
    seed,
    pool: source,
    store,
    now: () => NOW,
    record,
    tokenHasPermit: token?.permit,
    tokenDecimals: token?.decimals,
  });
  return { config, issuer, pool: source, store };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable("the promise resolved"),
    (error: unknown) => error,
  );
}

describe("the offer", () => {
  it("passes the scheme's ChallengeOfferSchema and matches the stored record", async () => {
    const { config, issuer, store } = setup({ table: { settlement: { challenge_ttl_seconds: 120 } } });
    const { offer, record } = await issuer.issue(1000n);
    expect(ChallengeOfferSchema.parse(offer)).toEqual(offer);
    expect(offer).toEqual({
      payTo: record.burn.burnAddress,
      amount: "1010",
      token: getAddress(config.network.token),
      chainId: 31337,
      challengeNonce: record.challengeNonce,
      expiresAt: NOW + 120,
      helper: getAddress("0x4444444444444444444444444444444444444444"),
      deadline: NOW + 120,
      fee: { amount: "10", bps: 100 },
    });
    expect(record).toMatchObject({ chainId: 31337, asset: offer.token, amount: 1010n, issuedAt: NOW });
    expect(offerRequirements(record, 120).network).toBe("eip155:31337");
    expect(offer.challengeNonce).toMatch(/^0x[0-9a-f]{64}$/);
    expect(store.get(offer.challengeNonce)).toEqual({ record, status: "open", settled: false });
  });

  it("never shows the treasury or any burn secret; the nonce is the payment id", async () => {
    const { config, issuer } = setup();
    const { offer, record } = await issuer.issue(1000n);
    const wire = JSON.stringify(offer).toLowerCase();
    expect(wire).not.toContain(config.settlement.treasury.slice(2).toLowerCase());
    expect(offer.challengeNonce).toBe(record.burn.paymentId);
    for (const secret of [record.burn.tweak, record.burn.recipientHash]) {
      expect(wire).not.toContain(secret.slice(2).toLowerCase());
    }
    expect(wire).not.toContain(record.burn.secret.toString());
    expect(wire).not.toContain(record.burn.secret.toString(16));
  });

  it("uses a fresh nonce and burn address every time", async () => {
    const { issuer } = setup();
    const offers = await Promise.all([1n, 2n, 3n].map(async (price) => (await issuer.issue(price)).offer));
    expect(new Set(offers.map((offer) => offer.challengeNonce)).size).toBe(3);
    expect(new Set(offers.map((offer) => offer.payTo)).size).toBe(3);
  });
});

describe("fees", () => {
  it("adds a payer-charged fee to the amount and shows it in fee", async () => {
    const { offer, record } = await setup().issuer.issue(1000n);
    expect(offer.amount).toBe("1010");
    expect(offer.fee).toEqual({ amount: "10", bps: 100 });
    expect(record.quote).toEqual({ amount: 1010n, fee: 10n, payout: 1000n, extraFee: { amount: 10n, bps: 100 } });
  });

  it("keeps the list price and hides the fee when the provider pays it", async () => {
    const { offer, record } = await setup({ table: { fee: { charge_to: "provider" } } }).issuer.issue(1000n);
    expect(offer.amount).toBe("1000");
    expect(offer).not.toHaveProperty("fee");
    expect(record.quote).toEqual({ amount: 1000n, fee: 10n, payout: 990n, extraFee: undefined });
  });

  it("quotes the list price without any fee table", async () => {
    const { offer } = await setup({ table: { fee: undefined } }).issuer.issue(1000n);
    expect(offer.amount).toBe("1000");
    expect(offer).not.toHaveProperty("fee");
  });

  it("refuses an unquotable price before taking a burn address", async () => {
    const { issuer, pool } = setup();
    await expect(issuer.issue(-1n)).rejects.toBeInstanceOf(QuoteOutOfRangeError);
    expect(pool.takes).toBe(0);
  });

  it("refuses a zero quoted amount (a zero-value transfer must never pass as a payment)", async () => {
    const { issuer, pool } = setup({ table: { fee: undefined } });
    await expect(issuer.issue(0n)).rejects.toThrow(/the quoted amount is zero/);
    expect(pool.takes).toBe(0);
  });
});

describe("recording", () => {
  it("records the challenge before the offer is returned", async () => {
    const recorded: ChallengeRecord[] = [];
    const { issuer, store } = setup({ record: async (record) => void recorded.push(record) });
    const { offer } = await issuer.issue(1000n);
    expect(recorded.map((record) => record.challengeNonce)).toEqual([offer.challengeNonce]);
    expect(store.get(offer.challengeNonce)?.status).toBe("open");
  });

  it("withholds the offer and frees the slot when the record cannot be written", async () => {
    const { issuer, store } = setup({
      maxOpenChallenges: 1,
      record: () => Promise.reject(new Error("disk full")),
    });
    await expect(issuer.issue(1000n)).rejects.toBeInstanceOf(ChallengeNotRecordedError);
    expect(store.counts()).toEqual({ open: 0, retainedExpired: 0 });
  });
});

describe("gasless path", () => {
  it("offers helper and a deadline no later than expiresAt when settlement.permit_burner is set", async () => {
    const { offer, record } = await setup().issuer.issue(1000n);
    expect(offer.helper).toBe(getAddress("0x4444444444444444444444444444444444444444"));
    expect(offer.deadline).toBeDefined();
    expect(offer.deadline).toBeLessThanOrEqual(offer.expiresAt);
    expect(record).toMatchObject({ helper: offer.helper, deadline: offer.deadline });
  });

  it("offers neither helper nor deadline without a permit burner", async () => {
    const { offer, record } = await setup({ table: { settlement: { permit_burner: undefined } } }).issuer.issue(1000n);
    expect(offer).not.toHaveProperty("helper");
    expect(offer).not.toHaveProperty("deadline");
    expect(record).toMatchObject({ helper: undefined, deadline: undefined });
    expect(ChallengeOfferSchema.safeParse(offer).success).toBe(true);
  });
});

describe("the token", () => {
  it("shows the token's decimals in every offer and its record", async () => {
    const { offer, record } = await setup({ token: { permit: true, decimals: 6 } }).issuer.issue(1000n);
    expect(offer.decimals).toBe(6);
    expect(record.decimals).toBe(6);
    expect(ChallengeOfferSchema.parse(offer).decimals).toBe(6);
  });

  it("offers no gasless path on a token without permit, even with a permit burner configured", async () => {
    const { offer } = await setup({ token: { permit: false, decimals: 18 } }).issuer.issue(1000n);
    expect(offer).not.toHaveProperty("helper");
    expect(offer).not.toHaveProperty("deadline");
  });
});

describe("refusals", () => {
  it.each([["testnet"], ["production"]])("refuses under profile %s without taking a burn address", async (profile) => {
    const { issuer, pool, store } = setup({ table: { profile } });
    const error = await rejection(issuer.issue(1000n));
    expect(error).toBeInstanceOf(ProfileDisabledError);
    expect((error as ProfileDisabledError).message).toBe(
      `payment acceptance is disabled for profile ${profile}: it needs a real prover ([prover] kind = "command", "http" or "snarkjs")`,
    );
    expect(pool.takes).toBe(0);
    expect(store.counts().open).toBe(0);
  });

  it("refuses under an unset profile", async () => {
    const { issuer } = setup({ table: { profile: undefined } });
    await expect(issuer.issue(1000n)).rejects.toThrowErrorMatchingInlineSnapshot(
      `[ProfileDisabledError: payment acceptance is disabled for profile (unset): name a profile in the configuration file]`,
    );
  });

  it("checks the open-challenge cap before taking a burn address", async () => {
    const { issuer, pool } = setup({ maxOpenChallenges: 1 });
    await issuer.issue(1000n);
    await expect(issuer.issue(1000n)).rejects.toBeInstanceOf(ChallengeCapacityError);
    expect(pool.takes).toBe(1);
  });

  it("holds the slot while waiting for the pool, so concurrent issues cannot overshoot the cap", async () => {
    let release: (() => void) | undefined;
    const { issuer, pool, store } = setup({
      maxOpenChallenges: 1,
      pool: (config) =>
        fakePool(
          () =>
            new Promise((resolve) => {
              release = () => resolve(buildBurnSecret(seed, config.network.chain_id, config.settlement.treasury));
            }),
        ),
    });
    const first = issuer.issue(1000n);
    await expect(issuer.issue(1000n)).rejects.toBeInstanceOf(ChallengeCapacityError);
    expect(pool.takes).toBe(1);
    release?.();
    await first;
    expect(store.counts().open).toBe(1);
  });

  it("gives the slot back when the pool has no address", async () => {
    const { issuer, store } = setup({
      maxOpenChallenges: 1,
      pool: () => fakePool(() => Promise.reject(new BurnAddressUnavailableError())),
    });
    await expect(issuer.issue(1000n)).rejects.toBeInstanceOf(BurnAddressUnavailableError);
    await expect(issuer.issue(1000n)).rejects.toBeInstanceOf(BurnAddressUnavailableError);
    expect(store.counts().open).toBe(0);
  });

  it("refuses a burn address that does not commit to settlement.treasury", async () => {
    const other = getAddress("0x8888888888888888888888888888888888888888");
    const { issuer, store } = setup({
      pool: (config) => fakePool(async () => buildBurnSecret(seed, config.network.chain_id, other)),
    });
    const error = await rejection(issuer.issue(1000n));
    expect(error).toBeInstanceOf(BurnAddressUnavailableError);
    expect((error as BurnAddressUnavailableError).cause).toBeInstanceOf(BurnAddressVerificationError);
    expect(store.counts().open).toBe(0);
  });

  it("resumes the pool's held work only once the challenge is recorded, and after a failed record too", async () => {
    const events: string[] = [];
    const heldPool = (config: ReturnType<typeof parseConfig>): BurnAddressSource => ({
      takeHeld: async () => ({
        burn: buildBurnSecret(seed, config.network.chain_id, config.settlement.treasury),
        resume: () => events.push("resume"),
      }),
    });
    let failRecord = false;
    const { issuer } = setup({
      pool: heldPool,
      record: async () => {
        events.push("record started");
        await Promise.resolve();
        if (failRecord) throw new Error("disk full");
        events.push("record durable");
      },
    });
    await issuer.issue(1000n);
    expect(events).toEqual(["record started", "record durable", "resume"]);

    events.length = 0;
    failRecord = true;
    await expect(issuer.issue(1000n)).rejects.toBeInstanceOf(ChallengeNotRecordedError);
    expect(events).toEqual(["record started", "resume"]);
  });

  it("refuses a burn address derived from another seed", async () => {
    const otherSeed: Hex = deriveBurnSeed(`0x${"ab".repeat(32)}`);
    const { issuer } = setup({
      pool: (config) => fakePool(async () => buildBurnSecret(otherSeed, config.network.chain_id, config.settlement.treasury)),
    });
    const error = await rejection(issuer.issue(1000n));
    expect((error as BurnAddressUnavailableError).cause).toBeInstanceOf(BurnAddressVerificationError);
  });
});

describe("with a real pool", () => {
  it("offers a proof-of-work burn address that opens with the recorded secret", async () => {
    const config = parseConfig(buildConfigTable(), { configDir: "/tmp" });
    const pool = new BurnAddressPool({
      protocol: config.network.protocol,
      chainId: config.network.chain_id,
      treasury: config.settlement.treasury,
      seed,
      size: 1,
      workers: 1,
    });
    try {
      const { issuer } = setup({ pool: () => pool });
      const { offer, record } = await issuer.issue(1000n);
      expect(ChallengeOfferSchema.safeParse(offer).success).toBe(true);
      expect(openBurnAddress(zerc20Protocol(config.network.protocol), hexToBigInt(record.burn.recipientHash), record.burn.secret)).toBe(offer.payTo);
    } finally {
      await pool.close();
    }
  });
});
