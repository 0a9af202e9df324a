import { type PaymentRequired, PaymentRequiredSchema } from "../wire/paymentRequired.js";
import { encodeBase64Json, decodeBase64Json } from "./base64Json.js";
import { PAYMENT_REQUIRED_HEADER } from "./headerNames.js";

/** Encodes a 402 body as the `PAYMENT-REQUIRED` value, identical to @x402/core's encoder. */
export function encodePaymentRequiredHeader(paymentRequired: PaymentRequired): string {
  return encodeBase64Json(paymentRequired);
}

/**
 * Decodes and validates a `PAYMENT-REQUIRED` value; throws `InvalidHeaderError`.
 *
 * @example
 * const offers = selectSchemeRequirements(decodePaymentRequiredHeader(response.headers.get("PAYMENT-REQUIRED") ?? ""));
 */
export function decodePaymentRequiredHeader(value: string): PaymentRequired {
  return decodeBase64Json(PAYMENT_REQUIRED_HEADER, value, PaymentRequiredSchema);
}
