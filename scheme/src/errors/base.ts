/** Options every library error accepts; `cause` is kept as-is so callers can walk the chain. */
export type BaseErrorParameters = {
  /** The underlying failure; kept on `cause`, never copied into the message (it may carry signatures). */
  cause?: unknown;
  /** One extra line of context, written by us, safe to show. */
  details?: string | undefined;
  /** Further context lines shown between the short message and the details. */
  metaMessages?: readonly string[] | undefined;
};

/**
 * The root of every error this package throws: an explicit `name`, a one-line `shortMessage`, and optional
 * `details`/`metaMessages`. Unlike viem, the message is never derived from `cause`, because a wrapped error
 * (a viem recovery failure, a zod issue with its input) can quote signature bytes or other payload values.
 */
export class BaseError extends Error {
  override name = "BaseError";
  /** The message without context lines, for logs and HTTP bodies. */
  readonly shortMessage: string;
  /** Extra context written by us, or the empty string. */
  readonly details: string;
  /** Context lines shown between the short message and the details. */
  readonly metaMessages: readonly string[] | undefined;

  constructor(shortMessage: string, parameters: BaseErrorParameters = {}) {
    const details = parameters.details ?? "";
    const message = [
      shortMessage,
      ...(parameters.metaMessages && parameters.metaMessages.length > 0 ? ["", ...parameters.metaMessages] : []),
      ...(details ? ["", `Details: ${details}`] : []),
    ].join("\n");
    super(message, parameters.cause === undefined ? undefined : { cause: parameters.cause });
    this.shortMessage = shortMessage;
    this.details = details;
    this.metaMessages = parameters.metaMessages;
  }

  /**
   * Follows `cause` to the deepest error, or returns the first error in the chain for which `predicate`
   * holds (`null` when none does). The depth bound guards against a cause cycle.
   */
  walk(predicate?: (error: unknown) => boolean): unknown {
    let current: unknown = this;
    for (let depth = 0; depth < 64; depth++) {
      if (predicate?.(current)) return current;
      const next = current instanceof Error ? current.cause : undefined;
      if (next === undefined) break;
      current = next;
    }
    return predicate ? null : current;
  }
}
