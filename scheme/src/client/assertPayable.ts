import { ChainMismatchError, InsufficientTokenBalanceError } from "../errors/client.js";
import type { Address } from "../wire/address.js";
import { parseNetwork } from "../wire/network.js";
import type { PaymentRequirements } from "../wire/paymentRequirements.js";
import { zerc20TokenAbi } from "../zerc20/abis.js";
import type { PayerClients } from "./payerClients.js";

/**
 * Checks, before anything is signed or sent, that the RPC serves the offer's chain and that the payer can
 * cover the amount. The chain check matters most for self-transfer: a burn on the wrong chain is lost.
 */
export async function assertPayable(parameters: {
  requirements: PaymentRequirements;
  publicClient: PayerClients["publicClient"];
  payer: Address;
}): Promise<void> {
  const { requirements, publicClient, payer } = parameters;
  const expected = parseNetwork(requirements.network);
  const actual = await publicClient.getChainId();
  if (actual !== expected) throw new ChainMismatchError({ expected, actual });
  const balance = await publicClient.readContract({
    address: requirements.asset,
    abi: zerc20TokenAbi,
    functionName: "balanceOf",
    args: [payer],
  });
  const amount = BigInt(requirements.amount);
  if (balance < amount) throw new InsufficientTokenBalanceError({ balance, amount });
}
