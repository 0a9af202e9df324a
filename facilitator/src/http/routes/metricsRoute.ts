import type { FacilitatorMetrics } from "../../metrics/createFacilitatorMetrics.js";
import type { HttpMiddleware } from "../httpState.js";

/** `GET /metrics`: the registry in the Prometheus text exposition format. */
export function metricsRoute(metrics: FacilitatorMetrics): HttpMiddleware {
  return async (ctx) => {
    const text = await metrics.registry.metrics();
    ctx.type = metrics.registry.contentType;
    ctx.body = text;
  };
}
