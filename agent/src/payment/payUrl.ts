import { HostNotAllowedError } from "../http/errors.js";
import type { Ledger } from "../ledger/ledger.js";
import type { ResourceRequest } from "../ledger/ledgerEntry.js";
import type { Policy } from "../policy/policy.js";
import type { OnPayEvent } from "./payEvent.js";
import type { PayOutcome } from "./payOutcome.js";
import { type ApprovalGate, payQuote, type PayQuoteParameters } from "./payQuote.js";
import { fetchQuote } from "./quote.js";
import { amountFormat } from "./amountFormat.js";
import { httpErrorOutcome } from "./httpErrorOutcome.js";
import { toResourceResponse } from "./resourceResponse.js";
import type { TokenInfo } from "./tokenInfo.js";

/** Inputs to `payUrl`. */
export type PayUrlParameters = {
  url: URL;
  policy: Policy;
  ledger: Ledger;
  approve: ApprovalGate;
  onEvent?: OnPayEvent | undefined;
  clients?: PayQuoteParameters["clients"];
  now?: (() => number) | undefined;
  /** Reads the offer's token symbol and decimals (limits in token units, messages); by default from `SVC_RPC_URL`. */
  readToken?: ((asset: `0x${string}`) => Promise<TokenInfo | undefined>) | undefined;
  /** Base units beside token units in messages. */
  baseUnits?: boolean | undefined;
  /** A method other than GET, extra headers, a body; the paid request repeats them. */
  request?: ResourceRequest | undefined;
  /** The MCP server session paying, for `SVC_MAX_PER_MCP_SESSION`. */
  mcpSession?: string | undefined;
};

/**
 * The headless purchase: request `url`, and if it answers 402 with an svc-zerc20 offer, pay it with
 * `payQuote`. A resource that needs no payment is returned as it is. HTTP failures before any payment
 * are thrown (nothing was paid); a refused host is a policy decline.
 *
 * @example
 * const outcome = await payUrl({ url: new URL(target), policy, ledger, approve: (request) => requestApproval({ stateDir, request }) });
 */
export async function payUrl(parameters: PayUrlParameters): Promise<PayOutcome> {
  const { url, policy } = parameters;
  let result;
  try {
    result = await fetchQuote({ url, policy, now: parameters.now, request: parameters.request, readToken: parameters.readToken });
  } catch (error) {
    if (error instanceof HostNotAllowedError) return { kind: "declined", reason: "host_not_allowed", message: error.shortMessage };
    throw error;
  }
  if (result.kind === "not-required") return { kind: "not-required", resource: toResourceResponse(result.response) };
  if (result.kind === "http-error") return httpErrorOutcome(result.response);
  if (result.kind === "no-offer") return { kind: "declined", reason: "no_scheme_offer", message: result.message };
  const { token } = result.quote;
  parameters.onEvent?.({ type: "quoted", quote: result.quote, token });
  return payQuote({ ...parameters, quote: result.quote, format: amountFormat(token, { baseUnits: parameters.baseUnits }) });
}
