import { describeIssues, HistoryVerifyRequestSchema, parseHistoryLoginMessage } from "@svc/scheme";

import { HistoryBadRequestError } from "../../../history/errors.js";
import type { HistoryService } from "../../../history/createHistoryService.js";
import type { HttpMiddleware } from "../../httpState.js";
import { valueOrAnswer } from "./answerRefusal.js";
import type { HistoryRateLimit } from "./historyRateLimit.js";

/**
 * `POST /history/auth/verify` `{ message, signature }` → `{ token, expiresAt }`. 400 for a malformed body or a
 * message that is not a login message; 401 for an unknown, used or expired challenge, an edited message or
 * a signature from another wallet; 429 past 20 per minute per client IP and the message's subject.
 */
export function historyVerifyRoute(service: Pick<HistoryService, "login">, limit: HistoryRateLimit): HttpMiddleware {
  return async (ctx) => {
    const body: unknown = ctx.request.body;
    const message: unknown = typeof body === "object" && body !== null ? Reflect.get(body, "message") : undefined;
    limit(ctx.state.clientIp, (typeof message === "string" ? parseHistoryLoginMessage(message)?.subject : undefined) ?? "?");
    const parsed = HistoryVerifyRequestSchema.safeParse(body);
    if (!parsed.success) throw new HistoryBadRequestError(`invalid request: ${describeIssues(parsed.error)}`);
    ctx.body = valueOrAnswer(await service.login.verify(parsed.data.message, parsed.data.signature));
  };
}
