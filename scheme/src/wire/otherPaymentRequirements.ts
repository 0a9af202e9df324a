import { z } from "zod";

import { SCHEME } from "./scheme.js";

/**
 * An x402 v2 offer of some other scheme, checked only as far as x402 itself defines it. A 402 may offer
 * several schemes; the payer picks ours and must not fail on the others.
 */
export const OtherPaymentRequirementsSchema = z.looseObject({
  scheme: z
    .string()
    .min(1)
    .refine((scheme) => scheme !== SCHEME, { error: `${SCHEME} offers must match the svc-zerc20 shape` }),
  network: z.templateLiteral([z.string().min(1), ":", z.string().min(1)], {
    error: "expected a CAIP-2 network identifier",
  }),
  asset: z.string().min(1),
  amount: z.string().min(1),
  payTo: z.string().min(1),
  maxTimeoutSeconds: z.number().positive(),
  extra: z.record(z.string(), z.unknown()).optional(),
});

/** An x402 v2 offer of another scheme, passed through untouched. */
export type OtherPaymentRequirements = z.infer<typeof OtherPaymentRequirementsSchema>;
