/** The 402 response header: base64 JSON `PaymentRequired`. */
export const PAYMENT_REQUIRED_HEADER = "PAYMENT-REQUIRED";

/** The paying request header: base64 JSON `PaymentPayload`. */
export const PAYMENT_SIGNATURE_HEADER = "PAYMENT-SIGNATURE";

/** The served (or settle-failed) response header: base64 JSON `SettleResponse`. */
export const PAYMENT_RESPONSE_HEADER = "PAYMENT-RESPONSE";
