/**
 * The zERC20 indexer's JSON, as both versions publish it: u64 fields (indexes, chain id, block numbers) are
 * JSON numbers, uint256 fields (values, roots, hash chains, siblings) lowercase `0x` hex without padding,
 * addresses EIP-55 strings. Parsed here into plain domain values (bigints); the encoders write exactly the
 * published forms, so the local fixture indexer and the facilitator's client share one definition.
 */
import { getAddress, type Address } from "viem";
import { z } from "zod";
import { TRANSFER_TREE_HEIGHT } from "../merkle.js";

/** Largest number of leaves one `POST /proofs` may ask for (v2 documents 100; v1 accepts as many). */
export const INDEXER_MAX_PROOF_LEAVES = 100;

const u64 = z
  .number()
  .int()
  .nonnegative()
  .max(Number.MAX_SAFE_INTEGER)
  .transform((value) => BigInt(value));
const uint256 = z
  .string()
  .regex(/^0x[0-9a-fA-F]{1,64}$/)
  .transform((value) => BigInt(value));
const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/)
  .transform((value) => getAddress(value));

/** `uint256` as the indexer writes it: `0x` and lowercase hex digits without padding (`0x0` for zero). */
export function indexerHex(value: bigint): string {
  return `0x${value.toString(16)}`;
}

/** One answer element of `POST /proofs`. */
export const IndexerProofSchema = z.looseObject({
  target_index: u64,
  leaf_index: u64,
  root: uint256,
  hash_chain: uint256,
  siblings: z.array(uint256).length(TRANSFER_TREE_HEIGHT),
});

/** A Merkle path as the indexer reports it, as domain values. */
export type IndexerProof = z.infer<typeof IndexerProofSchema>;

/** The body of a `POST /proofs` answer. */
export const IndexerProofsSchema = z.array(IndexerProofSchema);

/** One element of `GET /events` (and v2's `/all-events`, which adds `chain_id` and `token_address`). */
export const IndexerEventSchema = z.looseObject({
  event_index: u64,
  from: address,
  to: address,
  value: uint256,
  eth_block_number: u64,
});

/** An indexed transfer as the indexer reports it. */
export type IndexerEvent = z.infer<typeof IndexerEventSchema>;

/** The body of a `GET /events` answer. */
export const IndexerEventsSchema = z.array(IndexerEventSchema);

const optionalIndex = u64.nullable();

/** One element of `GET /status`. */
export const IndexerStatusSchema = z.array(
  z.looseObject({
    label: z.string(),
    chain_id: u64,
    token_address: address,
    verifier_address: address,
    onchain_reserved_index: optionalIndex,
    onchain_proved_index: optionalIndex,
    events_synced_index: optionalIndex,
    tree_synced_index: optionalIndex,
    ivc_generated_index: optionalIndex,
  }),
);

/** The body of a `GET /tree-index` answer. */
export const IndexerTreeIndexSchema = z.looseObject({ tree_index: u64 });

/** The `POST /proofs` request body for `targetIndex` and `leafIndices`. */
export function indexerProofsRequest(params: {
  chainId: number;
  token: Address;
  targetIndex: bigint;
  leafIndices: readonly bigint[];
}): Record<string, unknown> {
  return {
    chain_id: params.chainId,
    token_address: params.token,
    target_index: Number(params.targetIndex),
    leaf_indices: params.leafIndices.map(Number),
  };
}

/** Writes one Merkle path in the indexer's JSON form. */
export function encodeIndexerProof(proof: IndexerProof): Record<string, unknown> {
  return {
    target_index: Number(proof.target_index),
    leaf_index: Number(proof.leaf_index),
    root: indexerHex(proof.root),
    hash_chain: indexerHex(proof.hash_chain),
    siblings: proof.siblings.map(indexerHex),
  };
}

/** Writes one transfer in the indexer's JSON form. */
export function encodeIndexerEvent(event: IndexerEvent): Record<string, unknown> {
  return {
    event_index: Number(event.event_index),
    from: event.from,
    to: event.to,
    value: indexerHex(event.value),
    eth_block_number: Number(event.eth_block_number),
  };
}
