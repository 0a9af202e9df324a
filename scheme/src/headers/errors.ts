import { BaseError } from "../errors/base.js";

/** Thrown when a `PAYMENT-*` header is not padded base64 of UTF-8 JSON, or the JSON fails the wire schema. */
export class InvalidHeaderError extends BaseError {
  override name = "InvalidHeaderError";
  /** Which header failed, e.g. `PAYMENT-SIGNATURE`. */
  readonly header: string;

  constructor({ header, details, cause }: { header: string; details: string; cause?: unknown }) {
    super(`Invalid ${header} header.`, { details, cause });
    this.header = header;
  }
}
