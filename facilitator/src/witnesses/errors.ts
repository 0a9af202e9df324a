/** Errors of the transfer-tree follower. */
import { BaseError } from "../errors/base.js";

/**
 * The follower's root at a proved tree index is not the verifier's: a leaf formula, a missed or doubled log, or
 * a wrong deployment. The follower stops for good (no path of a wrong tree ever reaches a mint) until an
 * operator looks; its state is kept as it was before the mismatch.
 */
export class WitnessRootMismatchError extends BaseError {
  override name = "WitnessRootMismatchError";
  constructor({ index, proved, computed }: { index: bigint; proved: bigint; computed: bigint }) {
    super(`the followed transfer tree's root at index ${index} is not the verifier's proved root`, {
      details: `proved 0x${proved.toString(16)}, followed 0x${computed.toString(16)}`,
    });
  }
}

/** The token's logs skipped an `IndexedTransfer` index: the RPC answered an incomplete range. The sync is retried. */
export class TransferLogGapError extends BaseError {
  override name = "TransferLogGapError";
  constructor({ expected, received }: { expected: bigint; received: bigint }) {
    super(`IndexedTransfer ${received} arrived while ${expected} was expected next`);
  }
}

/** Why the follower cannot give a path. */
export type WitnessUnavailableReason = "behind" | "ahead" | "untracked";

/** The follower holds no path for a leaf under the asked root: it has not reached that index, passed it, or never tracked the leaf. */
export class WitnessUnavailableError extends BaseError {
  override name = "WitnessUnavailableError";
  readonly reason: WitnessUnavailableReason;
  constructor({ targetIndex, leafIndex, reason }: { targetIndex: bigint; leafIndex?: bigint; reason: WitnessUnavailableReason }) {
    super(`no followed path ${leafIndex === undefined ? "" : `for leaf ${leafIndex} `}under the root at index ${targetIndex}: ${reason}`);
    this.reason = reason;
  }
}
