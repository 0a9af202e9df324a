/** v2 relayer-fee authorizations as the recipient signs them: EIP-712 domain `{"Verifier", "1"}` of the deployed verifier. */
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { LocalChain } from "./useLocalChain.js";

/** The fee tuple the relayer-fee overloads take. */
export type TestRelayerFee = { relayerFee: bigint; maxFee: bigint; deadline: bigint; signature: Hex };

/** EIP-712 types of RelayerFeeAuthorization, written from the published type string independently of the contract. */
export const relayerFeeAuthorizationTypes = {
  RelayerFeeAuthorization: [
    { name: "recipientHash", type: "uint256" },
    { name: "totalValue", type: "uint256" },
    { name: "maxFee", type: "uint256" },
    { name: "deadline", type: "uint64" },
  ],
} as const;

/** Signs `(recipientHash, totalValue, maxFee, deadline)` with `privateKey` and returns the fee tuple asking for `relayerFee`. */
export async function signRelayerFee(
  chain: LocalChain,
  params: { privateKey: Hex; recipientHash: bigint; totalValue: bigint; maxFee: bigint; deadline: bigint; relayerFee: bigint },
): Promise<TestRelayerFee> {
  const signature = await privateKeyToAccount(params.privateKey).signTypedData({
    domain: { name: "Verifier", version: "1", chainId: chain.deployment.chainId, verifyingContract: chain.deployment.verifier },
    types: relayerFeeAuthorizationTypes,
    primaryType: "RelayerFeeAuthorization",
    message: { recipientHash: params.recipientHash, totalValue: params.totalValue, maxFee: params.maxFee, deadline: params.deadline },
  });
  return { relayerFee: params.relayerFee, maxFee: params.maxFee, deadline: params.deadline, signature };
}
