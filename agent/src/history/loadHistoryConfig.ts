import { PolicyConfigError } from "../policy/errors.js";
import type { Environment } from "../policy/loadPolicy.js";

/** Where the payer's history lives: the facilitator's URL and, optionally, the login domain to insist on. */
export type HistoryConfig = {
  /** `SVC_FACILITATOR_URL`; undefined when unset (history and proofs are then unavailable). */
  facilitatorUrl: URL | undefined;
  /** `SVC_HISTORY_DOMAIN`; when set, the wallet signs only login messages naming this domain. */
  loginDomain: string | undefined;
};

/**
 * Reads `SVC_FACILITATOR_URL` and `SVC_HISTORY_DOMAIN`. A malformed value throws `PolicyConfigError`
 * naming the variable; an empty value counts as unset. The URL's host is checked against
 * `SVC_ALLOWED_HOSTS` on every request, not here.
 *
 * @example
 * const { facilitatorUrl } = loadHistoryConfig(process.env);
 */
export function loadHistoryConfig(env: Environment): HistoryConfig {
  const read = (variable: string): string | undefined => {
    const value = env[variable]?.trim();
    return value === undefined || value === "" ? undefined : value;
  };
  const rawUrl = read("SVC_FACILITATOR_URL");
  let facilitatorUrl: URL | undefined;
  if (rawUrl !== undefined) {
    const expected = "an http:// or https:// URL without credentials, query or fragment";
    try {
      facilitatorUrl = new URL(rawUrl);
    } catch {
      throw new PolicyConfigError({ variable: "SVC_FACILITATOR_URL", expected });
    }
    const { protocol, username, password, search, hash } = facilitatorUrl;
    if ((protocol !== "http:" && protocol !== "https:") || username !== "" || password !== "" || search !== "" || hash !== "") {
      throw new PolicyConfigError({ variable: "SVC_FACILITATOR_URL", expected });
    }
  }
  const loginDomain = read("SVC_HISTORY_DOMAIN");
  if (loginDomain !== undefined && !/^[\x21-\x7e]{1,128}$/.test(loginDomain)) {
    throw new PolicyConfigError({ variable: "SVC_HISTORY_DOMAIN", expected: "1-128 visible ASCII characters" });
  }
  return { facilitatorUrl, loginDomain };
}
