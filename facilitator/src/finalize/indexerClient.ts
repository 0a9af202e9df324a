/**
 * The zERC20 indexer's HTTP API as the finalize loop uses it: Merkle paths only. Transfers are found on the
 * facilitator's own RPC (createTransferScanner.ts): a `GET /events?to=<burn address>` right before a mint
 * would tell the indexer which address is about to be minted. The JSON is the published one (u64 fields are
 * numbers, uint256 fields hex), parsed by the scheme's indexer codec into domain values.
 */
import { INDEXER_MAX_PROOF_LEAVES, type IndexerProof, IndexerProofsSchema, indexerProofsRequest } from "@svc/scheme";
import type { Address } from "viem";
import type { z } from "zod";
import { IndexerRequestError } from "./errors.js";

/** One Merkle path as the indexer reports it. */
export type TransferProof = IndexerProof;

/** A client for one indexer deployment. */
export type IndexerClient = {
  /** Paths of `leafIndices` under the root at `targetIndex`; at most {@link INDEXER_MAX_PROOF_LEAVES} leaves per call. */
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
    proofs: (targetIndex, leafIndices) => {
      // A larger request would be refused by a v2 indexer; callers split (see splitProofRequests).
      if (leafIndices.length > INDEXER_MAX_PROOF_LEAVES) {
        return Promise.reject(
          new IndexerRequestError({ path: "/proofs", cause: new RangeError(`more than ${INDEXER_MAX_PROOF_LEAVES} leaves in one request`) }),
        );
      }
      return request("/proofs", IndexerProofsSchema, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(indexerProofsRequest({ chainId: params.chainId, token: params.token, targetIndex, leafIndices })),
      });
    },
  };
}
