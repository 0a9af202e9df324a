/**
 * Parsing of the indexer API's inputs, as the published indexer takes them: u64 fields are decimal numbers
 * (strings in a query, JSON numbers in a body), addresses any-case hex. A bad input is a 400, a chain or token
 * the indexer does not index a 404.
 */
import { getAddress, isAddress, isAddressEqual, type Address } from "viem";
import { z } from "zod";
import { IndexerRequestError } from "../errors.js";
import type { IndexerState } from "./indexerState.js";

/** A u64 in a query string: decimal digits. */
export const queryU64 = z
  .string()
  .regex(/^\d{1,16}$/, "expected a decimal integer")
  .transform(Number)
  .pipe(z.number().max(Number.MAX_SAFE_INTEGER));

/** A u64 in a JSON body: a JSON number. */
export const bodyU64 = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** An address, checksummed on the way in. */
export const addressInput = z
  .string()
  .refine((value) => isAddress(value, { strict: false }), "not an address")
  .transform((value) => getAddress(value));

/** `limit` of the event lists: 1..1000, 100 when absent. */
export const limitInput = queryU64.pipe(z.number().min(1).max(1000)).default(100);

/** Parses `input` with `schema`, or throws a 400 naming what is wrong. */
export function parseInput<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (!result.success) throw new IndexerRequestError(400, z.prettifyError(result.error));
  return result.data;
}

/** Throws a 404 unless `chainId` and `token` are the indexed deployment. */
export function requireIndexedToken(state: IndexerState, chainId: number, token: Address): void {
  if (chainId !== state.chainId || !isAddressEqual(token, state.token)) {
    throw new IndexerRequestError(404, `no token ${token} indexed on chain ${chainId}`);
  }
}
