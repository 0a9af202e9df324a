import { BaseError } from "../errors.js";

/** The verifier reserved a hash chain the indexer has not synced (or disagrees with): it will resync. */
export class IndexerOutOfSyncError extends BaseError {
  override name = "IndexerOutOfSyncError";
  constructor(readonly context: { reservedIndex: number; syncedIndex: number }) {
    super(`indexer has ${context.syncedIndex} transfers but the verifier reserved index ${context.reservedIndex} with another hash chain`);
  }
}
