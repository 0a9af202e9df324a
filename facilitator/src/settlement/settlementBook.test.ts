import { describe, expect, it } from "vitest";
import { JournalRecordSchema, type JournalRecord } from "../journal/journalRecord.js";
import { TEST_TOKEN, testJournaledChallenge, testNonce } from "../testing/journalRecords.js";
import { SettlementBook } from "./settlementBook.js";

const nonce = testNonce;
const hash = (n: number) => `0x${(n + 0xabc).toString(16).padStart(64, "0")}` as const;
const TOKEN = TEST_TOKEN;

function accepted(n: number): JournalRecord {
  return {
    type: "accepted",
    challenge: testJournaledChallenge(n),
    path: "self-transfer",
    payloadDigest: hash(n),
    burnTxHash: hash(n),
    burnBlockNumber: "5",
    token: TOKEN,
    verifier: TOKEN,
    treasury: TOKEN,
    at: 10,
  };
}

const finalized = (n: number): JournalRecord => ({ type: "finalized", challengeNonce: nonce(n), mintTxHash: hash(n + 100), at: 20 });

function bookOf(lines: unknown[]): SettlementBook {
  const book = new SettlementBook();
  // Through the schema, as a journal line is read back at start.
  for (const line of lines) book.apply(JournalRecordSchema.parse(JSON.parse(JSON.stringify(line))));
  return book;
}

describe("SettlementBook fee sweeps", () => {
  it("folds an aggregated sweep onto every payment it covers and starts the interval at it", () => {
    const sweep = { type: "fee_sweep_batch", challengeNonces: [nonce(1), nonce(2)], txHash: hash(900), rawTransaction: "0x02f8", amount: "20", at: 30 };
    const book = bookOf([accepted(1), accepted(2), accepted(3), finalized(1), finalized(2), finalized(3), sweep]);
    const expected = { challengeNonces: [nonce(1), nonce(2)], txHash: hash(900), rawTransaction: "0x02f8", amount: "20", at: 30 };
    expect(book.entry(nonce(1))?.feeSweep).toEqual(expected);
    expect(book.entry(nonce(2))?.feeSweep).toEqual(expected);
    expect(book.entry(nonce(3))?.feeSweep).toBeUndefined();
    expect(book.lastFeeSweepAt).toBe(30);
  });

  it("still reads an older journal's per-payment sweep as a sweep covering that one payment", () => {
    const old = { type: "fee_sweep", challengeNonce: nonce(1), txHash: hash(901), rawTransaction: "0x02f9", amount: "10", at: 25 };
    const book = bookOf([accepted(1), finalized(1), old]);
    expect(book.entry(nonce(1))?.feeSweep).toEqual({ challengeNonces: [nonce(1)], txHash: hash(901), rawTransaction: "0x02f9", amount: "10", at: 25 });
    expect(book.lastFeeSweepAt).toBe(25);
  });

  it("a later sweep of the same payment (after a void one) replaces the earlier; a splitter distribution starts the interval too", () => {
    const first = { type: "fee_sweep_batch", challengeNonces: [nonce(1)], txHash: hash(902), rawTransaction: "0x02fa", amount: "10", at: 30 };
    const second = { type: "fee_sweep_batch", challengeNonces: [nonce(1), nonce(2)], txHash: hash(903), rawTransaction: "0x02fb", amount: "20", at: 40 };
    const book = bookOf([accepted(1), accepted(2), finalized(1), finalized(2), first, second]);
    expect(book.entry(nonce(1))?.feeSweep?.txHash).toBe(hash(903));
    const distributed = bookOf([accepted(1), finalized(1), { type: "fee_settled", challengeNonce: nonce(1), txHash: hash(904), amount: "10", at: 50 }]);
    expect(distributed.entry(nonce(1))?.feeSettledAt).toBe(50);
    expect(distributed.lastFeeSweepAt).toBe(50);
    expect(bookOf([accepted(1), finalized(1), { type: "fee_settled", challengeNonce: nonce(1), amount: "0", at: 50 }]).lastFeeSweepAt).toBeUndefined();
  });

  it("refuses an aggregated sweep that covers no payment", () => {
    const empty = { type: "fee_sweep_batch", challengeNonces: [], txHash: hash(905), rawTransaction: "0x02fc", amount: "0", at: 30 };
    expect(JournalRecordSchema.safeParse(empty).success).toBe(false);
  });
});
