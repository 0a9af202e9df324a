/**
 * Section 12's synthetic payment history: a `PAYMENT_HISTORY_PATH` file of as many JSON lines as asked, in the
 * facilitator's history format (`facilitator/src/history/record/historyRecord.ts`, `v: 1`), written the way the
 * facilitator's recorder writes them. Each payment is three lines, `intent`, `accepted` and `finalized`, with a
 * paymentId, salt, burn address (`payTo`) and transaction hashes of its own (digests of a per-file seed and the
 * payment's index), one of three prices, mostly permit and every fourth a self-transfer, one payment every
 * 30 s up to now. The last payment is cut short when the line count is not a multiple of three, which the
 * format allows (a payment that has not been accepted yet).
 *
 * The file is streamed a batch of lines at a time, each batch made only once the file has taken the previous
 * ones, so memory stays a few batches whatever the size. It lives in the bench: the facilitator never writes anything but real payments.
 */
import { createHash, randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/** One participant binding, as the `HISTORY_*_TENANT` and `HISTORY_*_ACTOR` variables set it. */
export type HistoryBinding = { tenantId: string; actorId: string };

/** What every payment of the file shares. */
export type SyntheticHistoryShape = {
  /** Both bindings: the same values the facilitator's environment sets, so every payment is visible to its roles. */
  bindings: { payer: HistoryBinding; provider: HistoryBinding };
  /** CAIP-2 network, `eip155:31337`. */
  network: string;
  /** The token (`asset`), lowercase or checksummed. */
  asset: string;
  /** `settlement.treasury` (`recipient`). */
  recipient: string;
  /** Unix seconds of the last payment's intent; default now. */
  endAt?: number;
  /** Makes the ids and hashes differ between files; default random. */
  seed?: string;
};

/** Lines per payment: intent, accepted, finalized. */
export const LINES_PER_PAYMENT = 3;

/** Seconds between two payments' intents. */
const PAYMENT_GAP_SECONDS = 30;

/** List prices with the local stack's 1% payer fee, base units. */
const AMOUNTS = ["1010000000000000", "2020000000000000", "5050000000000000"] as const;

/** Distinct payers the payments cycle through. */
const PAYERS = 64;

/** Lines per write. */
const BATCH_LINES = 1024;

function hexDigest(algorithm: "sha256" | "sha512", text: string): string {
  return createHash(algorithm).update(text).digest("hex");
}

/**
 * The JSON lines of payment `index` (0-based) of a file of `payments` payments, in file order; `lines` (1 to 3)
 * cuts it short.
 */
export function syntheticPaymentLines(shape: Required<SyntheticHistoryShape>, payments: number, index: number, lines = LINES_PER_PAYMENT): string[] {
  const ids = hexDigest("sha512", `${shape.seed}/payment/${index}`);
  const hashes = hexDigest("sha512", `${shape.seed}/tx/${index}`);
  const paymentId = `0x${ids.slice(0, 64)}`;
  const at = shape.endAt - (payments - 1 - index) * PAYMENT_GAP_SECONDS;
  const payer = `0x${hexDigest("sha256", `${shape.seed}/payer/${index % PAYERS}`).slice(0, 40)}`;
  const path = index % 4 === 3 ? "self-transfer" : "permit";
  const intent = {
    v: 1,
    type: "intent",
    paymentId,
    at,
    path,
    network: shape.network,
    asset: shape.asset,
    payTo: `0x${hexDigest("sha256", `${shape.seed}/burn-address/${index}`).slice(0, 40)}`,
    amount: AMOUNTS[index % AMOUNTS.length],
    // The permit path knows its payer before the burn; a self-transfer's is learnt from its burn.
    ...(path === "permit" ? { payer } : {}),
    recipient: shape.recipient,
    bindings: { payer: { ...shape.bindings.payer }, provider: { ...shape.bindings.provider } },
    salt: ids.slice(64, 128),
  };
  const accepted = { v: 1, type: "accepted", paymentId, at: at + 4, burnTxHash: `0x${hashes.slice(0, 64)}`, payer };
  const finalized = { v: 1, type: "finalized", paymentId, at: at + 90, mintTxHash: `0x${hashes.slice(64, 128)}` };
  return [intent, accepted, finalized].slice(0, lines).map((record) => JSON.stringify(record));
}

/**
 * Writes `records` lines of synthetic history to `path` (replacing it); resolves with the bytes written once
 * the file is closed. The lines come from a generator a batch at a time and `pipeline` pulls the next batch only
 * while the file stream has room (backpressure).
 * @example
 * const { bytes } = await writeSyntheticHistory(join(dir, "history.jsonl"), 1_000_000, { bindings, network: "eip155:31337", asset, recipient });
 */
export async function writeSyntheticHistory(path: string, records: number, shape: SyntheticHistoryShape): Promise<{ records: number; bytes: number }> {
  const full: Required<SyntheticHistoryShape> = {
    ...shape,
    endAt: shape.endAt ?? Math.floor(Date.now() / 1000),
    seed: shape.seed ?? randomBytes(16).toString("hex"),
  };
  const payments = Math.ceil(records / LINES_PER_PAYMENT);
  let bytes = 0;
  function* batches(): Generator<string> {
    let batch: string[] = [];
    for (let index = 0; index < payments; index++) {
      batch.push(...syntheticPaymentLines(full, payments, index, Math.min(LINES_PER_PAYMENT, records - index * LINES_PER_PAYMENT)));
      if (batch.length < BATCH_LINES && index < payments - 1) continue;
      const text = `${batch.join("\n")}\n`;
      batch = [];
      bytes += Buffer.byteLength(text);
      yield text;
    }
  }
  await pipeline(Readable.from(batches()), createWriteStream(path, { flags: "w" }));
  return { records, bytes };
}
