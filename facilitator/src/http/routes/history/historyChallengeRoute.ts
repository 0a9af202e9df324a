import { describeIssues, HistoryChallengeRequestSchema } from "@svc/scheme";

import { HistoryBadRequestError } from "../../../history/errors.js";
import type { HistoryService } from "../../../history/createHistoryService.js";
import type { HttpMiddleware } from "../../httpState.js";
import { valueOrAnswer } from "./answerRefusal.js";
import type { HistoryRateLimit } from "./historyRateLimit.js";

/**
 * `POST /history/auth/challenge` `{ subject }` → `{ message, nonce, expiresAt }`: the exact message the
 * subject's configured wallet must sign. 400 for a malformed body, 403 when no wallet is configured for the
 * subject, 429 past 10 per minute per client IP and subject, 503 at 10000 pending challenges.
 */
export function historyChallengeRoute(service: Pick<HistoryService, "login">, limit: HistoryRateLimit): HttpMiddleware {
  return async (ctx) => {
    const body: unknown = ctx.request.body;
    limit(ctx.state.clientIp, subjectKey(body));
    const parsed = HistoryChallengeRequestSchema.safeParse(body);
    if (!parsed.success) throw new HistoryBadRequestError(`invalid request: ${describeIssues(parsed.error)}`);
    ctx.body = valueOrAnswer(service.login.challenge(parsed.data.subject));
  };
}

/** The subject a body asks for, as a rate-limit key part: only the two real values count separately. */
function subjectKey(body: unknown): string {
  const subject: unknown = typeof body === "object" && body !== null ? Reflect.get(body, "subject") : undefined;
  return subject === "payer" || subject === "provider" ? subject : "?";
}
