import type { PayerClients } from "@svc/scheme";
import { createWalletClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";

import { PayerKeyMissingError } from "../policy/errors.js";
import type { Policy } from "../policy/policy.js";
import { createReadClient, policyChain, policyTransport } from "./createReadClient.js";

/**
 * Builds the viem clients the payer plugin is injected with: the policy's RPC pinned to the allowed
 * network's chain, and the payer's key. Throws `PayerKeyMissingError` without `SVC_PAYER_PK`.
 */
export function createPayerClients(policy: Policy): PayerClients {
  if (policy.payerKey === undefined) throw new PayerKeyMissingError();
  const publicClient = createReadClient(policy);
  const walletClient = createWalletClient({
    chain: policyChain(policy),
    transport: policyTransport(policy),
    account: privateKeyToAccount(policy.payerKey),
    pollingInterval: publicClient.pollingInterval,
  });
  return { publicClient, walletClient };
}
