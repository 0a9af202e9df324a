/** Start-up errors of the demo provider; each names what to fix, never a secret. */
import { BaseError } from "@svc/scheme";

/** The URL without user name or password, for messages an operator may paste anywhere. */
function displayUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.username === "" && url.password === "") return value;
    url.username = "***";
    url.password = "";
    return url.toString();
  } catch {
    return "(invalid URL)";
  }
}

/** Thrown when an environment variable has a value the provider cannot use. */
export class InvalidProviderConfigError extends BaseError {
  override name = "InvalidProviderConfigError";
  /** The variable's name, e.g. `PRICE`. */
  readonly variable: string;

  constructor({ variable, expected }: { variable: string; expected: string }) {
    // The value is not quoted: FACILITATOR_URL may carry credentials.
    super(`Invalid ${variable}: expected ${expected}.`);
    this.variable = variable;
  }
}

/** One line for the operator: undici's "fetch failed" says little, its cause's code (ECONNREFUSED) says what. */
function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner: unknown = cause.cause;
  const code = inner instanceof Error ? Reflect.get(inner, "code") : undefined;
  return typeof code === "string" ? `${cause.message} (${code})` : cause.message;
}

/** Thrown when the facilitator's `GET /supported` cannot be read (down, timing out, or answering an error). */
export class FacilitatorUnavailableError extends BaseError {
  override name = "FacilitatorUnavailableError";

  constructor({ facilitatorUrl, cause }: { facilitatorUrl: string; cause: unknown }) {
    super(`The facilitator at ${displayUrl(facilitatorUrl)} is unreachable or failed GET /supported.`, {
      details: describeCause(cause),
      cause,
    });
  }
}

/**
 * Thrown when the facilitator answers but does not advertise svc-zerc20 on the provider's network, for
 * example because it runs under a profile other than `local`, where it accepts no payments.
 */
export class SchemeNotSupportedError extends BaseError {
  override name = "SchemeNotSupportedError";

  constructor({ facilitatorUrl, network, advertised }: { facilitatorUrl: string; network: string; advertised: readonly string[] }) {
    super(`The facilitator at ${displayUrl(facilitatorUrl)} does not support svc-zerc20 on ${network}.`, {
      details: `it advertises ${advertised.length === 0 ? "no payment kinds" : advertised.join(", ")}; payments are accepted only under the facilitator profile "local"`,
    });
  }
}
