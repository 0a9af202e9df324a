import type { Middleware } from "koa";
import type { IndexerState } from "./indexerState.js";

/**
 * `GET /status`: one element per indexed token with the on-chain reserved and proved indexes and how far the
 * events and the tree are synced, as numbers, or null when unknown. The fixture folds no IVC proofs ahead of
 * time, so `ivc_generated_index` is always null.
 */
export function statusRoute(state: IndexerState): Middleware {
  return (ctx) => {
    const log = state.log();
    ctx.body = [
      {
        label: state.label,
        chain_id: state.chainId,
        token_address: state.token,
        verifier_address: state.verifier,
        onchain_reserved_index: log.reservedIndex ?? null,
        onchain_proved_index: log.latestProvedIndex,
        events_synced_index: log.size,
        tree_synced_index: log.tree.size,
        ivc_generated_index: null,
      },
    ];
  };
}
