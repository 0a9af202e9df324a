import { z } from "zod";

import { AddressSchema } from "./address.js";
import { DecimalStringSchema } from "./decimalString.js";
import { SubethaExtraSchema } from "./subethaExtra.js";

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
  // The offer's `extra` fields, flat, defined once in `SubethaExtraSchema` (as `toChallengeOffer` spreads `offerExtra`).
  ...SubethaExtraSchema.shape,
});

/** The answer of `POST /challenge`. */
export type ChallengeOffer = z.infer<typeof ChallengeOfferSchema>;
