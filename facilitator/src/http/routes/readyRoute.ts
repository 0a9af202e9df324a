import type { AppDependencies } from "../appDependencies.js";
import type { HttpMiddleware } from "../httpState.js";
import { failingComponents } from "../../readiness/failingComponents.js";

/**
 * `GET /readyz`: 200 `{ status: "ready", components }` when every component passed the (cached) readiness
 * probe, else 503 `{ status: "not_ready", failing, components }`. Components carry reason codes and redacted
 * URLs only, so the route needs no token.
 */
export function readyRoute(deps: Pick<AppDependencies, "readiness">): HttpMiddleware {
  return async (ctx) => {
    const report = await deps.readiness();
    ctx.status = report.ready ? 200 : 503;
    ctx.body = report.ready
      ? { status: "ready", components: report.components }
      : { status: "not_ready", failing: failingComponents(report), components: report.components };
  };
}
