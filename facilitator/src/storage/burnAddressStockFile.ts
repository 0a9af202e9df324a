/**
 * The burn-address stock on disk, so a restart does not re-derive it: a JSON-lines file (`<journal>.stock`)
 * of `add` records (payment id and proof-of-work nonce) and `take` records (payment id). Nothing in it is
 * secret: the secret re-derives from the seed and the payment id, and the nonce only saves the search.
 *
 * - A `take` is fsynced before it resolves, and the pool awaits it before handing the address out, so an
 *   address is never issued twice, across restarts too. Records written close together share one fsync.
 * - The first line binds the file to the protocol version, the chain, the treasury and a one-way tag of the
 *   seed; a file written for another binding is discarded rather than trusted (its nonces would describe
 *   other secrets, or addresses of another version's formula).
 * - On open the file is compacted to what is still in stock, and again whenever it has grown well past it.
 * - A damaged file is discarded and started afresh: the stock is a cache, and dropping entries never
 *   re-issues one (new entries get new random payment ids).
 */
import { rm } from "node:fs/promises";
import { ProtocolVersionSchema } from "@svc/scheme";
import { concat, keccak256, toHex, type Hex } from "viem";
import { z } from "zod";

import {
  BURN_ADDRESS_STOCK_TAG,
  type BurnAddressStockBinding,
  type BurnAddressStockStore,
  type StockDiscardReason,
  type StockedNonce,
} from "../challenges/burnAddressStock.js";
import { CorruptJournalError } from "../journal/errors.js";
import { type JsonlFile, openJsonlFile } from "../journal/jsonlFile.js";

const HeaderSchema = z.object({
  kind: z.literal("svc-burn-address-stock"),
  version: z.literal(1),
  // Files written before versions were recorded hold v1 addresses.
  protocol: ProtocolVersionSchema.default("zerc20-v1"),
  chain_id: z.number().int(),
  treasury: z.string(),
  seed_tag: z.string(),
});
const RecordSchema = z.union([
  z.object({ add: z.string().regex(/^0x[0-9a-f]{64}$/), nonce: z.string().regex(/^\d{1,20}$/) }),
  z.object({ take: z.string().regex(/^0x[0-9a-f]{64}$/) }),
]);

type Header = z.infer<typeof HeaderSchema>;

function headerFor(binding: BurnAddressStockBinding): Header {
  return {
    kind: "svc-burn-address-stock",
    version: 1,
    protocol: binding.protocol,
    chain_id: binding.chainId,
    treasury: binding.treasury.toLowerCase(),
    seed_tag: keccak256(concat([toHex(BURN_ADDRESS_STOCK_TAG), binding.seed])),
  };
}

/** Replays `lines` into the entries still in stock, or `undefined` when they do not form a stock file of `header`. */
function replay(lines: readonly unknown[], header: Header): Map<Hex, bigint> | StockDiscardReason | undefined {
  if (lines.length === 0) return undefined;
  const parsedHeader = HeaderSchema.safeParse(lines[0]);
  if (!parsedHeader.success) return "damaged";
  const { kind, version, protocol, chain_id, treasury, seed_tag } = parsedHeader.data;
  if (kind !== header.kind || version !== header.version || protocol !== header.protocol || chain_id !== header.chain_id) return "binding_changed";
  if (treasury !== header.treasury || seed_tag !== header.seed_tag) return "binding_changed";
  const stock = new Map<Hex, bigint>();
  for (const line of lines.slice(1)) {
    const record = RecordSchema.safeParse(line);
    if (!record.success) return "damaged";
    if ("add" in record.data) stock.set(record.data.add as Hex, BigInt(record.data.nonce));
    else stock.delete(record.data.take as Hex);
  }
  return stock;
}

/**
 * A {@link BurnAddressStockStore} in a JSONL file with fsync.
 *
 * @example
 * const stock = await BurnAddressStockFile.open(`${journalPath}.stock`, { chainId, treasury, seed });
 * const pool = new BurnAddressPool({ chainId, treasury, seed, stock });
 */
export class BurnAddressStockFile implements BurnAddressStockStore {
  readonly restored: readonly StockedNonce[];
  /** Set when an existing file was not restored. */
  readonly discarded: StockDiscardReason | undefined;
  readonly #file: JsonlFile;
  readonly #header: Header;
  readonly #live: Map<Hex, bigint>;
  #recordsSinceCompaction = 0;
  #batch: unknown[] | undefined;
  #batchWritten: Promise<void> = Promise.resolve();
  #tail: Promise<void> = Promise.resolve();

  private constructor(file: JsonlFile, header: Header, live: Map<Hex, bigint>, discarded: StockDiscardReason | undefined) {
    this.#file = file;
    this.#header = header;
    this.#live = live;
    this.discarded = discarded;
    this.restored = [...live].map(([paymentId, nonce]) => ({ paymentId, nonce }));
  }

  /** Opens (creating if missing) the stock file at `path` for `binding`, compacting it to the entries in stock. */
  static async open(path: string, binding: BurnAddressStockBinding): Promise<BurnAddressStockFile> {
    const header = headerFor(binding);
    let file: JsonlFile;
    let discarded: StockDiscardReason | undefined;
    try {
      file = await openJsonlFile(path);
    } catch (error) {
      if (!(error instanceof CorruptJournalError)) throw error;
      await rm(path, { force: true });
      file = await openJsonlFile(path);
      discarded = "damaged";
    }
    const replayed = replay(file.lines, header);
    const live = replayed instanceof Map ? replayed : new Map<Hex, bigint>();
    if (typeof replayed === "string") discarded = replayed;
    const stock = new BurnAddressStockFile(file, header, live, discarded);
    await stock.#compact();
    return stock;
  }

  add(entry: StockedNonce): Promise<void> {
    this.#live.set(entry.paymentId, entry.nonce);
    return this.#write({ add: entry.paymentId, nonce: entry.nonce.toString() });
  }

  take(paymentId: Hex): Promise<void> {
    this.#live.delete(paymentId);
    return this.#write({ take: paymentId });
  }

  /** Waits for every queued record, then closes the file. */
  async close(): Promise<void> {
    await this.#tail;
    await this.#file.close();
  }

  // Group commit: records queued while a write is in flight go out together, with one fsync.
  #write(record: unknown): Promise<void> {
    if (this.#batch === undefined) {
      const batch: unknown[] = [];
      this.#batch = batch;
      this.#batchWritten = this.#tail.then(async () => {
        this.#batch = undefined;
        await this.#file.appendMany(batch);
        this.#recordsSinceCompaction += batch.length;
        // Two records per address over a long run: rewrite once the file is mostly history.
        if (this.#recordsSinceCompaction > 64 + 4 * this.#live.size) await this.#compact();
      });
      this.#tail = this.#batchWritten.catch(() => undefined);
    }
    this.#batch.push(record);
    return this.#batchWritten;
  }

  // Records still queued after this point are appended after the rewrite, so replay stays correct.
  async #compact(): Promise<void> {
    const adds = [...this.#live].map(([paymentId, nonce]) => ({ add: paymentId, nonce: nonce.toString() }));
    await this.#file.replace([this.#header, ...adds]);
    this.#recordsSinceCompaction = 0;
  }
}
