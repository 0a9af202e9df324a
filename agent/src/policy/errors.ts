import { BaseError } from "@svc/scheme";

/**
 * Thrown by `loadPolicy` for a malformed environment variable. The message names the variable and what it
 * must look like, never the value: the variable may hold a private key.
 */
export class PolicyConfigError extends BaseError {
  override name = "PolicyConfigError";
  /** The offending variable, e.g. `SVC_MAX_TOTAL`. */
  readonly variable: string;
  constructor({ variable, expected }: { variable: string; expected: string }) {
    super(`${variable} is malformed: expected ${expected}.`);
    this.variable = variable;
  }
}

/** Thrown when a command that pays runs without `SVC_PAYER_PK`; quoting does not need it. */
export class PayerKeyMissingError extends BaseError {
  override name = "PayerKeyMissingError";
  constructor() {
    super("SVC_PAYER_PK is not set: paying needs the payer's private key (quoting does not).");
  }
}
