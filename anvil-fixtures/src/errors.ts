/**
 * The root of every error the fixture library throws, so callers can tell "the local stack failed" apart
 * from anything else with one `instanceof` and still read structured context instead of parsing text.
 */

/** Options every fixture error accepts. */
export type BaseErrorParameters = {
  /** The error this one wraps; kept so the original stack is not lost. */
  cause?: unknown;
  /** Extra lines (e.g. compiler output) appended to the message. */
  metaMessages?: readonly string[];
  /** Free-form detail, typically the wrapped error's message. */
  details?: string;
};

/** Base class of the fixture library's errors: a short message plus optional detail lines and cause. */
export class BaseError extends Error {
  override name = "AnvilFixturesError";
  /** The one-line message without the detail lines. */
  readonly shortMessage: string;
  /** Extra lines that were appended to {@link Error.message}. */
  readonly metaMessages: readonly string[];
  /** Free-form detail, if any. */
  readonly details: string | undefined;

  constructor(shortMessage: string, parameters: BaseErrorParameters = {}) {
    const details = parameters.details ?? (parameters.cause instanceof Error ? parameters.cause.message : undefined);
    const metaMessages = parameters.metaMessages ?? [];
    const message = [shortMessage, ...metaMessages, ...(details === undefined ? [] : [`Details: ${details}`])].join("\n");
    super(message, parameters.cause === undefined ? undefined : { cause: parameters.cause });
    this.shortMessage = shortMessage;
    this.metaMessages = metaMessages;
    this.details = details;
  }
}
