/**
 * The transfer-root proof `proveTransferRoot` takes (both versions): `abi.encode(uint256[32])`, a decider
 * proof over the folding of every transfer between two reserved indexes. Words `[1..3]` are the old state
 * `(index, hash chain, root)` and `[4..6]` the new one; the verifier needs the old root to be the proved root at
 * the old index and the new hash chain to be the one reserved at the new index. The rest is the SNARK.
 */
import { decodeAbiParameters, encodeAbiParameters, size, type Hex } from "viem";
import { DECIDER_ROOT_WORDS } from "./deciderProof.js";
import { ProofEncodingError } from "./errors.js";

/** Where the SNARK starts in a root proof. */
export const ROOT_PROOF_SNARK_OFFSET = 7;

const rootParameters = [{ type: "uint256[32]" }] as const;

/** One state of the transfer tree. */
export type TransferTreeState = { index: bigint; hashChain: bigint; root: bigint };

/** The public part of a root proof and its SNARK words. */
export type RootProof = { steps: bigint; old: TransferTreeState; new: TransferTreeState; snark: readonly bigint[] };

/** `abi.encode(uint256[32])` of a root proof. */
export function encodeRootProof(proof: RootProof): Hex {
  if (proof.snark.length !== DECIDER_ROOT_WORDS - ROOT_PROOF_SNARK_OFFSET) {
    throw new ProofEncodingError({ encoding: "root", detail: `expected ${DECIDER_ROOT_WORDS - ROOT_PROOF_SNARK_OFFSET} SNARK words` });
  }
  const words = [proof.steps, proof.old.index, proof.old.hashChain, proof.old.root, proof.new.index, proof.new.hashChain, proof.new.root, ...proof.snark];
  return encodeAbiParameters(rootParameters, [words as never]);
}

/** Reads a root proof; throws {@link ProofEncodingError} on a wrong length. */
export function decodeRootProof(bytes: Hex): RootProof {
  if (size(bytes) !== DECIDER_ROOT_WORDS * 32) throw new ProofEncodingError({ encoding: "root", detail: `expected ${DECIDER_ROOT_WORDS * 32} bytes` });
  const [words] = decodeAbiParameters(rootParameters, bytes);
  const [steps, oldIndex, oldHashChain, oldRoot, newIndex, newHashChain, newRoot] = words;
  return {
    steps,
    old: { index: oldIndex, hashChain: oldHashChain, root: oldRoot },
    new: { index: newIndex, hashChain: newHashChain, root: newRoot },
    snark: words.slice(ROOT_PROOF_SNARK_OFFSET),
  };
}
