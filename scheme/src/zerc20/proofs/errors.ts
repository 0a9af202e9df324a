import { BaseError } from "../../errors/base.js";

/** Thrown when proof bytes do not have the layout of their encoding. */
export class ProofEncodingError extends BaseError {
  override name = "ProofEncodingError";
  /** Which encoding was expected. */
  readonly encoding: string;

  constructor({ encoding, detail }: { encoding: string; detail: string }) {
    super(`Malformed ${encoding} proof: ${detail}.`);
    this.encoding = encoding;
  }
}
