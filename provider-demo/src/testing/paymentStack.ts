/**
 * Test-only harness: the local stack from anvil-fixtures, the built facilitator as a real child process, and
 * a payer that builds and signs payments the way a client would (its own code, not the facilitator's). The
 * provider itself never needs any of this: it holds no keys and never reads the chain.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { type FacilitatorProcess, readEnvFile, type RunningStack, startFacilitatorProcess, startStack } from "@svc/anvil-fixtures";
import {
  buildBurnAuthorizationTypedData,
  buildPermitPayload,
  buildPermitTypedData,
  buildSelfTransferPayload,
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
import { type Address, createPublicClient, createWalletClient, type Hex, http, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";

/** A running stack and local facilitator process in a temp folder. */
export type PaymentStack = {
  stack: RunningStack;
  facilitator: FacilitatorProcess;
  /** The facilitator's secrets from `facilitator.env`, for starting config variants. */
  env: Record<string, string>;
  dir: string;
  client: PublicClient;
  close: () => Promise<void>;
};

/** Starts anvil, the contracts, the fixture services and `node facilitator/dist/cli.js start` (profile `local`). */
export async function startPaymentStack(): Promise<PaymentStack> {
  const dir = await mkdtemp(join(tmpdir(), "provider-demo-test-"));
  const stack = await startStack({ dir, facilitatorPort: 0 });
  try {
    const env = await readEnvFile(stack.files.facilitatorEnv);
    const facilitator = await startFacilitatorProcess({ configPath: stack.files.facilitatorToml, env });
    const client = createPublicClient({ chain: foundry, transport: http(stack.deployment.rpcUrl) });
    return {
      stack,
      facilitator,
      env,
      dir,
      client,
      close: async () => {
        await facilitator.stop();
        await stack.stop();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stack.stop();
    throw error;
  }
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

/** Signs both permit-path signatures for `requirements` with the payer key (gasless: nothing is sent). */
export async function signPermitPayment(client: PublicClient, requirements: PaymentRequirements, payerKey: Hex): Promise<PermitPayload> {
  const account = privateKeyToAccount(payerKey);
  const token = { address: requirements.asset, abi: zerc20TokenAbi } as const;
  const [nonce, tokenName] = await Promise.all([
    client.readContract({ ...token, functionName: "nonces", args: [account.address] }),
    client.readContract({ ...token, functionName: "name" }),
  ]);
  const permitSignature = await account.signTypedData(buildPermitTypedData({ requirements, payer: account.address, nonce, tokenName }));
  const burnAuthorizationSignature = await account.signTypedData(buildBurnAuthorizationTypedData({ requirements, payer: account.address }));
  return buildPermitPayload({ requirements, payer: account.address, nonce, permitSignature, burnAuthorizationSignature });
}

/** Sends `amount` of the token from `fromKey` to `to` and waits for a successful receipt. */
export async function transferToken(payments: PaymentStack, params: { token: Address; fromKey: Hex; to: Address; amount: bigint }): Promise<Hex> {
  const { client } = payments;
  const transport = http(payments.stack.deployment.rpcUrl);
  const wallet = createWalletClient({ chain: foundry, transport, account: privateKeyToAccount(params.fromKey) });
  const hash = await wallet.writeContract({ address: params.token, abi: zerc20TokenAbi, functionName: "transfer", args: [params.to, params.amount] });
  const receipt = await client.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new TypeError(`transfer ${hash} reverted`);
  return hash;
}

/** The self-transfer path: the payer burns to `payTo` itself, then pays with the transaction hash. */
export async function payBySelfTransfer(payments: PaymentStack, requirements: PaymentRequirements, payerKey: Hex): Promise<SelfTransferPayload> {
  const burnTxHash = await transferToken(payments, {
    token: requirements.asset,
    fromKey: payerKey,
    to: requirements.payTo,
    amount: BigInt(requirements.amount),
  });
  return buildSelfTransferPayload({ requirements, burnTxHash });
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
