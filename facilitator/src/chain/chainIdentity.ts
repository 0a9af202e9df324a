/**
 * Which chain a body of state belongs to: the chain id and the hash of block 0. The chain id alone does not
 * tell two local chains apart (every anvil is 31337), and a journal replayed against a chain that never held
 * its payments would show them finalized, watch their burns vanish and fail them as `evidence_vanished`. The
 * state records the identity the first time a daemon runs on it; a daemon pointed at another chain refuses to
 * start ({@link ChainIdentityMismatchError}).
 */
import type { Hex, PublicClient } from "viem";
import { z } from "zod";
import { BaseError } from "../errors/base.js";

export const ChainIdentitySchema = z.object({
  chainId: z.number().int().positive(),
  genesisHash: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, "expected a 32-byte hex hash")
    .transform((hash) => hash as Hex),
});

/** A chain's identity. */
export type ChainIdentity = z.infer<typeof ChainIdentitySchema>;

/** The identity of the chain `client` reads. */
export async function readChainIdentity(client: PublicClient): Promise<ChainIdentity> {
  const [chainId, genesis] = await Promise.all([client.getChainId(), client.getBlock({ blockNumber: 0n, includeTransactions: false })]);
  return { chainId, genesisHash: genesis.hash };
}

/** Whether two identities name the same chain. */
export function isSameChain(a: ChainIdentity, b: ChainIdentity): boolean {
  return a.chainId === b.chainId && a.genesisHash.toLowerCase() === b.genesisHash.toLowerCase();
}

/** The state was written on another chain than the one the RPC serves. */
export class ChainIdentityMismatchError extends BaseError {
  override name = "ChainIdentityMismatchError";
  readonly recorded: ChainIdentity;
  readonly actual: ChainIdentity;

  constructor({ state, recorded, actual }: { state: string; recorded: ChainIdentity; actual: ChainIdentity }) {
    super(
      `${state} belongs to chain ${recorded.chainId} with genesis ${recorded.genesisHash}, but network.rpc_urls serve chain ${actual.chainId} with genesis ${actual.genesisHash}: point network.rpc_urls at the recorded chain, or give this chain a state of its own`,
      {
        details: "payments recorded on one chain cannot settle on another; a state of its own is a new settlement.journal, or a new database with [storage]",
      },
    );
    this.recorded = recorded;
    this.actual = actual;
  }
}
