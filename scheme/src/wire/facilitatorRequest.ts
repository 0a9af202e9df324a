import { z } from "zod";

import { PaymentPayloadSchema } from "./paymentPayload.js";
import { PaymentRequirementsSchema } from "./paymentRequirements.js";
import { X402_VERSION } from "./scheme.js";

/**
 * The body of `POST /verify` and `POST /settle` as @x402/core's facilitator client sends it. The
 * `paymentRequirements` are untrusted: the facilitator compares them with its own challenge record.
 */
export const FacilitatorRequestSchema = z.looseObject({
  x402Version: z.literal(X402_VERSION),
  paymentPayload: PaymentPayloadSchema,
  paymentRequirements: PaymentRequirementsSchema,
});

/** The body of `POST /verify` and `POST /settle`. */
export type FacilitatorRequest = z.infer<typeof FacilitatorRequestSchema>;
