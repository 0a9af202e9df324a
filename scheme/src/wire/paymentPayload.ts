import { z } from "zod";

import { PaymentRequirementsSchema } from "./paymentRequirements.js";
import { ResourceInfoSchema } from "./resourceInfo.js";
import { X402_VERSION } from "./scheme.js";

/**
 * The x402 v2 payment carried in `PAYMENT-SIGNATURE`. `payload` is kept as an open record here: which of
 * the two shapes it is, or whether it is malformed, is decided by `classifyPayload`, so a bad payload is a
 * verify result (`malformed_payload`) rather than an envelope parse failure.
 */
export const PaymentPayloadSchema = z.looseObject({
  x402Version: z.literal(X402_VERSION),
  /** The offer from the 402, echoed verbatim. */
  accepted: PaymentRequirementsSchema,
  payload: z.record(z.string(), z.unknown()),
  resource: ResourceInfoSchema.optional(),
  extensions: z.record(z.string(), z.unknown()).optional(),
});

/** The x402 v2 payment envelope of an svc-zerc20 payment. */
export type PaymentPayload = z.infer<typeof PaymentPayloadSchema>;
