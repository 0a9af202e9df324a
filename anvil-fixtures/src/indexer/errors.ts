/** Errors of the fixture indexer: its root job and its HTTP API. */
import type { Hash } from "viem";
import { BaseError } from "../errors.js";

/** The verifier reserved a hash chain the indexer has not synced (or disagrees with): it will resync. */
export class IndexerOutOfSyncError extends BaseError {
  override name = "IndexerOutOfSyncError";
  constructor(readonly context: { reservedIndex: number; syncedIndex: number }) {
    super(`indexer has ${context.syncedIndex} transfers but the verifier reserved index ${context.reservedIndex} with another hash chain`);
  }
}

/** A transaction of the root job was mined but reverted. */
export class RootJobRevertedError extends BaseError {
  override name = "RootJobRevertedError";
  constructor(readonly context: { step: "reserveHashChain" | "proveTransferRoot"; transactionHash: Hash }) {
    super(`root job: ${context.step} reverted (transaction ${context.transactionHash})`);
  }
}

/** A request the indexer API refuses; `status` is the HTTP status it answers with, the message is safe to show. */
export class IndexerRequestError extends BaseError {
  override name = "IndexerRequestError";
  constructor(
    readonly status: 400 | 404,
    message: string,
  ) {
    super(message);
  }
}
