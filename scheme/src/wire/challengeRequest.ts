import { z } from "zod";

import { DecimalStringSchema } from "./decimalString.js";

/**
 * The largest amount a zERC20 transfer (and so the verifier's mint) can carry: the token reverts above
 * 2^248 - 1, so an offer for more could be accepted but never paid out.
 */
export const MAX_CHALLENGE_AMOUNT = (1n << 248n) - 1n;

/** The body of `POST /challenge`: the list price in base units the provider wants an offer for. */
export const ChallengeRequestSchema = z.looseObject({
  amount: DecimalStringSchema.refine((value) => BigInt(value) <= MAX_CHALLENGE_AMOUNT, {
    error: "exceeds the largest zERC20 transfer value (2^248 - 1)",
  }),
});

/** The body of `POST /challenge`. */
export type ChallengeRequest = z.infer<typeof ChallengeRequestSchema>;
