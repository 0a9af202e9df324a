import {
  HistoryBadRequestError,
  HistoryChallengeCapacityError,
  HistoryConflictError,
  HistoryForbiddenError,
  HistoryNotFoundError,
  HistoryUnauthorizedError,
} from "../../../history/errors.js";
import type { HistoryOutcome, HistoryRefusal } from "../../../history/historyOutcome.js";
import { MAX_PENDING_LOGIN_CHALLENGES } from "../../../history/login/loginChallengeStore.js";

/**
 * The HTTP side of a history refusal: 400 malformed, 401 bad or expired credentials, 403 binding or policy
 * refused, 404 not visible, 409 wrong state, 503 challenge capacity. The message is the core's own, written
 * to be shown.
 */
export function answerRefusal(refusal: HistoryRefusal): never {
  switch (refusal.refusal) {
    case "malformed":
      throw new HistoryBadRequestError(refusal.message);
    case "unauthorized":
      throw new HistoryUnauthorizedError(refusal.message);
    case "forbidden":
      throw new HistoryForbiddenError(refusal.message);
    case "not_found":
      throw new HistoryNotFoundError(refusal.message);
    case "conflict":
      throw new HistoryConflictError(refusal.message);
    case "capacity":
      throw new HistoryChallengeCapacityError({ capacity: MAX_PENDING_LOGIN_CHALLENGES });
  }
}

/** The value of an outcome, or its refusal answered as HTTP. */
export function valueOrAnswer<T>(outcome: HistoryOutcome<T>): T {
  if (!outcome.ok) answerRefusal(outcome);
  return outcome.value;
}
