/** Options every facilitator error accepts; `cause` is kept as-is so callers can walk the chain. */
export type BaseErrorParameters = {
  /** The underlying failure; kept on `cause`, never copied into the message (it may quote secrets or payloads). */
  cause?: unknown;
  /** One extra line of context, written by us, safe to show. */
  details?: string | undefined;
  /** Further context lines shown between the short message and the details. */
  metaMessages?: readonly string[] | undefined;
};

/**
 * The root of every error the facilitator throws: an explicit `name`, a one-line `shortMessage`, optional
 * `details`/`metaMessages`, and `cause` when wrapping. The message is built only from text we wrote, never
 * from `cause`, because a wrapped error (a file read, a TOML parse, a viem call) can quote a secret.
 */
export class BaseError extends Error {
  override name = "BaseError";
  /** The message without context lines, for one-line log fields and HTTP bodies. */
  readonly shortMessage: string;
  /** Extra context written by us, or the empty string. */
  readonly details: string;
  /** Context lines shown between the short message and the details. */
  readonly metaMessages: readonly string[] | undefined;

  constructor(shortMessage: string, parameters: BaseErrorParameters = {}) {
    const details = parameters.details ?? "";
    const meta = parameters.metaMessages ?? [];
    const message = [
      shortMessage,
      ...(meta.length > 0 ? ["", ...meta] : []),
      ...(details ? ["", `Details: ${details}`] : []),
    ].join("\n");
    super(message, parameters.cause === undefined ? undefined : { cause: parameters.cause });
    this.shortMessage = shortMessage;
    this.details = details;
    this.metaMessages = parameters.metaMessages;
  }

  /** Follows `cause` to the deepest error, or to the first one for which `predicate` holds (else `null`). */
  walk(predicate?: (error: unknown) => boolean): unknown {
    let current: unknown = this;
    for (;;) {
      if (predicate?.(current)) return current;
      const next = current instanceof Error ? current.cause : undefined;
      if (next === undefined) return predicate ? null : current;
      current = next;
    }
  }
}
