import {
  decodePaymentRequiredHeader,
  fromOfferRequirements,
  InvalidHeaderError,
  type Offer,
  PAYMENT_REQUIRED_HEADER,
  type PaymentRequired,
  type PaymentRequirements,
  selectSchemeRequirements,
} from "@svc/scheme";

import { fetchWithPolicy, type PolicyResponse } from "../http/fetchWithPolicy.js";
import { evaluateOffer, type OfferEvaluation } from "../policy/evaluateOffer.js";
import type { ResourceRequest } from "../ledger/ledgerEntry.js";
import type { Policy } from "../policy/policy.js";
import { readTokenInfo, type TokenInfo } from "./tokenInfo.js";

/** An svc-zerc20 offer for a resource, with the policy's verdict on it. */
export type Quote = {
  /** The URL that answered 402 (the last redirect hop); the payment goes here. */
  url: URL;
  paymentRequired: PaymentRequired;
  /** The requirements the agent would pay, exactly as the 402 listed them: the x402 client echoes these. */
  requirements: PaymentRequirements;
  /** The same offer decoded once, here at the agent's edge: what the policy, the ledger and the screens read. */
  offer: Offer;
  /** The policy's verdict at quote time; paying re-evaluates it. */
  evaluation: OfferEvaluation;
  /** The offer's token symbol and decimals as read on-chain, when the chain could tell them: limits in token units convert with them. */
  token?: TokenInfo | undefined;
  /** The method, headers and body the resource was asked with, when not a plain GET; the paid request repeats them. */
  request?: ResourceRequest | undefined;
};

/** What asking for a resource without paying produced. */
export type QuoteResult =
  | { kind: "offer"; quote: Quote }
  /** The resource answered with a 2xx without asking for payment. */
  | { kind: "not-required"; response: PolicyResponse }
  /** The resource answered with any other non-2xx status but 402: an error, not a free resource. */
  | { kind: "http-error"; response: PolicyResponse }
  /** A 402 the agent cannot pay: no decodable header, or no svc-zerc20 offer in it. */
  | { kind: "no-offer"; url: URL; message: string };

/**
 * Requests `url` unpaid (allowlist checked on every hop) and reads its 402: decodes `PAYMENT-REQUIRED`,
 * picks the first svc-zerc20 offer the policy allows (or, when none is allowed, the first one, so the
 * refusal can name a reason) and evaluates it with the token's decimals read on-chain (`readToken`, by
 * default from `SVC_RPC_URL`). HTTP failures are thrown; nothing is signed here.
 *
 * @example
 * const result = await fetchQuote({ url: new URL("http://127.0.0.1:4021/weather"), policy });
 */
export async function fetchQuote(parameters: {
  url: URL;
  policy: Policy;
  now?: (() => number) | undefined;
  request?: ResourceRequest | undefined;
  readToken?: ((asset: `0x${string}`) => Promise<TokenInfo | undefined>) | undefined;
}): Promise<QuoteResult> {
  const { policy, request } = parameters;
  const now = parameters.now ?? Date.now;
  const response = await fetchWithPolicy({ url: parameters.url, allowedHosts: policy.allowedHosts, timeoutMs: policy.timeoutMs, ...request });
  if (response.status !== 402) return response.status >= 200 && response.status < 300 ? { kind: "not-required", response } : { kind: "http-error", response };
  const header = response.headers.get(PAYMENT_REQUIRED_HEADER);
  if (header === null) return { kind: "no-offer", url: response.url, message: `402 without a ${PAYMENT_REQUIRED_HEADER} header` };
  let paymentRequired: PaymentRequired;
  try {
    paymentRequired = decodePaymentRequiredHeader(header);
  } catch (error) {
    if (error instanceof InvalidHeaderError) return { kind: "no-offer", url: response.url, message: error.message };
    throw error;
  }
  const offers = selectSchemeRequirements(paymentRequired).map((requirements) => ({ requirements, offer: fromOfferRequirements(requirements) }));
  const readToken = parameters.readToken ?? ((asset) => readTokenInfo(policy, asset));
  const assets = [...new Set(offers.map((candidate) => candidate.offer.asset.toLowerCase()))];
  const tokens = new Map(await Promise.all(assets.map(async (asset) => [asset, await readToken(asset as `0x${string}`)] as const)));
  const evaluated = offers.map((candidate) => {
    const token = tokens.get(candidate.offer.asset.toLowerCase());
    return { ...candidate, token, evaluation: evaluateOffer(policy, candidate.offer, now(), undefined, token?.decimals) };
  });
  const chosen = evaluated.find((candidate) => candidate.evaluation.kind === "allowed") ?? evaluated[0];
  if (chosen === undefined) return { kind: "no-offer", url: response.url, message: "the 402 offers no svc-zerc20 payment" };
  return { kind: "offer", quote: { url: response.url, paymentRequired, ...chosen, request } };
}
