import { BaseError, type BaseErrorParameters } from "../../errors/base.js";

/** Thrown when the installed `poseidon-lite` constants do not have the expected shape, or a parameter set is refused. */
export class PoseidonParametersError extends BaseError {
  override name = "PoseidonParametersError";

  constructor(detail: string, parameters: BaseErrorParameters = {}) {
    super(`Cannot prepare the Poseidon parameters: ${detail}.`, parameters);
  }
}

/** Thrown when the Poseidon selection variable holds something other than `auto`, `native` or `js`; never quotes the value. */
export class InvalidPoseidonSelectionError extends BaseError {
  override name = "InvalidPoseidonSelectionError";
  /** The environment variable that was refused. */
  readonly variable: string;

  constructor({ variable }: { variable: string }) {
    super(`${variable} must be one of auto, native, js.`);
    this.variable = variable;
  }
}

/** Thrown when the native Poseidon addon is required (`native`) but cannot be loaded or does not match `poseidon-lite`. */
export class NativePoseidonUnavailableError extends BaseError {
  override name = "NativePoseidonUnavailableError";

  constructor(parameters: BaseErrorParameters = {}) {
    super("The native Poseidon addon is not available (build it with `npm run install -w scheme`).", parameters);
  }
}

/** Thrown when the Poseidon path variable names no known path; never quotes the value. */
export class InvalidPoseidonPathError extends BaseError {
  override name = "InvalidPoseidonPathError";
  /** The environment variable that was refused. */
  readonly variable: string;

  constructor({ variable }: { variable: string }) {
    super(`${variable} must be one of auto, avx512-ifma, avx2, mulx-adx, portable.`);
    this.variable = variable;
  }
}

/** Thrown when a search path was asked for that this processor (or its operating system) does not support. */
export class PoseidonPathUnavailableError extends BaseError {
  override name = "PoseidonPathUnavailableError";
  /** The path that was asked for. */
  readonly path: string;

  constructor({ path }: { path: string }) {
    super(`This processor does not support the Poseidon path ${path}.`, {
      details: "Unset SVC_POSEIDON_PATH (or set it to auto) to use the fastest path this processor supports.",
    });
    this.path = path;
  }
}

/** Thrown when a fast Poseidon result fails the check against `poseidon-lite`; the fast implementation must not be trusted. */
export class PoseidonMismatchError extends BaseError {
  override name = "PoseidonMismatchError";

  constructor(detail: string) {
    super(`The Poseidon implementation disagrees with poseidon-lite: ${detail}.`);
  }
}

/** Thrown when a burn-nonce search is given a prefix of other than one or two elements (Poseidon of width 3 or 4). */
export class PoseidonInputError extends BaseError {
  override name = "PoseidonInputError";

  constructor(detail: string) {
    super(`Unsupported Poseidon input: ${detail}.`);
  }
}
