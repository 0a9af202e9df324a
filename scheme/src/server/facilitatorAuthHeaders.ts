import { providerAuthorization } from "../wire/providerHeaders.js";

/** The header sets `HTTPFacilitatorClient`'s `createAuthHeaders` must resolve, one per facilitator operation. */
export type FacilitatorAuthHeaders = {
  verify: Record<string, string>;
  settle: Record<string, string>;
  supported: Record<string, string>;
};

/**
 * The `createAuthHeaders` option of `@x402/core`'s `HTTPFacilitatorClient` that sends the provider key on
 * `/verify`, `/settle` and `/supported`, so those calls count against this provider's own limits (the
 * plugin sends the same key on `/challenge`).
 *
 * @example
 * const facilitator = new HTTPFacilitatorClient({ url, createAuthHeaders: facilitatorAuthHeaders(providerKey) });
 */
export function facilitatorAuthHeaders(providerKey: string): () => Promise<FacilitatorAuthHeaders> {
  const headers = { Authorization: providerAuthorization(providerKey) };
  return async () => ({ verify: { ...headers }, settle: { ...headers }, supported: { ...headers } });
}
