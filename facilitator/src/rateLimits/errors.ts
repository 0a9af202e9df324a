/** Errors of the rate limiters. */
import { BaseError } from "../errors/base.js";

/** A rate limiter was built with a limit it cannot enforce (it must be a positive integer). */
export class InvalidRateLimitError extends BaseError {
  override name = "InvalidRateLimitError";

  constructor({ limit }: { limit: number }) {
    super(`a rate limit must be a positive integer, got ${limit}`, {
      details: "a limit of 0 or less means disabled: build no limiter at all",
    });
  }
}
