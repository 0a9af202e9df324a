import type Koa from "koa";

import type { HistoryService } from "../../../history/createHistoryService.js";
import type { HistoryIdentity } from "../../../history/participantBinding.js";
import { valueOrAnswer } from "./answerRefusal.js";

/**
 * The authenticated identity of a history request (401 without one, 403 without the tenant grant). The
 * service decides which headers count: in wallet-token mode only `Authorization`.
 */
export async function identifyHistoryRequest(service: Pick<HistoryService, "identify">, ctx: Pick<Koa.Context, "get">): Promise<HistoryIdentity> {
  const outcome = await service.identify({
    authorization: ctx.get("authorization") || undefined,
    header: (name) => ctx.get(name) || undefined,
  });
  return valueOrAnswer(outcome);
}
