/**
 * Test-only harness: the test kit's world (local stack and the built facilitator as a real child process)
 * without its provider, since these tests run the provider themselves; payments are signed by the kit's test
 * payer. The provider itself never needs any of this: it holds no keys and never reads the chain.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

import { type FacilitatorWorld, startWorld } from "@svc/anvil-fixtures";
import {
  decodePaymentRequiredHeader,
  encodePaymentSignatureHeader,
  type PaymentRequirements,
  type PermitPayload,
  selectSchemeRequirements,
  type SelfTransferPayload,
  zerc20TokenAbi,
} from "@svc/scheme";
import type { FacilitatorClient } from "@x402/core/server";
import type { PaymentPayload, PaymentRequirements as CorePaymentRequirements } from "@x402/core/types";
import type { Address, PublicClient } from "viem";

/** A running stack and local facilitator process in a temp folder. */
export type PaymentStack = FacilitatorWorld & {
  /** The facilitator's secrets from `facilitator.env`, for starting config variants. */
  env: Record<string, string>;
  client: PublicClient;
};

/** Starts anvil, the contracts, the fixture services and `node facilitator/dist/cli.js start` (profile `local`). */
export async function startPaymentStack(): Promise<PaymentStack> {
  const world = await startWorld({ dirPrefix: "provider-demo-test-", provider: false });
  return { ...world, env: world.facilitatorEnv, client: world.chain };
}

/** The svc-zerc20 offer of a 402 response, decoded from `PAYMENT-REQUIRED`. */
export function offerOf(response: Response): PaymentRequirements {
  const offer = selectSchemeRequirements(decodePaymentRequiredHeader(response.headers.get("PAYMENT-REQUIRED") ?? ""))[0];
  if (offer === undefined) throw new TypeError(`the ${response.status} response carries no svc-zerc20 offer`);
  return offer;
}

/** The `PAYMENT-SIGNATURE` header for a payload, echoing `accepted` exactly as given. */
export function paymentSignature(accepted: PaymentRequirements, payload: PermitPayload | SelfTransferPayload): Record<string, string> {
  return { "PAYMENT-SIGNATURE": encodePaymentSignatureHeader({ x402Version: 2, accepted, payload }) };
}

/** Token balance of an address. */
export function balanceOf(client: PublicClient, token: Address, owner: Address): Promise<bigint> {
  return client.readContract({ address: token, abi: zerc20TokenAbi, functionName: "balanceOf", args: [owner] });
}

/**
 * Wraps the provider's facilitator client and counts the calls that reach the facilitator, so a test can
 * show that a request was never verified, or that concurrent requests settled once.
 */
export function countingFacilitatorClient(inner: FacilitatorClient) {
  const calls = { verify: 0, settle: 0 };
  const client: FacilitatorClient = {
    verify: (payload: PaymentPayload, requirements: CorePaymentRequirements) => {
      calls.verify++;
      return inner.verify(payload, requirements);
    },
    settle: (payload: PaymentPayload, requirements: CorePaymentRequirements) => {
      calls.settle++;
      return inner.settle(payload, requirements);
    },
    getSupported: () => inner.getSupported(),
  };
  return { client, calls };
}

/** A loopback URL where nothing listens: a port the OS just handed out and took back. */
export async function unusedLocalUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
