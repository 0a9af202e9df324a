import { z } from "zod";

import { AddressSchema } from "./address.js";
import { Bytes32Schema } from "./bytes32.js";
import { DecimalStringSchema } from "./decimalString.js";
import { FeeSchema } from "./fee.js";
import { TokenDecimalsSchema } from "./tokenDecimals.js";

const unixSeconds = z.number().int().nonnegative();

/**
 * The answer of `POST /challenge`: everything a provider needs to build one offer. `payTo` and `amount`
 * must reach the 402 unchanged, because the x402 matcher compares them as exact strings.
 */
export const ChallengeOfferSchema = z.looseObject({
  /** The one-time burn address. */
  payTo: AddressSchema,
  /** Quoted amount in base units (list price plus any payer-charged fee). */
  amount: DecimalStringSchema,
  token: AddressSchema,
  chainId: z.number().int().positive(),
  challengeNonce: Bytes32Schema,
  expiresAt: unixSeconds,
  helper: AddressSchema.optional(),
  deadline: unixSeconds.optional(),
  fee: FeeSchema.optional(),
  decimals: TokenDecimalsSchema.optional(),
});

/** The answer of `POST /challenge`. */
export type ChallengeOffer = z.infer<typeof ChallengeOfferSchema>;
