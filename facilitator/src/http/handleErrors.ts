import { BaseError } from "../errors/base.js";
import { BurnAddressUnavailableError, ChallengeCapacityError, ChallengeNotRecordedError, ProfileDisabledError } from "../challenges/errors.js";
import { QuoteOutOfRangeError } from "../challenges/errors.js";
import { HttpAnswerError } from "../errors/httpAnswerError.js";
import { StorageUnavailableError } from "../storage/errors.js";
import { NOT_READY_RETRY_AFTER_SECONDS } from "./requireReady.js";
import type { Logger } from "../log/createLogger.js";
import { errorLogFields } from "./errorLogFields.js";
import type { HttpMiddleware } from "./httpState.js";

/** An error the client may see: status, our own short message, and the headers that go with it. */
type ExposedAnswer = { status: number; message: string; headers: Readonly<Record<string, string>> };

/**
 * The outermost error boundary of the app: a known error becomes its status and `{ error: shortMessage }`;
 * anything else becomes 500 `{ error: "internal error" }` and one `http_error` log line. Only errors listed
 * here are exposed, because a foreign message (viem, a file read) can quote payloads or RPC URLs. Headers set
 * before the failure are dropped so that two requests failing the same way get byte-identical answers (the
 * admin 401 relies on this).
 */
export function handleErrors(logger: Logger): HttpMiddleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const answer = exposedAnswer(error);
      if (answer === undefined) {
        logger.error("http_error", { method: ctx.method, path: ctx.path, status: 500, ...errorLogFields(error) });
      }
      if (ctx.headerSent) return;
      for (const name of ctx.res.getHeaderNames()) ctx.res.removeHeader(name);
      ctx.set("Cache-Control", "no-store");
      ctx.status = answer?.status ?? 500;
      ctx.set({ ...answer?.headers });
      ctx.body = { error: answer?.message ?? "internal error" };
    }
  };
}

function exposedAnswer(error: unknown): ExposedAnswer | undefined {
  if (error instanceof HttpAnswerError) {
    return { status: error.status, message: error.shortMessage, headers: error.headers };
  }
  if (error instanceof StorageUnavailableError) {
    // Readiness fails on the same outage, so a retry after its refresh meets either the database or a 503 at once.
    return { status: 503, message: error.shortMessage, headers: { "Retry-After": String(NOT_READY_RETRY_AFTER_SECONDS) } };
  }
  if (!(error instanceof BaseError)) return undefined;
  const status = domainStatus(error);
  return status === undefined ? undefined : { status, message: error.shortMessage, headers: {} };
}

/** Statuses of the settlement domain's errors that a client is allowed to see. */
function domainStatus(error: BaseError): number | undefined {
  if (error instanceof ProfileDisabledError) return 403;
  if (error instanceof ChallengeCapacityError || error instanceof BurnAddressUnavailableError || error instanceof ChallengeNotRecordedError) return 503;
  if (error instanceof QuoteOutOfRangeError) return 400;
  return undefined;
}
