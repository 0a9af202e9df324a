import { type SettleResponse, SettleResponseSchema } from "../wire/settleResponse.js";
import { encodeBase64Json, decodeBase64Json } from "./base64Json.js";
import { PAYMENT_RESPONSE_HEADER } from "./headerNames.js";

/**
 * Encodes a settle answer as the `PAYMENT-RESPONSE` value, identical to @x402/core's encoder, which drops
 * `extensionResponses` because they are meant for the server, not the buyer.
 */
export function encodePaymentResponseHeader(settleResponse: SettleResponse): string {
  const { extensionResponses: _serverOnly, ...buyerFacing } = settleResponse;
  return encodeBase64Json(buyerFacing);
}

/** Decodes and validates a `PAYMENT-RESPONSE` value; throws `InvalidHeaderError`. */
export function decodePaymentResponseHeader(value: string): SettleResponse {
  return decodeBase64Json(PAYMENT_RESPONSE_HEADER, value, SettleResponseSchema);
}
