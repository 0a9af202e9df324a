/**
 * A hand-driven payer for scenarios the agent would never produce (tampered offers, reused burns and
 * signatures): reads the offer from a 402 and pays through the test kit's payer, which signs with the
 * scheme's own EIP-712 builders.
 */
import { createTestPayer } from "@svc/anvil-fixtures";
import {
  decodePaymentRequiredHeader,
  encodePaymentSignatureHeader,
  selectSchemeRequirements,
  type PaymentPayload,
  type PaymentRequirements,
} from "@svc/scheme";
import type { Hex } from "viem";
import type { StackProcess } from "./startStackProcess.js";

/** Requests `url` unpaid and returns the svc-zerc20 offer of its 402. */
export async function fetchOffer(url: string): Promise<PaymentRequirements> {
  const response = await fetch(url);
  const header = response.headers.get("payment-required");
  if (response.status !== 402 || header === null) throw new TypeError(`expected a 402 with an offer from ${url}, got ${response.status}`);
  const [offer] = selectSchemeRequirements(decodePaymentRequiredHeader(header));
  if (!offer) throw new TypeError("the 402 has no svc-zerc20 offer");
  return offer;
}

/** Signs the permit path for `offer`. */
export function permitPayload(stack: StackProcess, offer: PaymentRequirements, payerKey: Hex) {
  return createTestPayer({ rpcUrl: stack.deployment.rpcUrl, privateKey: payerKey }).signPermit(offer);
}

/** Broadcasts the payer's own burn for `offer` and waits for it. */
export function selfTransferBurn(stack: StackProcess, offer: PaymentRequirements, payerKey: Hex): Promise<Hex> {
  return createTestPayer({ rpcUrl: stack.deployment.rpcUrl, privateKey: payerKey }).burn(offer);
}

/** Requests `url` carrying `payload` for `accepted`; answers status and the decoded PAYMENT-RESPONSE, if any. */
export async function payWith(url: string, accepted: PaymentRequirements, payload: object): Promise<{ status: number; paymentResponse: string | null }> {
  const paymentPayload: PaymentPayload = { x402Version: 2, accepted, payload: payload as Record<string, unknown> };
  const response = await fetch(url, { headers: { "payment-signature": encodePaymentSignatureHeader(paymentPayload) } });
  await response.arrayBuffer();
  return { status: response.status, paymentResponse: response.headers.get("payment-response") };
}
