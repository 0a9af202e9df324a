import type { PaymentRequired } from "./paymentRequired.js";
import { type PaymentRequirements, PaymentRequirementsSchema } from "./paymentRequirements.js";

/** The svc-zerc20 offers of a 402 body, in the order the server listed them. */
export function selectSchemeRequirements(paymentRequired: PaymentRequired): PaymentRequirements[] {
  // Re-checking instead of comparing `scheme` lets the type narrow without a cast.
  return paymentRequired.accepts.flatMap((entry) => {
    const parsed = PaymentRequirementsSchema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}
