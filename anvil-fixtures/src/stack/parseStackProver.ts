/** `STACK_PROVER` of `make stack`: `fixture` (default, fixture proofs) or `groth16` (real single-teleport proofs). */
import type { SingleTeleportVerifierKind } from "../deploy/deployContracts.js";
import { BaseError } from "../errors.js";

const KINDS = new Map<string, SingleTeleportVerifierKind>([
  ["fixture", "fixture-signature"],
  ["groth16", "groth16"],
]);

/** `STACK_PROVER` holds something other than `fixture` or `groth16`. */
export class InvalidStackProverError extends BaseError {
  override name = "InvalidStackProverError";
  constructor(readonly value: string) {
    super(`STACK_PROVER must be fixture or groth16, got "${value}"`);
  }
}

/** What verifies single-teleport proofs on the stack `raw` names; unset or empty means fixture proofs. */
export function parseStackProver(raw: string | undefined): SingleTeleportVerifierKind {
  if (raw === undefined || raw === "") return "fixture-signature";
  const kind = KINDS.get(raw);
  if (kind === undefined) throw new InvalidStackProverError(raw);
  return kind;
}
