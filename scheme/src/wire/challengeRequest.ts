import { z } from "zod";

import { DecimalStringSchema } from "./decimalString.js";

/** The body of `POST /challenge`: the list price in base units the provider wants an offer for. */
export const ChallengeRequestSchema = z.looseObject({
  amount: DecimalStringSchema,
});

/** The body of `POST /challenge`. */
export type ChallengeRequest = z.infer<typeof ChallengeRequestSchema>;
