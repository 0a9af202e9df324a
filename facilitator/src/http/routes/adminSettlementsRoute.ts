import { z } from "zod";

import { InvalidRequestError } from "../errors.js";
import type { AppDependencies } from "../appDependencies.js";
import { SETTLEMENT_STATES, type SettlementState } from "../../operator/adminSettlement.js";
import type { HttpMiddleware } from "../httpState.js";

/** Page size of `GET /admin/settlements` when `limit` is not given. */
export const DEFAULT_ADMIN_PAGE_LIMIT = 100;

/** Largest `limit` accepted. */
export const MAX_ADMIN_PAGE_LIMIT = 1000;

const StateQuerySchema = z.enum(SETTLEMENT_STATES).optional();
const pageNumber = (maximum: number) =>
  z
    .string()
    .regex(/^(0|[1-9][0-9]{0,6})$/)
    .transform(Number)
    .pipe(z.int().max(maximum))
    .optional();
const LimitQuerySchema = pageNumber(MAX_ADMIN_PAGE_LIMIT).refine((limit) => limit === undefined || limit >= 1);
const OffsetQuerySchema = pageNumber(9_999_999);

/**
 * `GET /admin/settlements?state=accepted|finalized|failed|late_burn&limit=&offset=`: the settlements in one
 * state, or all without `state`, in journal order, one page at a time, as `{ settlements, total, limit, offset,
 * counts }` where `total` counts the filtered list and `counts` every state. An unknown or repeated
 * parameter value is 400 rather than an empty list, so a typo is not mistaken for "nothing to do".
 */
export function adminSettlementsRoute(deps: Pick<AppDependencies, "admin">): HttpMiddleware {
  return (ctx) => {
    const state = StateQuerySchema.safeParse(ctx.query.state);
    if (!state.success) {
      throw new InvalidRequestError({ reason: `state must be one of ${SETTLEMENT_STATES.join(", ")}` });
    }
    const limit = LimitQuerySchema.safeParse(ctx.query.limit);
    if (!limit.success) throw new InvalidRequestError({ reason: `limit must be a whole number from 1 to ${MAX_ADMIN_PAGE_LIMIT}` });
    const offset = OffsetQuerySchema.safeParse(ctx.query.offset);
    if (!offset.success) throw new InvalidRequestError({ reason: "offset must be a whole number of at least 0" });

    const all = deps.admin.settlements(undefined);
    const counts = Object.fromEntries(SETTLEMENT_STATES.map((name) => [name, 0])) as Record<SettlementState, number>;
    for (const entry of all) counts[entry.state] += 1;
    const matching = state.data === undefined ? all : all.filter((entry) => entry.state === state.data);
    const pageLimit = limit.data ?? DEFAULT_ADMIN_PAGE_LIMIT;
    const pageOffset = offset.data ?? 0;
    ctx.body = {
      settlements: matching.slice(pageOffset, pageOffset + pageLimit),
      total: matching.length,
      limit: pageLimit,
      offset: pageOffset,
      counts,
    };
  };
}
