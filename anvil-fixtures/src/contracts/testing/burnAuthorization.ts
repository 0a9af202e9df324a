/**
 * BurnAuthorization test data: a builder with overrides, the typed data the payer signs (domain
 * `SvcPermitBurner` v1 of the deployed PermitBurner) and the off-chain authorization id.
 */
import { hashTypedData, type Address, type Hex, type TypedDataDomain } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { LocalChain } from "./useLocalChain.js";

/** The BurnAuthorization struct as PermitBurner takes it. */
export type TestBurnAuthorization = {
  token: Address;
  payer: Address;
  burnAddress: Address;
  value: bigint;
  challengeNonce: Hex;
  deadline: bigint;
};

/** EIP-712 types of BurnAuthorization, written from the spec independently of the contract. */
export const burnAuthorizationTypes = {
  BurnAuthorization: [
    { name: "token", type: "address" },
    { name: "payer", type: "address" },
    { name: "burnAddress", type: "address" },
    { name: "value", type: "uint256" },
    { name: "challengeNonce", type: "bytes32" },
    { name: "deadline", type: "uint256" },
  ],
} as const;

/** A burn address no one holds a key for (the low 160 bits of a hash, like a real one). */
export const TEST_BURN_ADDRESS: Address = "0x14C7a9cA62574b09437A1EAF1CC92a5Aa869d2F8";

/** A valid authorization from `payer` for 5 tokens, one hour ahead of the latest block, with overrides. */
export async function buildBurnAuthorization(chain: LocalChain, overrides: Partial<TestBurnAuthorization> = {}): Promise<TestBurnAuthorization> {
  const { timestamp } = await chain.publicClient.getBlock();
  return {
    token: chain.deployment.token,
    payer: chain.accounts.payer.address,
    burnAddress: TEST_BURN_ADDRESS,
    value: 5n * 10n ** 18n,
    challengeNonce: "0x5c0c2b3f1e0d4a7b8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d",
    deadline: timestamp + 3600n,
    ...overrides,
  };
}

/** The EIP-712 domain of the deployed PermitBurner. */
export function permitBurnerDomain(chain: LocalChain): TypedDataDomain {
  return {
    name: "SvcPermitBurner",
    version: "1",
    chainId: chain.deployment.chainId,
    verifyingContract: chain.deployment.permitBurner,
  };
}

/** Signs `auth` with `privateKey` (the payer's, unless a test wants a wrong signer). */
export function signBurnAuthorization(chain: LocalChain, auth: TestBurnAuthorization, privateKey: Hex): Promise<Hex> {
  return privateKeyToAccount(privateKey).signTypedData({
    domain: permitBurnerDomain(chain),
    types: burnAuthorizationTypes,
    primaryType: "BurnAuthorization",
    message: auth,
  });
}

/** The authorization id as the facilitator computes it off-chain: viem `hashTypedData`. */
export function offChainAuthorizationId(chain: LocalChain, auth: TestBurnAuthorization): Hex {
  return hashTypedData({
    domain: permitBurnerDomain(chain),
    types: burnAuthorizationTypes,
    primaryType: "BurnAuthorization",
    message: auth,
  });
}
