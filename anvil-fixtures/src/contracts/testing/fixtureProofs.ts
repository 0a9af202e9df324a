/**
 * Fixture proofs for the verifier tests in the published encodings, signed by the published fixture key
 * unless a test picks another key, chain or circuit (to show each is bound).
 */
import {
  DECIDER_ROOT_WORDS,
  encodeGroth16Proof,
  encodeRootProof,
  ROOT_PROOF_SNARK_OFFSET,
  signFixtureDeciderWithdrawProof,
  signFixtureGroth16Proof,
  signFixtureRootProof,
  signFixtureWords,
  type FixtureCircuit,
  type TransferTreeState,
} from "@svc/scheme";
import { encodeAbiParameters, type Hex } from "viem";
import { FIXTURE_PROVER_PRIVATE_KEY } from "../../accounts/devAccounts.js";
import { ANVIL_CHAIN_ID } from "../../anvil/startAnvil.js";

/** Who signs and for which circuit; defaults are the fixture key, the local chain and the circuit the call expects. */
export type ProofSigning = { privateKey?: Hex; circuit?: FixtureCircuit; chainId?: bigint };

/** What a withdrawal proof claims. */
export type ClaimInputs = { transferRoot: bigint; recipientHash: bigint; value: bigint };

const signingKey = (signing: ProofSigning): Hex => signing.privateKey ?? FIXTURE_PROVER_PRIVATE_KEY;
const signingChain = (signing: ProofSigning): bigint => signing.chainId ?? BigInt(ANVIL_CHAIN_ID);

/** The 352-byte Groth16 single-teleport proof over `[transferRoot, R, value]` (circuit `withdraw_single`). */
export async function signSingleProof(claim: ClaimInputs, signing: ProofSigning = {}): Promise<Hex> {
  const publicInputs = [claim.transferRoot, claim.recipientHash, claim.value] as const;
  if (signing.circuit === undefined) return signFixtureGroth16Proof({ privateKey: signingKey(signing), chainId: signingChain(signing), publicInputs });
  // Same layout as signFixtureGroth16Proof, signed for another circuit.
  const [r, s, v] = await signFixtureWords({
    privateKey: signingKey(signing),
    circuit: signing.circuit,
    chainId: signingChain(signing),
    publicWords: publicInputs,
  });
  return encodeGroth16Proof({
    a: [r, s],
    b: [
      [v, 0n],
      [0n, 0n],
    ],
    c: [0n, 0n],
    publicInputs,
  });
}

/** The `uint256[34]` batch proof for `teleport(...)`; `withdraw_local` unless `circuit` says `withdraw_global`. */
export function signBatchProof(
  claim: ClaimInputs & { steps?: bigint; lastLeafPosition?: bigint },
  signing: Omit<ProofSigning, "circuit"> & { circuit?: "withdraw_local" | "withdraw_global" } = {},
): Promise<Hex> {
  return signFixtureDeciderWithdrawProof({
    privateKey: signingKey(signing),
    chainId: signingChain(signing),
    circuit: signing.circuit ?? "withdraw_local",
    proof: {
      steps: claim.steps ?? 1n,
      root: claim.transferRoot,
      recipientHash: claim.recipientHash,
      lastLeafPosition: claim.lastLeafPosition ?? 0n,
      totalValue: claim.value,
    },
  });
}

/** 34 words laid out by hand, for the shapes no honest prover makes. */
export function encodeBatchWords(words: readonly bigint[]): Hex {
  return encodeAbiParameters([{ type: "uint256[34]" }], [words as never]);
}

/** Root proof inputs: the old and new tree states. */
export type RootProofInputs = { old: TransferTreeState; new: TransferTreeState; steps?: bigint };

/** The `uint256[32]` root proof for `proveTransferRoot` (circuit `root`). */
export async function signRootProof(inputs: RootProofInputs, signing: ProofSigning = {}): Promise<Hex> {
  const steps = inputs.steps ?? inputs.new.index - inputs.old.index;
  if (signing.circuit === undefined) {
    return signFixtureRootProof({ privateKey: signingKey(signing), chainId: signingChain(signing), steps, old: inputs.old, new: inputs.new });
  }
  // Same layout as signFixtureRootProof, signed for another circuit.
  const publicWords = [steps, inputs.old.index, inputs.old.hashChain, inputs.old.root, inputs.new.index, inputs.new.hashChain, inputs.new.root];
  const signature = await signFixtureWords({ privateKey: signingKey(signing), circuit: signing.circuit, chainId: signingChain(signing), publicWords });
  const snark = [...signature, ...new Array<bigint>(DECIDER_ROOT_WORDS - ROOT_PROOF_SNARK_OFFSET - 3).fill(0n)];
  return encodeRootProof({ steps, old: inputs.old, new: inputs.new, snark });
}
