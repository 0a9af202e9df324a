/** Errors of compiling the Solidity sources and loading their artifacts. */
import { BaseError } from "../errors.js";

/** solc reported at least one error; `errors` holds each formatted message. */
export class SolidityCompileError extends BaseError {
  override name = "SolidityCompileError";
  /** Every error-severity message solc printed, formatted with file and line. */
  readonly errors: readonly string[];

  constructor(errors: readonly string[]) {
    super(`Solidity compilation failed with ${errors.length} error(s).`, { metaMessages: errors });
    this.errors = errors;
  }
}

/** Two sources define a contract with the same name, so artifacts keyed by name would be ambiguous. */
export class DuplicateContractNameError extends BaseError {
  override name = "DuplicateContractNameError";
  /** The contract name defined twice. */
  readonly contractName: string;

  constructor(contractName: string, sourceNames: readonly string[]) {
    super(`Contract name "${contractName}" is defined in more than one source.`, { metaMessages: sourceNames });
    this.contractName = contractName;
  }
}

/** A contract the fixtures need is missing from the compiler output or the artifact cache. */
export class MissingArtifactError extends BaseError {
  override name = "MissingArtifactError";
  /** The contract that has no artifact. */
  readonly contractName: string;

  constructor(contractName: string) {
    super(`No compiled artifact for contract "${contractName}".`);
    this.contractName = contractName;
  }
}

/** The artifact cache file exists but does not have the expected shape. */
export class InvalidArtifactCacheError extends BaseError {
  override name = "InvalidArtifactCacheError";
  /** Path of the rejected cache file. */
  readonly path: string;

  constructor(path: string, reason: string) {
    super(`Artifact cache file ${path} is invalid.`, { details: reason });
    this.path = path;
  }
}
