/**
 * One printable line for an error that ends a command. Named errors carry a short message written to be
 * shown (it never quotes a secret); any other error shows only its first line, because library messages
 * continue with request details (URLs, bodies) on later lines. Callers still pass the line through
 * `redactOutput`.
 */
import { BaseError } from "../errors/base.js";

/** Describes `error` in one line: the short message of a named error, else its name and first message line. */
export function describeError(error: unknown): string {
  if (error instanceof BaseError) return error.shortMessage;
  if (!(error instanceof Error)) return "a non-error value was thrown";
  const first = error.message.split("\n", 1)[0]?.trim() ?? "";
  return first === "" ? error.name : `${error.name}: ${first}`;
}
