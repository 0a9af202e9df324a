/** Errors for prices that cannot be quoted. */
import { BaseError } from "./base.js";

/**
 * Thrown when a list price is negative or the quoted amount would exceed the largest zERC20 transfer value
 * (2^248 - 1): such an offer could never be paid, since the token reverts above that bound.
 */
export class QuoteOutOfRangeError extends BaseError {
  override name = "QuoteOutOfRangeError";

  constructor({ reason }: { reason: string }) {
    super(`Cannot quote this price: ${reason}.`);
  }
}
