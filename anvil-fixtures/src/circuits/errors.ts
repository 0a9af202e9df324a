/** Errors of building the local world's single-teleport circuit. */
import { BaseError } from "../errors.js";

/** circom2 or snarkjs could not build the circuit's proving key or verifier. */
export class CircuitBuildError extends BaseError {
  override name = "CircuitBuildError";

  constructor(circuit: string, detail: string, cause?: unknown) {
    super(`Cannot build the circuit ${circuit}: ${detail}.`, { cause });
  }
}

/** The committed phase-1 file is missing or is not the one the project made (a Git LFS pointer, a truncated copy). */
export class PhaseOneFileError extends BaseError {
  override name = "PhaseOneFileError";

  constructor(path: string, detail: string, cause?: unknown) {
    super(`The phase-1 file ${path} ${detail}.`, {
      cause,
      details: "Restore it from the repository, or make it again with `npm run circuits:phase1 -w anvil-fixtures`.",
    });
  }
}
