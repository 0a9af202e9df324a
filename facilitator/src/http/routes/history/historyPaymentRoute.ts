import type { RouterMiddleware } from "@koa/router";
import { PaymentIdSchema } from "@svc/scheme";

import { HistoryBadRequestError } from "../../../history/errors.js";
import type { HistoryService } from "../../../history/createHistoryService.js";
import type { HttpState } from "../../httpState.js";
import { valueOrAnswer } from "./answerRefusal.js";
import { identifyHistoryRequest } from "./identifyHistoryRequest.js";

/**
 * `GET /history/payments/:paymentId` (bearer identity token) → one payment in the caller's projection. The id
 * is the payment's challenge nonce, any case. 404 for a payment that does not exist or is not bound to the
 * caller alike, so the answer does not tell which.
 */
export function historyPaymentRoute(service: Pick<HistoryService, "identify" | "getPayment">): RouterMiddleware<HttpState> {
  return async (ctx) => {
    const identity = await identifyHistoryRequest(service, ctx);
    const paymentId = PaymentIdSchema.safeParse(ctx.params.paymentId?.toLowerCase());
    if (!paymentId.success) throw new HistoryBadRequestError("invalid request: paymentId must be 0x and 64 hex digits");
    ctx.body = valueOrAnswer(await service.getPayment(identity, paymentId.data));
  };
}
