/** EIP-2612 permits signed the way a payer wallet signs them: domain `{name(), "1"}` of the token. */
import type { Address, Hex } from "viem";
import { parseSignature } from "viem";
import { zerc20TokenAbi } from "@svc/scheme";
import type { LocalChain } from "./useLocalChain.js";

/** The permit fields a test chooses; nonce and deadline default to the live nonce and one hour ahead. */
export type SignPermitParameters = {
  owner: Hex;
  token: Address;
  spender: Address;
  value: bigint;
  nonce?: bigint;
  deadline?: bigint;
};

/** A permit signature split as the token's `permit` takes it. */
export type SignedPermit = { deadline: bigint; v: number; r: Hex; s: Hex; signature: Hex };

/** Signs an EIP-2612 permit with `owner`'s key against the token's live name and nonce. */
export async function signPermit(chain: LocalChain, parameters: SignPermitParameters): Promise<SignedPermit> {
  const wallet = chain.wallet(parameters.owner);
  const [name, liveNonce, block] = await Promise.all([
    chain.publicClient.readContract({ address: parameters.token, abi: zerc20TokenAbi, functionName: "name" }),
    chain.publicClient.readContract({
      address: parameters.token,
      abi: zerc20TokenAbi,
      functionName: "nonces",
      args: [wallet.account.address],
    }),
    chain.publicClient.getBlock(),
  ]);
  const deadline = parameters.deadline ?? block.timestamp + 3600n;
  const signature = await wallet.signTypedData({
    domain: { name, version: "1", chainId: chain.deployment.chainId, verifyingContract: parameters.token },
    types: {
      Permit: [
        { name: "owner", type: "address" },
        { name: "spender", type: "address" },
        { name: "value", type: "uint256" },
        { name: "nonce", type: "uint256" },
        { name: "deadline", type: "uint256" },
      ],
    },
    primaryType: "Permit",
    message: {
      owner: wallet.account.address,
      spender: parameters.spender,
      value: parameters.value,
      nonce: parameters.nonce ?? liveNonce,
      deadline,
    },
  });
  const { r, s, v, yParity } = parseSignature(signature);
  return { deadline, v: Number(v ?? BigInt(yParity + 27)), r, s, signature };
}
