import { encodeIndexerProof, INDEXER_MAX_PROOF_LEAVES } from "@svc/scheme";
import type { Middleware } from "koa";
import { z } from "zod";
import { IndexerRequestError } from "../errors.js";
import type { IndexerState } from "./indexerState.js";
import { addressInput, bodyU64, parseInput, requireIndexedToken } from "./requestInput.js";

const proofsBody = z.object({
  chain_id: bodyU64,
  token_address: addressInput,
  target_index: bodyU64,
  leaf_indices: z.array(bodyU64),
});

/**
 * `POST /proofs {chain_id, token_address, target_index, leaf_indices}`: the Merkle path of each leaf in the
 * tree of the first `target_index` transfers. v2 refuses more than {@link INDEXER_MAX_PROOF_LEAVES} leaves per
 * request, as its indexer documents; v1 takes any number.
 */
export function proofsRoute(state: IndexerState): Middleware {
  return (ctx) => {
    const body = parseInput(proofsBody, ctx.request.body);
    requireIndexedToken(state, body.chain_id, body.token_address);
    if (state.protocol.version === "zerc20-v2" && body.leaf_indices.length > INDEXER_MAX_PROOF_LEAVES) {
      throw new IndexerRequestError(400, `at most ${INDEXER_MAX_PROOF_LEAVES} leaf_indices per request, got ${body.leaf_indices.length}`);
    }
    const log = state.log();
    if (body.target_index > log.size) {
      throw new IndexerRequestError(400, `target_index ${body.target_index} is beyond the ${log.size} synced transfers`);
    }
    const outOfRange = body.leaf_indices.find((leaf) => leaf >= body.target_index);
    if (outOfRange !== undefined) throw new IndexerRequestError(400, `leaf_index ${outOfRange} is not below target_index ${body.target_index}`);
    const root = log.tree.rootAt(body.target_index);
    const hashChain = log.hashChainAt(body.target_index);
    ctx.body = body.leaf_indices.map((leaf) =>
      encodeIndexerProof({
        target_index: BigInt(body.target_index),
        leaf_index: BigInt(leaf),
        root,
        hash_chain: hashChain,
        siblings: log.tree.pathAt(body.target_index, leaf),
      }),
    );
  };
}
