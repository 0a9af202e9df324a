import { BaseError } from "../errors/base.js";

/**
 * Thrown by the payer plugin when core hands it something that is not a usable svc-zerc20 offer (wrong
 * x402 version, another scheme, a shape our schema refuses). Names the problem, never the offer's values.
 */
export class InvalidOfferError extends BaseError {
  override name = "InvalidOfferError";
  constructor({ details }: { details: string }) {
    super("The offer is not a valid svc-zerc20 x402 v2 offer.", { details });
  }
}

/**
 * Thrown before anything is signed or broadcast when the offer's life is over, or, for a self-transfer, when
 * less than the safety margin is left: a burn that lands after `expiresAt` is refused on every path and the
 * funds are lost to the payer.
 */
export class OfferExpiringError extends BaseError {
  override name = "OfferExpiringError";
  /** The offer's `extra.expiresAt`, unix seconds. */
  readonly expiresAt: number;
  /** Whole seconds the offer had left when the payer checked (zero or negative once expired). */
  readonly secondsLeft: number;
  constructor({ expiresAt, secondsLeft, minimumSeconds }: { expiresAt: number; secondsLeft: number; minimumSeconds: number }) {
    super(
      secondsLeft <= 0
        ? "The offer has expired; request the resource again for a fresh offer."
        : `The offer expires in ${secondsLeft} s, inside the ${minimumSeconds} s safety margin; request the resource again for a fresh offer.`,
      { details: `extra.expiresAt ${expiresAt}` },
    );
    this.expiresAt = expiresAt;
    this.secondsLeft = secondsLeft;
  }
}

/** Thrown when the RPC the payer was given serves a different chain than the offer's network. */
export class ChainMismatchError extends BaseError {
  override name = "ChainMismatchError";
  /** Chain id named by the offer. */
  readonly expected: number;
  /** Chain id the RPC reported. */
  readonly actual: number;
  constructor({ expected, actual }: { expected: number; actual: number }) {
    super(`The RPC serves chain ${actual}, but the offer is for chain ${expected}.`);
    this.expected = expected;
    this.actual = actual;
  }
}

/** Thrown before signing or broadcasting when the payer's token balance cannot cover the quoted amount. */
export class InsufficientTokenBalanceError extends BaseError {
  override name = "InsufficientTokenBalanceError";
  /** The payer's balance in base units. */
  readonly balance: bigint;
  /** The quoted amount in base units. */
  readonly amount: bigint;
  constructor({ balance, amount }: { balance: bigint; amount: bigint }) {
    super(`The payer's token balance (${balance}) does not cover the quoted amount (${amount}).`);
    this.balance = balance;
    this.amount = amount;
  }
}

/** Thrown when the quoted amount is above the spend cap the x402 client resolved for this asset. */
export class SpendCapExceededError extends BaseError {
  override name = "SpendCapExceededError";
  constructor({ amount, cap }: { amount: bigint; cap: string }) {
    super(`The quoted amount ${amount} is above the per-payment cap ${cap}.`);
  }
}

/**
 * Thrown when the node refused the self-transfer burn (it answered with an error, or the transaction could
 * not be prepared): nothing reached the chain, so the payment definitely did not happen.
 */
export class BurnBroadcastError extends BaseError {
  override name = "BurnBroadcastError";
  constructor({ cause }: { cause?: unknown } = {}) {
    super("The burn transfer could not be broadcast; nothing was sent.", { cause });
  }
}

/** Thrown when the self-transfer burn was mined but reverted: the tokens did not move (only gas was spent). */
export class BurnRevertedError extends BaseError {
  override name = "BurnRevertedError";
  /** The reverted transaction. */
  readonly txHash: `0x${string}`;
  constructor({ txHash }: { txHash: `0x${string}` }) {
    super("The burn transfer reverted; the tokens did not move.", { details: `transaction ${txHash}` });
    this.txHash = txHash;
  }
}

/**
 * Thrown when the self-transfer burn may have been broadcast but no successful receipt arrived in time: the
 * outcome is unknown, the tokens may already be gone, and the payer must not burn again for this offer.
 */
export class BurnUnconfirmedError extends BaseError {
  override name = "BurnUnconfirmedError";
  /** The transaction that may still be mined. */
  readonly txHash: `0x${string}`;
  constructor({ txHash, cause }: { txHash: `0x${string}`; cause?: unknown }) {
    super("The burn transfer was sent but not confirmed; its outcome is unknown.", {
      details: `transaction ${txHash}`,
      cause,
    });
    this.txHash = txHash;
  }
}
