/**
 * A hand-driven payer for scenarios the agent would never produce (tampered offers, reused burns and
 * signatures): builds payloads from a 402 with the scheme's own EIP-712 builders.
 */
import {
  buildBurnAuthorizationTypedData,
  buildPermitPayload,
  buildPermitTypedData,
  decodePaymentRequiredHeader,
  encodePaymentSignatureHeader,
  selectSchemeRequirements,
  zerc20TokenAbi,
  type PaymentPayload,
  type PaymentRequirements,
} from "@svc/scheme";
import { createWalletClient, http, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { chainClient } from "./chain.js";
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
export async function permitPayload(stack: StackProcess, offer: PaymentRequirements, payerKey: Hex) {
  const account = privateKeyToAccount(payerKey);
  const client = chainClient(stack);
  const token = { address: offer.asset, abi: zerc20TokenAbi } as const;
  const [nonce, tokenName] = await Promise.all([
    client.readContract({ ...token, functionName: "nonces", args: [account.address] }),
    client.readContract({ ...token, functionName: "name" }),
  ]);
  return buildPermitPayload({
    requirements: offer,
    payer: account.address,
    nonce,
    permitSignature: await account.signTypedData(buildPermitTypedData({ requirements: offer, payer: account.address, nonce, tokenName })),
    burnAuthorizationSignature: await account.signTypedData(buildBurnAuthorizationTypedData({ requirements: offer, payer: account.address })),
  });
}

/** Broadcasts the payer's own burn for `offer` and waits for it. */
export async function selfTransferBurn(stack: StackProcess, offer: PaymentRequirements, payerKey: Hex): Promise<Hex> {
  const wallet = createWalletClient({ chain: foundry, transport: http(stack.deployment.rpcUrl), account: privateKeyToAccount(payerKey) });
  const hash = await wallet.writeContract({ address: offer.asset, abi: zerc20TokenAbi, functionName: "transfer", args: [offer.payTo, BigInt(offer.amount)] });
  await chainClient(stack).waitForTransactionReceipt({ hash });
  return hash;
}

/** Requests `url` carrying `payload` for `accepted`; answers status and the decoded PAYMENT-RESPONSE, if any. */
export async function payWith(url: string, accepted: PaymentRequirements, payload: object): Promise<{ status: number; paymentResponse: string | null }> {
  const paymentPayload: PaymentPayload = { x402Version: 2, accepted, payload: payload as Record<string, unknown> };
  const response = await fetch(url, { headers: { "payment-signature": encodePaymentSignatureHeader(paymentPayload) } });
  await response.arrayBuffer();
  return { status: response.status, paymentResponse: response.headers.get("payment-response") };
}
