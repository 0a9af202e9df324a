import type { Middleware } from "koa";
import { z } from "zod";
import { IndexerRequestError } from "../errors.js";
import type { IndexerState } from "./indexerState.js";
import { addressInput, parseInput, queryU64, requireIndexedToken } from "./requestInput.js";

const treeIndexQuery = z.object({
  chain_id: queryU64,
  token_address: addressInput,
  transfer_root: z
    .string()
    .regex(/^0x[0-9a-fA-F]{1,64}$/, "expected 0x and up to 64 hex digits")
    .transform((value) => BigInt(value)),
});

/** `GET /tree-index?chain_id&token_address&transfer_root`: the index the verifier proved that root at; 404 if none. */
export function treeIndexRoute(state: IndexerState): Middleware {
  return (ctx) => {
    const query = parseInput(treeIndexQuery, ctx.query);
    requireIndexedToken(state, query.chain_id, query.token_address);
    const treeIndex = state.log().provedRoots.get(query.transfer_root);
    if (treeIndex === undefined) throw new IndexerRequestError(404, "transfer root not proved");
    ctx.body = { tree_index: treeIndex };
  };
}
