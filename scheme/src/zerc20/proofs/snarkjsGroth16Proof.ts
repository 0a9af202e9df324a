/**
 * A Groth16 proof as snarkjs writes it (`proof.json` and `public.json`, decimal strings, projective points
 * with a trailing `1`), read into the verifier's layout. The one trap: snarkjs keeps each G2 coordinate as
 * `[c0, c1]`, while the EVM pairing precompile (and so every exported Solidity verifier) takes `[c1, c0]`.
 */
import { z } from "zod";
import type { Groth16Proof } from "./groth16Proof.js";
import { ProofEncodingError } from "./errors.js";

const FieldElementSchema = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,77})$/)
  .transform((value) => BigInt(value));

/** snarkjs's `proof.json` of a Groth16 proof over BN254. */
export const SnarkjsGroth16ProofSchema = z.object({
  pi_a: z.tuple([FieldElementSchema, FieldElementSchema, FieldElementSchema]),
  pi_b: z.tuple([
    z.tuple([FieldElementSchema, FieldElementSchema]),
    z.tuple([FieldElementSchema, FieldElementSchema]),
    z.tuple([FieldElementSchema, FieldElementSchema]),
  ]),
  pi_c: z.tuple([FieldElementSchema, FieldElementSchema, FieldElementSchema]),
  protocol: z.literal("groth16"),
  curve: z.literal("bn128"),
});

/** snarkjs's `public.json` of the single-teleport circuit: `[transferRoot, R, value − δ]`. */
export const SnarkjsSingleTeleportPublicSchema = z.tuple([FieldElementSchema, FieldElementSchema, FieldElementSchema]);

/**
 * The verifier's view of a snarkjs proof; throws {@link ProofEncodingError} (naming what is wrong, never the
 * values) when either part does not have snarkjs's shape.
 *
 * @example
 * const { proof, publicSignals } = await snarkjs.groth16.fullProve(input, wasmPath, zkeyPath);
 * encodeGroth16Proof(groth16ProofFromSnarkjs(proof, publicSignals));
 */
export function groth16ProofFromSnarkjs(proof: unknown, publicSignals: unknown): Groth16Proof {
  const parsedProof = SnarkjsGroth16ProofSchema.safeParse(proof);
  if (!parsedProof.success) throw new ProofEncodingError({ encoding: "snarkjs groth16", detail: "the proof is not a snarkjs BN254 Groth16 proof" });
  const parsedPublic = SnarkjsSingleTeleportPublicSchema.safeParse(publicSignals);
  if (!parsedPublic.success) throw new ProofEncodingError({ encoding: "snarkjs groth16", detail: "expected three public signals" });
  const { pi_a, pi_b, pi_c } = parsedProof.data;
  return {
    a: [pi_a[0], pi_a[1]],
    b: [
      [pi_b[0][1], pi_b[0][0]],
      [pi_b[1][1], pi_b[1][0]],
    ],
    c: [pi_c[0], pi_c[1]],
    publicInputs: parsedPublic.data,
  };
}
