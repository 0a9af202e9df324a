import { readFile, stat, writeFile } from "node:fs/promises";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { buildReserveInput } from "../testing/buildReserveInput.js";
import { makeTempDir } from "../testing/tempDir.js";
import { LedgerCorruptError, LedgerEntryNotFoundError, LedgerTransitionError, OfferAlreadyUsedError } from "./errors.js";
import { Ledger } from "./ledger.js";
import { summarizeSpend } from "./summarizeSpend.js";

let dir: Awaited<ReturnType<typeof makeTempDir>>;
let ledger: Ledger;
beforeEach(async () => {
  dir = await makeTempDir();
  ledger = new Ledger(dir.path);
});
afterEach(() => dir.remove());

async function reserved(overrides: Parameters<typeof buildReserveInput>[0] = {}, cap?: bigint) {
  const result = await ledger.reserve(buildReserveInput(overrides), { maxTotal: cap });
  if (result.kind !== "reserved") throw new Error("expected a reservation");
  return result.entry;
}

describe("Ledger reservations", () => {
  it("reserves under the cap and declines what would exceed it, inclusive of the cap", async () => {
    await reserved({ amount: 60n }, 100n);
    expect(await ledger.reserve(buildReserveInput({ amount: 41n }), { maxTotal: 100n })).toEqual({
      kind: "over-cap",
      limit: "maxTotal",
      spentBefore: 60n,
      cap: 100n,
    });
    const last = await ledger.reserve(buildReserveInput({ amount: 40n }), { maxTotal: 100n });
    expect(last).toMatchObject({ kind: "reserved", spentBefore: 60n });
  });

  it("keeps the total per network and token, ignoring address case", async () => {
    await reserved({ amount: 90n }, 100n);
    await reserved({ amount: 90n, asset: "0x0000000000000000000000000000000000000001" }, 100n);
    await reserved({ amount: 90n, network: "eip155:1" }, 100n);
    const sameTokenOtherCase = await ledger.reserve(buildReserveInput({ amount: 20n, asset: "0x5fbdb2315678afecb367f032d93f642f64180aa3" }), {
      maxTotal: 100n,
    });
    expect(sameTokenOtherCase.kind).toBe("over-cap");
  });

  it("gives back a released reservation, and only that", async () => {
    const a = await reserved({ amount: 100n }, 100n);
    await ledger.recordOutcome(a.id, { status: "released", message: "definite failure" });
    const b = await reserved({ amount: 100n }, 100n);
    await ledger.recordSigned(b.id, "header");
    await ledger.recordOutcome(b.id, { status: "unknown", message: "timeout" });
    expect((await ledger.reserve(buildReserveInput({ amount: 1n }), { maxTotal: 100n })).kind).toBe("over-cap");
  });

  it("never takes the same offer twice", async () => {
    const input = buildReserveInput();
    const first = await ledger.reserve(input, {});
    const error = await ledger.reserve({ ...input, challengeNonce: `0x${input.challengeNonce.slice(2).toUpperCase()}` }, {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OfferAlreadyUsedError);
    expect(error).toMatchObject({ existingId: first.kind === "reserved" ? first.entry.id : "" });
  });
});

describe("Ledger payment records", () => {
  it("stores the signed header durably, and refuses to store a second one", async () => {
    const entry = await reserved();
    await ledger.recordSigned(entry.id, "c2lnbmVk");
    expect(await new Ledger(dir.path).get(entry.id)).toMatchObject({ status: "signed", paymentHeader: "c2lnbmVk" });
    await expect(ledger.recordSigned(entry.id, "b3RoZXI=")).rejects.toThrow(LedgerTransitionError);
  });

  it("lets an unknown payment resolve only to settled", async () => {
    const entry = await reserved();
    await ledger.recordSigned(entry.id, "h");
    await ledger.recordOutcome(entry.id, { status: "unknown", message: "lost" });
    await expect(ledger.recordOutcome(entry.id, { status: "released" })).rejects.toThrow(LedgerTransitionError);
    await expect(ledger.recordOutcome(entry.id, { status: "failed" })).rejects.toThrow(LedgerTransitionError);
    const settled = await ledger.recordOutcome(entry.id, { status: "settled", transaction: "0xabc" });
    expect(settled).toMatchObject({ status: "settled", transaction: "0xabc" });
    expect(settled.message).toBeUndefined();
    await expect(ledger.recordOutcome(entry.id, { status: "unknown" })).rejects.toThrow(LedgerTransitionError);
  });

  it("records a burn hash only before signing", async () => {
    const entry = await reserved({ mode: "self-transfer" });
    const hash = `0x${"ab".repeat(32)}` as const;
    expect(await ledger.recordBurn(entry.id, hash)).toMatchObject({ burnTxHash: hash, status: "reserved" });
    await ledger.recordSigned(entry.id, "h");
    await expect(ledger.recordBurn(entry.id, hash)).rejects.toThrow(LedgerTransitionError);
  });

  it("names an unknown id", async () => {
    await expect(ledger.get("000000000000")).rejects.toThrow(LedgerEntryNotFoundError);
  });

  it("summarizes spend by status per network and token", async () => {
    const settled = await reserved({ amount: 10n });
    await ledger.recordSigned(settled.id, "h");
    await ledger.recordOutcome(settled.id, { status: "settled" });
    await reserved({ amount: 20n });
    const failed = await reserved({ amount: 40n, mode: "self-transfer" });
    await ledger.recordSigned(failed.id, "h");
    await ledger.recordOutcome(failed.id, { status: "failed", errorReason: "burn_after_expiry" });
    const released = await reserved({ amount: 80n });
    await ledger.recordOutcome(released.id, { status: "released" });
    expect(summarizeSpend(await ledger.entries())).toEqual([
      { network: "eip155:31337", asset: "0x5FbDB2315678afecb367f032d93F642f64180aa3", settled: "10", pending: "20", failed: "40", total: "70" },
    ]);
  });
});

describe("Ledger file", () => {
  it("is private to the user and refuses to guess when corrupt", async () => {
    await reserved();
    expect((await stat(ledger.path)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(ledger.path, "utf8"))).toMatchObject({ version: 1 });
    await writeFile(ledger.path, "{ torn");
    await expect(ledger.reserve(buildReserveInput(), { maxTotal: 1000n })).rejects.toThrow(LedgerCorruptError);
    await expect(ledger.entries()).rejects.toThrow(LedgerCorruptError);
  });
});
