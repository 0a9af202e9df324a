/** Errors of the storage adapters. */
import { redactUrl } from "../config/redactUrl.js";
import { BaseError } from "../errors/base.js";

/** The storage URL is not a PostgreSQL URL this adapter accepts. */
export class InvalidStorageUrlError extends BaseError {
  override name = "InvalidStorageUrlError";
  constructor({ variable }: { variable: string }) {
    super(`${variable} is not a postgres:// or postgresql:// URL`);
  }
}

/** The database did not answer; the URL in the message is redacted and the driver's error kept as cause. */
export class StorageUnreachableError extends BaseError {
  override name = "StorageUnreachableError";
  constructor({ url, cause }: { url: string; cause?: unknown }) {
    const code = typeof cause === "object" && cause !== null && "code" in cause ? String(cause.code) : undefined;
    super(`storage database at ${redactUrl(url)} is unreachable`, { cause, details: code === undefined ? undefined : `code ${code}` });
  }
}

/** The database schema is behind (or ahead of) what this version needs; `migrate` applies what is missing. */
export class StorageSchemaMismatchError extends BaseError {
  override name = "StorageSchemaMismatchError";
  constructor({ applied, expected }: { applied: number; expected: number }) {
    // The next step belongs in the one line `start` prints, not only in the details.
    super(
      `storage schema is at version ${applied}, this facilitator needs ${expected}: ${
        applied < expected ? "run `svc-facilitator migrate --config <path>`" : "this facilitator is older than the database schema"
      }`,
    );
  }
}

/**
 * The database stopped answering while a request or a pass was using it (connection refused, dropped or timed
 * out, or the server shutting down). Nothing that depended on the failed step took effect; the HTTP layer
 * answers it as `storage_unavailable` or 503 with `Retry-After`, never 500. The driver's error is the cause.
 */
export class StorageUnavailableError extends BaseError {
  override name = "StorageUnavailableError";
  constructor({ cause }: { cause?: unknown } = {}) {
    const code = typeof cause === "object" && cause !== null && "code" in cause ? String(cause.code) : undefined;
    super("the storage database is unavailable; retry shortly", { cause, details: code === undefined ? undefined : `code ${code}` });
  }
}
