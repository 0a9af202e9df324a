/**
 * Errors for the facilitator's environment secrets. They name the variable and the rule it broke, never the
 * value, not even a prefix: a truncated private key still narrows a search and belongs in no log.
 */
import { BaseError } from "./base.js";

/** The environment variables that carry facilitator secrets. */
export type SecretVariable = "SVC_TREASURY_PK" | "SVC_RELAYER_PK" | "SVC_ADMIN_TOKEN";

/** Thrown when a required secret variable is unset or empty. */
export class MissingSecretError extends BaseError {
  override name = "MissingSecretError";
  /** The variable that is missing. */
  readonly variable: SecretVariable;

  constructor({ variable, reason }: { variable: SecretVariable; reason?: string | undefined }) {
    super(`${variable} is not set${reason ? `; it is required because ${reason}` : ""}.`, {
      details: "secrets are read only from the environment, never from the configuration file",
    });
    this.variable = variable;
  }
}

/**
 * Thrown when `SVC_ADMIN_TOKEN` is absent where the startup rules require it (non-loopback bind, non-local
 * or unset profile). A subclass so callers catching every missing secret still catch it.
 */
export class AdminTokenRequiredError extends MissingSecretError {
  override name = "AdminTokenRequiredError";

  constructor({ reason }: { reason: string }) {
    super({ variable: "SVC_ADMIN_TOKEN", reason });
  }
}

/** Thrown when a secret variable is set but malformed; `reason` describes the rule, not the value. */
export class InvalidSecretError extends BaseError {
  override name = "InvalidSecretError";
  /** The variable that is malformed. */
  readonly variable: SecretVariable;

  constructor({ variable, reason }: { variable: SecretVariable; reason: string }) {
    super(`${variable} is invalid: ${reason}.`);
    this.variable = variable;
  }
}
