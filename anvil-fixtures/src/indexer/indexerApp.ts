/**
 * The fixture indexer's HTTP API, shaped like the public zERC20 indexer: `/healthz`, `/status`, `/events`,
 * `/proofs`, `/tree-index`. Numbers go out as 0x-hex strings. `/events` lists in ascending event index.
 */
import { bodyParser } from "@koa/bodyparser";
import Router from "@koa/router";
import Koa from "koa";
import { getAddress, isAddress, isAddressEqual, toHex, type Address } from "viem";
import { z } from "zod";
import type { TransferLog } from "./transferLog.js";

/** What the routes read: the indexed deployment and its current log. */
export type IndexerState = {
  label: string;
  chainId: number;
  token: Address;
  verifier: Address;
  log: () => TransferLog;
  reservedIndex: () => number;
};

const integer = z.union([
  z.number().int().nonnegative(),
  z
    .string()
    .regex(/^(0x[0-9a-fA-F]+|\d+)$/)
    .transform(Number),
]);
const address = z
  .string()
  .refine(isAddress, "not an address")
  .transform((value) => getAddress(value));

const eventsQuery = z.object({
  chain_id: integer,
  token_address: address,
  to: address.optional(),
  limit: integer.pipe(z.number().min(1).max(1000)).default(100),
});

const proofsBody = z.object({
  chain_id: integer,
  token_address: address,
  target_index: integer,
  leaf_indices: z.array(integer).min(1).max(1000),
});

const treeIndexQuery = z.object({ chain_id: integer, token_address: address, transfer_root: z.string().regex(/^0x[0-9a-fA-F]+$/) });

/** Builds the Koa app over live indexer state. */
export function createIndexerApp(state: IndexerState): Koa {
  const app = new Koa();
  const router = new Router();

  const parse = <T>(ctx: Koa.Context, schema: z.ZodType<T>, input: unknown): T | undefined => {
    const result = schema.safeParse(input);
    if (!result.success) {
      ctx.status = 400;
      ctx.body = { error: z.prettifyError(result.error) };
      return undefined;
    }
    return result.data;
  };
  const sameDeployment = (ctx: Koa.Context, chainId: number, token: Address): boolean => {
    if (chainId === state.chainId && isAddressEqual(token, state.token)) return true;
    ctx.status = 404;
    ctx.body = { error: `no token ${token} indexed on chain ${chainId}` };
    return false;
  };

  router.get("/healthz", (ctx) => {
    ctx.body = { status: "ok" };
  });

  router.get("/status", (ctx) => {
    const log = state.log();
    ctx.body = [
      {
        label: state.label,
        chain_id: state.chainId,
        token_address: state.token,
        verifier_address: state.verifier,
        onchain_reserved_index: state.reservedIndex(),
        onchain_proved_index: log.latestProvedIndex,
        events_synced_index: log.size,
        tree_synced_index: log.tree.size,
      },
    ];
  });

  router.get("/events", (ctx) => {
    const query = parse(ctx, eventsQuery, ctx.query);
    if (!query || !sameDeployment(ctx, query.chain_id, query.token_address)) return;
    const matching = state
      .log()
      .events.filter((event) => !query.to || isAddressEqual(event.to, query.to))
      .slice(0, query.limit);
    ctx.body = matching.map((event) => ({
      event_index: toHex(event.index),
      from: event.from,
      to: event.to,
      value: toHex(event.value),
      eth_block_number: toHex(event.blockNumber),
    }));
  });

  router.post("/proofs", (ctx) => {
    const body = parse(ctx, proofsBody, ctx.request.body);
    if (!body || !sameDeployment(ctx, body.chain_id, body.token_address)) return;
    const log = state.log();
    if (body.target_index > log.size) {
      ctx.status = 400;
      ctx.body = { error: `target_index ${body.target_index} is beyond the ${log.size} synced transfers` };
      return;
    }
    const outOfRange = body.leaf_indices.find((leaf) => leaf >= body.target_index);
    if (outOfRange !== undefined) {
      ctx.status = 400;
      ctx.body = { error: `leaf_index ${outOfRange} is not below target_index ${body.target_index}` };
      return;
    }
    const root = toHex(log.tree.rootAt(body.target_index));
    const hashChain = toHex(log.hashChainAt(body.target_index));
    ctx.body = body.leaf_indices.map((leaf) => ({
      target_index: toHex(body.target_index),
      leaf_index: toHex(leaf),
      root,
      hash_chain: hashChain,
      siblings: log.tree.pathAt(body.target_index, leaf).map((sibling) => toHex(sibling)),
    }));
  });

  router.get("/tree-index", (ctx) => {
    const query = parse(ctx, treeIndexQuery, ctx.query);
    if (!query || !sameDeployment(ctx, query.chain_id, query.token_address)) return;
    const treeIndex = state.log().provedRoots.get(BigInt(query.transfer_root));
    if (treeIndex === undefined) {
      ctx.status = 404;
      ctx.body = { error: "transfer root not proved" };
      return;
    }
    ctx.body = { tree_index: toHex(treeIndex) };
  });

  app.use(bodyParser({ enableTypes: ["json"], jsonLimit: "64kb" }));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
