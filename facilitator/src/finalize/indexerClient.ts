/**
 * The zERC20 indexer's HTTP API as the finalize loop uses it: Merkle paths only. Transfers are found on the
 * facilitator's own RPC (createTransferScanner.ts): a `GET /events?to=<burn address>` right before a mint
 * would tell the indexer which address is about to be minted.
 */
import { hexToBigInt, type Address, type Hex } from "viem";
import { z } from "zod";
import { IndexerRequestError } from "./errors.js";

const hexNumber = z
  .string()
  .regex(/^0x[0-9a-fA-F]+$/)
  .transform((value) => hexToBigInt(value as Hex));

const ProofsSchema = z.array(
  z.looseObject({ target_index: hexNumber, leaf_index: hexNumber, root: hexNumber, hash_chain: hexNumber, siblings: z.array(hexNumber).length(40) }),
);

/** One Merkle path as the indexer reports it. */
export type TransferProof = z.infer<typeof ProofsSchema>[number];

/** A client for one indexer deployment. */
export type IndexerClient = {
  proofs: (targetIndex: bigint, leafIndices: readonly bigint[]) => Promise<TransferProof[]>;
};

/** Creates the client; every answer is validated before use. */
export function createIndexerClient(params: { url: string; chainId: number; token: Address; timeoutMs?: number }): IndexerClient {
  const base = params.url.replace(/\/+$/, "");
  const request = async <T>(path: string, schema: z.ZodType<T>, init?: RequestInit): Promise<T> => {
    const response = await fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(params.timeoutMs ?? 10_000) }).catch((cause: unknown) => {
      throw new IndexerRequestError({ path, cause });
    });
    if (!response.ok) throw new IndexerRequestError({ path, status: response.status });
    const parsed = schema.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) throw new IndexerRequestError({ path, cause: parsed.error });
    return parsed.data;
  };
  return {
    proofs: (targetIndex, leafIndices) =>
      request("/proofs", ProofsSchema, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          chain_id: params.chainId,
          token_address: params.token,
          target_index: Number(targetIndex),
          leaf_indices: leafIndices.map(Number),
        }),
      }),
  };
}
