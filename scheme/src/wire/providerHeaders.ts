/**
 * The two headers a provider sends the facilitator when `[providers.*]` is configured there: its own key as a
 * bearer token on every call, and on `POST /challenge` the address its payer called from, so the per-payer
 * issuance limit can tell payers apart behind one provider. The facilitator believes the payer address only
 * from a caller that presented a valid provider key.
 */

/** Carries the payer's client address (an IP address) on `POST /challenge`. */
export const PAYER_ADDRESS_HEADER = "X-Svc-Payer-Address";

/** The `Authorization` value that authenticates a provider. */
export function providerAuthorization(providerKey: string): string {
  return `Bearer ${providerKey}`;
}
