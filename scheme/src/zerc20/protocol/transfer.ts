import type { Address } from "viem";

/** One `IndexedTransfer` as the protocol hashes it (leaf and hash chain): who sent what to whom. */
export type IndexedTransferFields = { from: Address; to: Address; value: bigint };
