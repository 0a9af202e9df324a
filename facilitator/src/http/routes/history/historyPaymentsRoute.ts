import type { HistoryService } from "../../../history/createHistoryService.js";
import type { HttpMiddleware } from "../../httpState.js";
import { identifyHistoryRequest } from "./identifyHistoryRequest.js";

/**
 * `GET /history/payments` (bearer identity token) → `{ payments: [...] }`: every payment bound to the caller,
 * in its role's projection. No pagination, cursor, limit or ordering semantics (the spec defines none).
 */
export function historyPaymentsRoute(service: Pick<HistoryService, "identify" | "listPayments">): HttpMiddleware {
  return async (ctx) => {
    const identity = await identifyHistoryRequest(service, ctx);
    ctx.body = { payments: await service.listPayments(identity) };
  };
}
