import { z } from "zod";

import { InvalidNetworkError } from "./errors.js";

/** A CAIP-2 EVM network, `eip155:<chainId>`, with a positive decimal chain id and no leading zero. */
export const NetworkSchema = z
  .templateLiteral(["eip155:", z.string().regex(/^[1-9][0-9]{0,15}$/)], {
    error: "expected a CAIP-2 network eip155:<chainId>",
  })
  .refine((value) => Number.isSafeInteger(Number(value.slice("eip155:".length))), {
    error: "chain id is not a safe integer",
  });

/** A CAIP-2 EVM network identifier as it travels on the wire. */
export type Network = z.infer<typeof NetworkSchema>;

/** Builds the CAIP-2 identifier for an EVM chain id. */
export function toNetwork(chainId: number): Network {
  const parsed = NetworkSchema.safeParse(`eip155:${chainId}`);
  if (!parsed.success) throw new InvalidNetworkError({ network: String(chainId) });
  return parsed.data;
}

/** Reads the chain id out of a CAIP-2 `eip155:<chainId>` identifier. */
export function parseNetwork(network: string): number {
  const parsed = NetworkSchema.safeParse(network);
  if (!parsed.success) throw new InvalidNetworkError({ network });
  return Number(parsed.data.slice("eip155:".length));
}
