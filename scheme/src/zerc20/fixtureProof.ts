/**
 * The local proof system's wire format. Real zERC20 proofs (Groth16, Nova + decider) cannot be produced
 * on these machines, so the local stack replaces only proof *verification*: a fixture proof is the
 * public inputs plus an EIP-191 signature by the published fixture key over
 * `keccak256(abi.encode(keccak256(circuit), chainId, publicInputs))`. The fixture verifier contracts check
 * exactly that, so a proof over a wrong root, value or recipient fails on-chain like a real one would.
 *
 * Only the fixture stack and the facilitator's fixture prover adapter (profile `local`, chain 31337) use it.
 */
import { decodeAbiParameters, encodeAbiParameters, keccak256, recoverMessageAddress, toHex, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";

/**
 * The published fixture proof key. The fixture proof verifiers of the local stack accept proofs signed by
 * it; it is public on purpose, because the fixture proof system only ever runs on the local chain 31337.
 */
export const FIXTURE_PROVER_PRIVATE_KEY: Hex = keccak256(toHex("svc-zerc20 local fixture prover key"));

/**
 * The circuits a fixture proof can stand in for. The `ivc_*` tags mark folded (Nova) proofs that only the
 * decider turns into the on-chain `withdraw_local` / `withdraw_global` proof, as on the real batch path.
 */
export type FixtureCircuit = "root" | "withdraw_single" | "withdraw_local" | "withdraw_global" | "ivc_root" | "ivc_withdraw_local" | "ivc_withdraw_global";

/** `keccak256(circuit name)`: the tag a fixture verifier contract is deployed for. */
export function fixtureCircuitTag(circuit: FixtureCircuit): Hex {
  return keccak256(toHex(circuit));
}

/** The digest the fixture key signs (EIP-191 personal-sign over these 32 bytes). */
export function fixtureProofDigest(circuit: FixtureCircuit, chainId: bigint, publicInputs: readonly bigint[]): Hex {
  return keccak256(encodeAbiParameters([{ type: "bytes32" }, { type: "uint256" }, { type: "uint256[]" }], [fixtureCircuitTag(circuit), chainId, publicInputs]));
}

/** Signs public inputs with the fixture key and returns the proof bytes the verifier contracts take. */
export async function signFixtureProof(params: { privateKey: Hex; circuit: FixtureCircuit; chainId: bigint; publicInputs: readonly bigint[] }): Promise<Hex> {
  const account = privateKeyToAccount(params.privateKey);
  const digest = fixtureProofDigest(params.circuit, params.chainId, params.publicInputs);
  const signature = await account.signMessage({ message: { raw: digest } });
  return encodeFixtureProof(params.publicInputs, signature);
}

/** `abi.encode(uint256[] publicInputs, bytes signature)`. */
export function encodeFixtureProof(publicInputs: readonly bigint[], signature: Hex): Hex {
  return encodeAbiParameters([{ type: "uint256[]" }, { type: "bytes" }], [publicInputs, signature]);
}

/** Splits proof bytes back into public inputs and signature. */
export function decodeFixtureProof(proof: Hex): { publicInputs: readonly bigint[]; signature: Hex } {
  const [publicInputs, signature] = decodeAbiParameters([{ type: "uint256[]" }, { type: "bytes" }], proof);
  return { publicInputs, signature };
}

/** The address that signed a fixture proof for `circuit` on `chainId`. */
export async function recoverFixtureProofSigner(circuit: FixtureCircuit, chainId: bigint, proof: Hex): Promise<Address> {
  const { publicInputs, signature } = decodeFixtureProof(proof);
  return recoverMessageAddress({ message: { raw: fixtureProofDigest(circuit, chainId, publicInputs) }, signature });
}
