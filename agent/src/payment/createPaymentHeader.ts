import {
  DEFAULT_RECEIPT_TIMEOUT_MS,
  encodePaymentSignatureHeader,
  MalformedPayloadError,
  type OnPaymentPhase,
  type PayerClients,
  PaymentPayloadSchema,
  registerSvcZerc20Client,
} from "@svc/scheme";
import { x402Client } from "@x402/core/client";

import type { Policy } from "../policy/policy.js";
import type { Quote } from "./quote.js";

/** Inputs to `createPaymentHeader`. */
export type CreatePaymentHeaderParameters = {
  quote: Quote;
  policy: Policy;
  clients: PayerClients;
  onPhase?: OnPaymentPhase | undefined;
  now?: (() => number) | undefined;
};

/**
 * Signs (permit) or burns and confirms (self-transfer) for the quoted offer through `@x402/core`'s
 * `x402Client` and our plugin, and returns the `PAYMENT-SIGNATURE` value. Core's spend controls are set
 * explicitly for this one token, capped at exactly the amount the ledger reserved, and core sees only the
 * vetted offer, so it cannot pick or pay anything the policy did not approve.
 */
export async function createPaymentHeader(parameters: CreatePaymentHeaderParameters): Promise<string> {
  const { quote, policy, clients } = parameters;
  const now = parameters.now ?? Date.now;
  const { offer, requirements } = quote;
  const client = new x402Client();
  registerSvcZerc20Client(client, {
    ...clients,
    mode: policy.mode,
    now,
    onPhase: parameters.onPhase,
    // Waiting past the offer's expiry is pointless: a burn mined after it is refused on every path.
    receiptTimeoutMs: Math.max(1_000, Math.min(DEFAULT_RECEIPT_TIMEOUT_MS, offer.expiresAt * 1000 - now())),
    // Core's settings and its echo are x402 wire data: they take the requirements as the 402 listed them.
    allowedAssets: [{ network: requirements.network, asset: requirements.asset, maxAmountPerPayment: requirements.amount }],
  });
  const payment = await client.createPaymentPayload({ ...quote.paymentRequired, accepts: [requirements] });
  // Checked against our wire schema before it is stored: what is stored is exactly what will be sent.
  const parsed = PaymentPayloadSchema.safeParse(payment);
  if (!parsed.success) throw new MalformedPayloadError({ detail: "the x402 client produced a payment our schema refuses" });
  return encodePaymentSignatureHeader(parsed.data);
}
