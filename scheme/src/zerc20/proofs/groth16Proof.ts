/**
 * The single-teleport proof as the verifier takes it (both versions): `abi.encode(uint256[2] a,
 * uint256[2][2] b, uint256[2] c, uint256[3] publicInputs)`, 352 bytes, public inputs
 * `[transferRoot, R, value − δ]` (δ a private slack below 2^248; this product proves δ = 0).
 */
import { decodeAbiParameters, encodeAbiParameters, size, type Hex } from "viem";
import { ProofEncodingError } from "./errors.js";

/** Length in bytes of an encoded Groth16 single-teleport proof. */
export const GROTH16_PROOF_BYTES = 352;

const GROTH16_PARAMETERS = [
  { name: "a", type: "uint256[2]" },
  { name: "b", type: "uint256[2][2]" },
  { name: "c", type: "uint256[2]" },
  { name: "publicInputs", type: "uint256[3]" },
] as const;

/** The points and public inputs of one Groth16 proof. */
export type Groth16Proof = {
  a: readonly [bigint, bigint];
  b: readonly [readonly [bigint, bigint], readonly [bigint, bigint]];
  c: readonly [bigint, bigint];
  /** `[transferRoot, R, value − δ]`. */
  publicInputs: readonly [bigint, bigint, bigint];
};

/** The 352 proof bytes `singleTeleport` takes. */
export function encodeGroth16Proof(proof: Groth16Proof): Hex {
  return encodeAbiParameters(GROTH16_PARAMETERS, [proof.a, proof.b, proof.c, proof.publicInputs]);
}

/** Reads 352 proof bytes back; throws {@link ProofEncodingError} on any other length. */
export function decodeGroth16Proof(bytes: Hex): Groth16Proof {
  if (size(bytes) !== GROTH16_PROOF_BYTES)
    throw new ProofEncodingError({ encoding: "groth16", detail: `expected ${GROTH16_PROOF_BYTES} bytes, got ${size(bytes)}` });
  const [a, b, c, publicInputs] = decodeAbiParameters(GROTH16_PARAMETERS, bytes);
  return { a, b, c, publicInputs };
}
