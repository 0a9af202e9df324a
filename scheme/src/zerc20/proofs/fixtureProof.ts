/**
 * The local proof system. Real zERC20 proofs verify on the local chain only once its circuits are compiled
 * there; until then the local stack replaces only proof *verification*: a fixture proof has the published
 * encoding (Groth16 352 bytes, decider `uint256[34]` / `uint256[32]`) with an EIP-191 signature by the
 * published fixture key laid where the curve points or SNARK words go. The key signs
 * `keccak256(abi.encode(keccak256(circuit), chainId, publicWords))`, so a proof over a wrong root, value or
 * recipient fails on-chain like a real one would.
 *
 * Only the fixture stack and the facilitator's fixture prover adapter (profile `local`, chain 31337) use it.
 */
import { decodeAbiParameters, encodeAbiParameters, hexToBigInt, keccak256, numberToHex, recoverMessageAddress, toHex, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import {
  DECIDER_ROOT_WORDS,
  DECIDER_WITHDRAW_SNARK_OFFSET,
  DECIDER_WITHDRAW_WORDS,
  type DeciderWithdrawProof,
  encodeDeciderWithdrawProof,
} from "./deciderProof.js";
import { encodeGroth16Proof, type Groth16Proof } from "./groth16Proof.js";
import { encodeRootProof, ROOT_PROOF_SNARK_OFFSET, type TransferTreeState } from "./rootProof.js";

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
export function fixtureProofDigest(circuit: FixtureCircuit, chainId: bigint, publicWords: readonly bigint[]): Hex {
  return keccak256(encodeAbiParameters([{ type: "bytes32" }, { type: "uint256" }, { type: "uint256[]" }], [fixtureCircuitTag(circuit), chainId, publicWords]));
}

/** A 65-byte signature as three words `(r, s, v)`, the way fixture proofs carry it. */
export type SignatureWords = readonly [bigint, bigint, bigint];

/** Signs `publicWords` for `circuit` on `chainId` with the fixture key. */
export async function signFixtureWords(params: {
  privateKey: Hex;
  circuit: FixtureCircuit;
  chainId: bigint;
  publicWords: readonly bigint[];
}): Promise<SignatureWords> {
  const signature = await privateKeyToAccount(params.privateKey).signMessage({
    message: { raw: fixtureProofDigest(params.circuit, params.chainId, params.publicWords) },
  });
  return [hexToBigInt(`0x${signature.slice(2, 66)}`), hexToBigInt(`0x${signature.slice(66, 130)}`), hexToBigInt(`0x${signature.slice(130, 132)}`)];
}

/** The address whose fixture signature `(r, s, v)` covers `publicWords`. */
export function recoverFixtureSigner(circuit: FixtureCircuit, chainId: bigint, publicWords: readonly bigint[], [r, s, v]: SignatureWords): Promise<Address> {
  const signature = `${numberToHex(r, { size: 32 })}${numberToHex(s, { size: 32 }).slice(2)}${numberToHex(v, { size: 1 }).slice(2)}` as Hex;
  return recoverMessageAddress({ message: { raw: fixtureProofDigest(circuit, chainId, publicWords) }, signature });
}

/** A fixture single-teleport proof in the Groth16 encoding: the signature is `a = (r, s)`, `b[0][0] = v`, the rest zero. */
export async function signFixtureGroth16Proof(params: { privateKey: Hex; chainId: bigint; publicInputs: Groth16Proof["publicInputs"] }): Promise<Hex> {
  const [r, s, v] = await signFixtureWords({ ...params, circuit: "withdraw_single", publicWords: params.publicInputs });
  return encodeGroth16Proof({
    a: [r, s],
    b: [
      [v, 0n],
      [0n, 0n],
    ],
    c: [0n, 0n],
    publicInputs: params.publicInputs,
  });
}

/** What a fixture batch-withdrawal proof is made from: the key, the chain, the circuit it stands in for and the withdrawal. */
export type FixtureWithdrawalParameters<Circuit extends FixtureCircuit> = {
  privateKey: Hex;
  chainId: bigint;
  circuit: Circuit;
  proof: Omit<DeciderWithdrawProof, "snark">;
};

/** A fixture withdraw decider proof (`uint256[34]`): the signature over words 0..8 fills the first three SNARK words. */
export async function signFixtureDeciderWithdrawProof(params: FixtureWithdrawalParameters<"withdraw_local" | "withdraw_global">): Promise<Hex> {
  const { steps, root, recipientHash, lastLeafPosition, totalValue } = params.proof;
  const publicWords = [steps, root, recipientHash, 0n, 0n, root, recipientHash, lastLeafPosition, totalValue];
  const signature = await signFixtureWords({ ...params, publicWords });
  const snark = [...signature, ...new Array<bigint>(DECIDER_WITHDRAW_WORDS - DECIDER_WITHDRAW_SNARK_OFFSET - 3).fill(0n)];
  return encodeDeciderWithdrawProof({ ...params.proof, snark });
}

/** A fixture root proof (`uint256[32]`): the signature over words 0..6 fills the first three SNARK words. */
export async function signFixtureRootProof(params: {
  privateKey: Hex;
  chainId: bigint;
  steps: bigint;
  old: TransferTreeState;
  new: TransferTreeState;
}): Promise<Hex> {
  const publicWords = [params.steps, params.old.index, params.old.hashChain, params.old.root, params.new.index, params.new.hashChain, params.new.root];
  const signature = await signFixtureWords({ privateKey: params.privateKey, circuit: "root", chainId: params.chainId, publicWords });
  const snark = [...signature, ...new Array<bigint>(DECIDER_ROOT_WORDS - ROOT_PROOF_SNARK_OFFSET - 3).fill(0n)];
  return encodeRootProof({ steps: params.steps, old: params.old, new: params.new, snark });
}

/**
 * The folded-proof blob the fixture prover hands the decider for a batch withdrawal (the real one is an
 * arkworks IVC proof): the public words of the withdraw decider proof and a fixture signature for `ivc_*`.
 */
export async function signFixtureIvcProof(params: FixtureWithdrawalParameters<"ivc_withdraw_local" | "ivc_withdraw_global">): Promise<Hex> {
  const { steps, root, recipientHash, lastLeafPosition, totalValue } = params.proof;
  const publicWords = [steps, root, recipientHash, lastLeafPosition, totalValue];
  const signature = await signFixtureWords({ ...params, publicWords });
  return encodeAbiParameters([{ type: "uint256[]" }, { type: "uint256[3]" }], [publicWords, signature]);
}

/** Reads the blob {@link signFixtureIvcProof} makes: its public words and signature. */
export function decodeFixtureIvcProof(bytes: Hex): { publicWords: readonly bigint[]; signature: SignatureWords } {
  const [publicWords, signature] = decodeAbiParameters([{ type: "uint256[]" }, { type: "uint256[3]" }], bytes);
  return { publicWords, signature };
}
