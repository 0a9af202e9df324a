import { pooledFetch } from "../http/createPooledFetch.js";
import { requestFacilitatorJson } from "../http/requestFacilitatorJson.js";
import { type ChallengeOffer, ChallengeOfferSchema } from "../wire/challengeOffer.js";
import type { DecimalString } from "../wire/decimalString.js";
import { describeIssues } from "../wire/describeIssues.js";
import { type Network, parseNetwork } from "../wire/network.js";
import { PAYER_ADDRESS_HEADER, providerAuthorization } from "../wire/providerHeaders.js";
import { type ChallengeFailure, ChallengeRequestError } from "./errors.js";

/** Default bound on one `POST /challenge`, short because a paying client is waiting for its 402. */
export const DEFAULT_CHALLENGE_TIMEOUT_MS = 10_000;

/** Where and how to ask for offers. */
export type CreateChallengeClientParameters = {
  /** The facilitator's base URL, e.g. `http://127.0.0.1:4032`; `/challenge` is appended. */
  facilitatorUrl: string;
  /** The network the provider sells on; an offer for another chain is refused. */
  network: Network;
  /**
   * Injected for tests and custom transports; defaults to `pooledFetch` (undici's `request` on a shared
   * keep-alive pool: the offer's hop is on every unpaid request's path, and costs half the CPU of `fetch` there).
   */
  fetch?: typeof fetch | undefined;
  /** Per-request bound in milliseconds; default {@link DEFAULT_CHALLENGE_TIMEOUT_MS}. */
  timeoutMs?: number | undefined;
  /** This provider's key at the facilitator (`[providers.<name>]`), sent as a bearer token on every request. */
  providerKey?: string | undefined;
};

/** Per-offer facts the provider passes on. */
export type ChallengeRequestOptions = {
  /** The paying client's address, forwarded as `X-Svc-Payer-Address` for the facilitator's per-payer limit. */
  payerAddress?: string | undefined;
};

/** Asks the facilitator for one fresh offer at a list price (base units); throws `ChallengeRequestError`. */
export type ChallengeClient = (listPrice: DecimalString, options?: ChallengeRequestOptions) => Promise<ChallengeOffer>;

/**
 * Builds the client for the facilitator's `POST /challenge` extension, the only way a provider can obtain a
 * one-time burn address. The offer is returned exactly as parsed: its strings reach the 402 unchanged.
 *
 * @example
 * const challenge = createChallengeClient({ facilitatorUrl: "http://127.0.0.1:4032", network: "eip155:31337" });
 * const offer = await challenge("1000000000000000");
 */
export function createChallengeClient(parameters: CreateChallengeClientParameters): ChallengeClient {
  const url = `${parameters.facilitatorUrl.replace(/\/+$/, "")}/challenge`;
  const chainId = parseNetwork(parameters.network);
  const timeoutMs = parameters.timeoutMs ?? DEFAULT_CHALLENGE_TIMEOUT_MS;
  const fail = (failure: ChallengeFailure, cause?: unknown) => new ChallengeRequestError({ failure, url, cause });

  const authorization: Record<string, string> = parameters.providerKey === undefined ? {} : { authorization: providerAuthorization(parameters.providerKey) };

  return async (listPrice, options = {}) => {
    const payer: Record<string, string> =
      options.payerAddress === undefined || options.payerAddress === "" ? {} : { [PAYER_ADDRESS_HEADER]: options.payerAddress };
    const answer = await requestFacilitatorJson({
      fetch: parameters.fetch ?? pooledFetch,
      url,
      init: {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", ...authorization, ...payer },
        body: JSON.stringify({ amount: listPrice }),
      },
      timeoutMs,
    });
    if (!answer.ok) throw fail(answer.failure, answer.cause);
    const parsed = ChallengeOfferSchema.safeParse(answer.json);
    if (!parsed.success) throw fail({ kind: "invalid_offer", issues: describeIssues(parsed.error) });
    if (parsed.data.chainId !== chainId) {
      throw fail({ kind: "invalid_offer", issues: `offer is for chain ${parsed.data.chainId}, not ${parameters.network}` });
    }
    return parsed.data;
  };
}
