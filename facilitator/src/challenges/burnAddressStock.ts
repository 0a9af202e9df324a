/**
 * What the burn-address pool keeps its stock in: derived addresses waiting to be handed out, kept across restarts
 * so they are not derived again. The stores live in storage/ (a JSON-lines file for the embedded adapter, rows for
 * PostgreSQL); this is the port they implement.
 */
import type { Hex } from "viem";
import type { BurnTarget } from "./burnSecretInputs.js";

/** Domain tag of the seed tag in the header (fixed length, like the payment-secret tags). */
export const BURN_ADDRESS_STOCK_TAG = "stok";

/** What a stock file belongs to. */
export type BurnAddressStockBinding = BurnTarget & { seed: Hex };

/** One stocked derivation: enough to rebuild its burn secret with one hash. */
export type StockedNonce = { paymentId: Hex; nonce: bigint };

/** Why an existing file's content was not restored. */
export type StockDiscardReason = "binding_changed" | "damaged";

/** The persistence a {@link BurnAddressPool} uses; the embedded adapter keeps it in a file (`storage/burnAddressStockFile.ts`), PostgreSQL in rows. */
export type BurnAddressStockStore = {
  /** Entries left in stock at the last run, oldest first. */
  readonly restored: readonly StockedNonce[];
  /** Why the stored stock was dropped at open (another binding, damage), if it was. */
  readonly discarded?: StockDiscardReason | undefined;
  /** Records a newly stocked entry (durability is best effort: losing it only costs a re-derivation). */
  add(entry: StockedNonce): Promise<void>;
  /** Records that `paymentId` left the stock; resolves once durable. */
  take(paymentId: Hex): Promise<void>;
  close(): Promise<void>;
};
