/**
 * A last line of defence for everything the commands print. Messages are built from named errors that
 * never quote secrets, but an unexpected error (a bug, a library message) could still carry the RPC URL
 * with its API key or a key from the environment. Every URL is credential-redacted, and the values of the
 * secret variables, plus signature-grade hex, are replaced.
 */
import { redactUrl, type Environment } from "../config/index.js";
import { redact } from "../log/redact.js";

/** The environment variables whose values must never be printed, set or not, valid or not. */
export const SECRET_VARIABLES = ["SVC_TREASURY_PK", "SVC_RELAYER_PK", "SVC_MINTER_PK", "SVC_ADMIN_TOKEN", "SVC_STORAGE_PASSWORD"] as const;

const URL_LIKE = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;

/** Returns `text` with URL credentials, the values of {@link SECRET_VARIABLES} in `env` and signatures masked. */
export function redactOutput(text: string, env: Environment): string {
  const secrets = SECRET_VARIABLES.flatMap((variable) => {
    const value = env[variable];
    return value === undefined || value === "" ? [] : [value];
  });
  const urlsRedacted = text.replace(URL_LIKE, (match) => {
    // Punctuation right after a URL in prose belongs to the sentence, not to the URL.
    const trailing = /[).,;:!?\]]+$/.exec(match)?.[0] ?? "";
    return `${redactUrl(match.slice(0, match.length - trailing.length))}${trailing}`;
  });
  return redact(urlsRedacted, secrets);
}
