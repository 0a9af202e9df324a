import { type PaymentPayload, PaymentPayloadSchema } from "../wire/paymentPayload.js";
import { encodeBase64Json, decodeBase64Json } from "./base64Json.js";
import { PAYMENT_SIGNATURE_HEADER } from "./headerNames.js";

/** Encodes a payment as the `PAYMENT-SIGNATURE` value, identical to @x402/core's encoder. */
export function encodePaymentSignatureHeader(paymentPayload: PaymentPayload): string {
  return encodeBase64Json(paymentPayload);
}

/**
 * Decodes and validates a `PAYMENT-SIGNATURE` value; throws `InvalidHeaderError`. The inner `payload` is
 * left to `classifyPayload`, so a provider can read `accepted.extra.challengeNonce` of any svc-zerc20 payment.
 */
export function decodePaymentSignatureHeader(value: string): PaymentPayload {
  return decodeBase64Json(PAYMENT_SIGNATURE_HEADER, value, PaymentPayloadSchema);
}
