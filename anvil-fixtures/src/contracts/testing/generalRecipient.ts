/** General recipient test data: the `(chainId, recipient, tweak)` a burn address commits to. */
import { keccak256, pad, toHex, type Address, type Hex } from "viem";
import { ANVIL_CHAIN_ID } from "../../anvil/startAnvil.js";

/** A general recipient as the verifier takes it. */
export type TestGeneralRecipient = { chainId: bigint; recipient: Hex; tweak: Hex };

/** A recipient paying `to` on the local chain, with a tweak derived from `tweakLabel`, plus overrides. */
export function buildGeneralRecipient(to: Address, tweakLabel = "tweak-1", overrides: Partial<TestGeneralRecipient> = {}): TestGeneralRecipient {
  return {
    chainId: BigInt(ANVIL_CHAIN_ID),
    // Lowercase, as bytes32 values come back from the chain.
    recipient: pad(to.toLowerCase() as Hex, { size: 32 }),
    tweak: keccak256(toHex(tweakLabel)),
    ...overrides,
  };
}
