/**
 * The batch-teleport proof as the verifier takes it (both versions): `abi.encode(uint256[34])`, the decider's
 * output over a Nova folding of one withdrawal per transfer. Words: `[0]` steps, `[1..4]` the initial state
 * `(root, R, 0, 0)`, `[5..8]` the final state `(root, R, last leaf position, total value)`, `[9..33]` the
 * commitments and SNARK the decider verifier checks.
 */
import { decodeAbiParameters, encodeAbiParameters, size, type Hex } from "viem";
import { ProofEncodingError } from "./errors.js";

/** Words in a batch-teleport decider proof. */
export const DECIDER_WITHDRAW_WORDS = 34;
/** Words in a transfer-root decider proof. */
export const DECIDER_ROOT_WORDS = 32;
/** Where the commitments and SNARK start in a withdraw decider proof. */
export const DECIDER_WITHDRAW_SNARK_OFFSET = 9;

const withdrawParameters = [{ type: "uint256[34]" }] as const;

/** The public part of a withdraw decider proof, and the words the decider verifier checks. */
export type DeciderWithdrawProof = {
  steps: bigint;
  root: bigint;
  recipientHash: bigint;
  /** Position of the last folded leaf. */
  lastLeafPosition: bigint;
  /** The total value of the folded transfers. */
  totalValue: bigint;
  /** Words 9 .. 33. */
  snark: readonly bigint[];
};

/** `abi.encode(uint256[34])` of a withdraw decider proof. */
export function encodeDeciderWithdrawProof(proof: DeciderWithdrawProof): Hex {
  if (proof.snark.length !== DECIDER_WITHDRAW_WORDS - DECIDER_WITHDRAW_SNARK_OFFSET) {
    throw new ProofEncodingError({ encoding: "decider-withdraw", detail: `expected ${DECIDER_WITHDRAW_WORDS - DECIDER_WITHDRAW_SNARK_OFFSET} SNARK words` });
  }
  const words = [
    proof.steps,
    proof.root,
    proof.recipientHash,
    0n,
    0n,
    proof.root,
    proof.recipientHash,
    proof.lastLeafPosition,
    proof.totalValue,
    ...proof.snark,
  ];
  return encodeAbiParameters(withdrawParameters, [words as never]);
}

/** Reads a withdraw decider proof; throws {@link ProofEncodingError} when its length or its fixed words are wrong. */
export function decodeDeciderWithdrawProof(bytes: Hex): DeciderWithdrawProof {
  if (size(bytes) !== DECIDER_WITHDRAW_WORDS * 32)
    throw new ProofEncodingError({ encoding: "decider-withdraw", detail: `expected ${DECIDER_WITHDRAW_WORDS * 32} bytes` });
  const [words] = decodeAbiParameters(withdrawParameters, bytes);
  const [steps, root, recipientHash, zero3, zero4, finalRoot, finalRecipientHash, lastLeafPosition, totalValue] = words;
  if (zero3 !== 0n || zero4 !== 0n || finalRoot !== root || finalRecipientHash !== recipientHash) {
    throw new ProofEncodingError({ encoding: "decider-withdraw", detail: "the initial and final states do not line up" });
  }
  return { steps, root, recipientHash, lastLeafPosition, totalValue, snark: words.slice(DECIDER_WITHDRAW_SNARK_OFFSET) };
}
