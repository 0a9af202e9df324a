import { z } from "zod";

import { InvalidRequestError } from "../../errors/http.js";
import { type AppDependencies, SETTLEMENT_STATES } from "../appDependencies.js";
import type { HttpMiddleware } from "../httpState.js";

const StateQuerySchema = z.enum(SETTLEMENT_STATES).optional();

/**
 * `GET /admin/settlements?state=accepted|finalized|failed|late_burn`: the settlements in one state, or all
 * without `state`, as `{ settlements: [...] }` (an object, so fields can be added later). An unknown or
 * repeated `state` is 400 rather than an empty list, so a typo is not mistaken for "nothing to do".
 */
export function adminSettlementsRoute(deps: Pick<AppDependencies, "admin">): HttpMiddleware {
  return (ctx) => {
    const parsed = StateQuerySchema.safeParse(ctx.query.state);
    if (!parsed.success) {
      throw new InvalidRequestError({ reason: `state must be one of ${SETTLEMENT_STATES.join(", ")}` });
    }
    ctx.body = { settlements: deps.admin.settlements(parsed.data) };
  };
}
