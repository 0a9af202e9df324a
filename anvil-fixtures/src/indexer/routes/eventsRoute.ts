import { encodeIndexerEvent } from "@svc/scheme";
import type { Middleware } from "koa";
import { isAddressEqual } from "viem";
import { z } from "zod";
import type { IndexerState } from "./indexerState.js";
import { addressInput, limitInput, parseInput, queryU64, requireIndexedToken } from "./requestInput.js";
import type { IndexedTransferEvent } from "../transferLog.js";

const eventsQuery = z.object({ chain_id: queryU64, token_address: addressInput, to: addressInput.optional(), limit: limitInput });

/** The indexer's JSON of one synced transfer. */
export function eventJson(event: IndexedTransferEvent): Record<string, unknown> {
  return encodeIndexerEvent({
    event_index: BigInt(event.index),
    from: event.from,
    to: event.to,
    value: event.value,
    eth_block_number: event.blockNumber,
  });
}

/** `GET /events?chain_id&token_address[&to][&limit]`: the first `limit` transfers (to `to`), ascending, no cursor. */
export function eventsRoute(state: IndexerState): Middleware {
  return (ctx) => {
    const query = parseInput(eventsQuery, ctx.query);
    requireIndexedToken(state, query.chain_id, query.token_address);
    const { to } = query;
    const matching = state
      .log()
      .events.filter((event) => to === undefined || isAddressEqual(event.to, to))
      .slice(0, query.limit);
    ctx.body = matching.map(eventJson);
  };
}
