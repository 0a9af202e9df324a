import { randomBytes } from "node:crypto";
import { toHex } from "viem";
import { describe, expect, it } from "vitest";

import { ChallengeCapacityError, DuplicateChallengeError, InvalidChallengeOptionError } from "./errors.js";
import { ChallengeStore, type ChallengeStoreParameters } from "./challengeStore.js";
import { buildChallengeRecord } from "./testing/buildChallengeRecord.js";

function setup(overrides: Partial<ChallengeStoreParameters> = {}) {
  const clock = { now: 1000 };
  const store = new ChallengeStore({
    maxOpenChallenges: 2,
    retentionSeconds: 60,
    now: () => clock.now,
    ...overrides,
  });
  return { clock, store };
}

describe("capacity", () => {
  it("refuses a challenge beyond daemon.max_open_challenges with the 503 error", () => {
    const { store } = setup();
    store.add(buildChallengeRecord());
    store.add(buildChallengeRecord());
    expect(() => store.add(buildChallengeRecord())).toThrowErrorMatchingInlineSnapshot(
      `[ChallengeCapacityError: too many open challenges (2); retry after some expire or settle]`,
    );
    expect(store.counts()).toEqual({ open: 2, retainedExpired: 0 });
  });

  it("frees a slot when a challenge expires", () => {
    const { clock, store } = setup();
    store.add(buildChallengeRecord({ issuedAt: 1000 }));
    store.add(buildChallengeRecord({ issuedAt: 1100 }));
    clock.now = 1301;
    store.add(buildChallengeRecord({ issuedAt: 1301 }));
    expect(store.counts()).toEqual({ open: 2, retainedExpired: 1 });
  });

  it("frees a slot when a challenge settles, once only", () => {
    const { store } = setup();
    const settled = buildChallengeRecord();
    store.add(settled);
    store.add(buildChallengeRecord());
    expect(store.markSettled(settled.challengeNonce)).toBe(true);
    expect(store.markSettled(settled.challengeNonce)).toBe(true);
    store.add(buildChallengeRecord());
    expect(() => store.add(buildChallengeRecord())).toThrow(ChallengeCapacityError);
  });

  it("counts a reservation against the cap until it is used or released", () => {
    const { store } = setup({ maxOpenChallenges: 1 });
    const slot = store.reserve();
    expect(() => store.reserve()).toThrow(ChallengeCapacityError);
    expect(() => store.add(buildChallengeRecord())).toThrow(ChallengeCapacityError);
    slot.release();
    slot.release();
    const second = store.reserve();
    second.add(buildChallengeRecord());
    second.release(); // no effect once used
    expect(store.counts().open).toBe(1);
    expect(() => store.reserve()).toThrow(ChallengeCapacityError);
  });

  it("treats a released reservation's add as a plain add, capped as usual", () => {
    const { store } = setup({ maxOpenChallenges: 1 });
    const slot = store.reserve();
    slot.release();
    store.add(buildChallengeRecord());
    expect(() => slot.add(buildChallengeRecord())).toThrow(ChallengeCapacityError);
  });
});

describe("expiry and retention", () => {
  it("is open up to expiresAt and expired after it", () => {
    const { clock, store } = setup();
    const record = buildChallengeRecord({ issuedAt: 1000 });
    store.add(record);
    clock.now = 1300;
    expect(store.get(record.challengeNonce)).toEqual({ record, status: "open", settled: false });
    clock.now = 1301;
    expect(store.get(record.challengeNonce)).toEqual({ record, status: "expired", settled: false });
    expect(store.counts()).toEqual({ open: 0, retainedExpired: 1 });
  });

  it("keeps expired match data for the retention period, then drops it", () => {
    const { clock, store } = setup({ retentionSeconds: 60 });
    const record = buildChallengeRecord({ issuedAt: 1000 });
    store.add(record);
    clock.now = 1360;
    expect(store.findByPayTo(record.payTo)?.status).toBe("expired");
    clock.now = 1361;
    expect(store.get(record.challengeNonce)).toBeUndefined();
    expect(store.findByPayTo(record.payTo)).toBeUndefined();
    expect(store.counts()).toEqual({ open: 0, retainedExpired: 0 });
  });

  it("drops expired data at once with a zero retention", () => {
    const { clock, store } = setup({ retentionSeconds: 0 });
    const record = buildChallengeRecord({ issuedAt: 1000 });
    store.add(record);
    clock.now = 1301;
    expect(store.get(record.challengeNonce)).toBeUndefined();
  });

  it("expires records by their own expiresAt, whatever order they were added in", () => {
    const { clock, store } = setup({ maxOpenChallenges: 10, retentionSeconds: 3600 });
    const late = buildChallengeRecord({ issuedAt: 1000, expiresAt: 1500 });
    const early = buildChallengeRecord({ issuedAt: 1000, expiresAt: 1100 });
    store.add(late);
    store.add(early);
    clock.now = 1200;
    expect(store.get(late.challengeNonce)?.status).toBe("open");
    expect(store.get(early.challengeNonce)?.status).toBe("expired");
    clock.now = 1161; // the wall clock stepped back: an expired record stays expired
    expect(store.get(early.challengeNonce)?.status).toBe("expired");
  });

  it("bounds retained expired records, dropping the oldest first", () => {
    const { clock, store } = setup({ maxOpenChallenges: 10, retentionSeconds: 3600, maxRetainedExpired: 3 });
    const records = [0, 1, 2, 3, 4].map((i) => buildChallengeRecord({ issuedAt: 1000 + i }));
    for (const record of records) store.add(record);
    clock.now = 2000;
    expect(store.counts()).toEqual({ open: 0, retainedExpired: 3 });
    expect(records.map((record) => store.get(record.challengeNonce)?.status)).toEqual([undefined, undefined, "expired", "expired", "expired"]);
  });

  it("stays bounded under sustained issuance", () => {
    const { clock, store } = setup({ maxOpenChallenges: 50, retentionSeconds: 100 });
    const { burn } = buildChallengeRecord(); // one shared secret: only nonce and payTo must be unique here
    for (let t = 0; t < 2000; t++) {
      clock.now = 1000 + t;
      const unique = { challengeNonce: toHex(randomBytes(32)), payTo: toHex(randomBytes(20)) };
      store.add(buildChallengeRecord({ issuedAt: clock.now, expiresAt: clock.now + 10, burn, ...unique }));
    }
    // 10 s open + 100 s retained at one per second: 11 open (inclusive bound), 100 retained.
    expect(store.counts()).toEqual({ open: 11, retainedExpired: 100 });
  });
});

describe("settled challenges", () => {
  it("stay findable until expiry plus retention so an identical re-send still finds them", () => {
    const { clock, store } = setup();
    const record = buildChallengeRecord({ issuedAt: 1000 });
    store.add(record);
    store.markSettled(record.challengeNonce);
    expect(store.get(record.challengeNonce)).toEqual({ record, status: "open", settled: true });
    expect(store.counts()).toEqual({ open: 0, retainedExpired: 0 });
    clock.now = 1301;
    expect(store.get(record.challengeNonce)).toEqual({ record, status: "expired", settled: true });
    expect(store.counts()).toEqual({ open: 0, retainedExpired: 1 });
    clock.now = 1361;
    expect(store.get(record.challengeNonce)).toBeUndefined();
  });

  it("answers false for an unknown nonce", () => {
    const { store } = setup();
    expect(store.markSettled(buildChallengeRecord().challengeNonce)).toBe(false);
  });
});

describe("lookup", () => {
  it("ignores letter case of the nonce and of payTo", () => {
    const { store } = setup();
    const record = buildChallengeRecord();
    store.add(record);
    expect(store.get(`0x${record.challengeNonce.slice(2).toUpperCase()}`)?.record).toBe(record);
    expect(store.findByPayTo(`0x${record.payTo.slice(2).toLowerCase()}`)?.record).toBe(record);
  });

  it("refuses a second challenge with the same nonce or burn address", () => {
    const { store } = setup({ maxOpenChallenges: 10 });
    const record = buildChallengeRecord();
    store.add(record);
    expect(() => store.add(buildChallengeRecord({ challengeNonce: record.challengeNonce }))).toThrow(new DuplicateChallengeError("challengeNonce"));
    expect(() => store.add(buildChallengeRecord({ payTo: record.payTo }))).toThrow(new DuplicateChallengeError("payTo"));
    expect(store.counts().open).toBe(1);
  });
});

describe("options", () => {
  it.each([
    [{ maxOpenChallenges: 0 }, "max open challenges"],
    [{ retentionSeconds: -1 }, "retention seconds"],
    [{ maxRetainedExpired: 1.5 }, "max retained expired"],
  ])("refuses %o", (options, option) => {
    expect(() => setup(options)).toThrow(InvalidChallengeOptionError);
    expect(() => setup(options)).toThrow(option);
  });
});

describe("restore after a restart", () => {
  it("puts back open, paid and expired challenges beyond the cap, and drops those past retention", () => {
    const { clock, store } = setup({ maxOpenChallenges: 1 });
    const open = buildChallengeRecord({ issuedAt: 1000 });
    const paid = buildChallengeRecord({ issuedAt: 1000 });
    const expired = buildChallengeRecord({ issuedAt: 1000 - 300 - 10 });
    const gone = buildChallengeRecord({ issuedAt: 1000 - 300 - 61 });
    store.restore({ ...open, burn: undefined }, false);
    store.restore({ ...paid, burn: undefined }, true);
    store.restore({ ...expired, burn: undefined }, false);
    store.restore({ ...gone, burn: undefined }, false);
    expect(store.get(open.challengeNonce)).toMatchObject({ status: "open", settled: false });
    expect(store.get(paid.challengeNonce)).toMatchObject({ status: "open", settled: true });
    expect(store.get(expired.challengeNonce)).toMatchObject({ status: "expired" });
    expect(store.get(gone.challengeNonce)).toBeUndefined();
    expect(store.findByPayTo(open.payTo)?.record.challengeNonce).toBe(open.challengeNonce);
    expect(store.counts()).toEqual({ open: 1, retainedExpired: 1 });
    // A duplicate restore (the journal holds the challenge once per record) is a no-op, never a second entry.
    store.restore({ ...open, burn: undefined }, false);
    expect(store.counts()).toEqual({ open: 1, retainedExpired: 1 });
    clock.now = 1000 + 301;
    expect(store.get(open.challengeNonce)?.status).toBe("expired");
  });
});
