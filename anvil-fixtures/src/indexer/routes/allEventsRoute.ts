import type { Middleware } from "koa";
import { isAddressEqual } from "viem";
import { z } from "zod";
import { eventJson } from "./eventsRoute.js";
import type { IndexerState } from "./indexerState.js";
import { addressInput, limitInput, parseInput } from "./requestInput.js";

/** Most recipients one `/all-events` request may name (v2 documents 100). */
export const MAX_ALL_EVENTS_RECIPIENTS = 100;

const allEventsQuery = z.object({
  // A repeated `recipients[]` parses as an array, a single one as a string.
  "recipients[]": z
    .union([z.array(addressInput), addressInput.transform((recipient) => [recipient])])
    .refine((recipients) => recipients.length <= MAX_ALL_EVENTS_RECIPIENTS, `at most ${MAX_ALL_EVENTS_RECIPIENTS} recipients`),
  limit: limitInput,
});

/**
 * v2 `GET /all-events?recipients[]=…&limit`: for every indexed token (here the one), the first `limit`
 * transfers to each recipient, with `chain_id` and `token_address` on every element, ascending by index.
 */
export function allEventsRoute(state: IndexerState): Middleware {
  return (ctx) => {
    const query = parseInput(allEventsQuery, ctx.query);
    const events = state.log().events;
    const recipients = [...new Set(query["recipients[]"])];
    const matching = recipients
      .flatMap((recipient) => events.filter((event) => isAddressEqual(event.to, recipient)).slice(0, query.limit))
      .sort((left, right) => left.index - right.index);
    ctx.body = matching.map((event) => ({ ...eventJson(event), chain_id: state.chainId, token_address: state.token }));
  };
}
