import { zerc20TokenAbi } from "@svc/scheme";
import { formatUnits } from "viem";

import type { Policy } from "../policy/policy.js";
import { createReadClient } from "./createReadClient.js";

/** What the agent shows about a token besides its address. */
export type TokenInfo = { symbol: string; decimals: number };

/**
 * Reads a token's symbol and decimals for display, best effort: a quote must still work when the RPC is
 * down or the token is odd, so failures give `undefined` and amounts are shown in base units only.
 */
export async function readTokenInfo(policy: Policy, asset: `0x${string}`): Promise<TokenInfo | undefined> {
  const client = createReadClient(policy);
  try {
    const [symbol, decimals] = await Promise.all([
      client.readContract({ address: asset, abi: zerc20TokenAbi, functionName: "symbol" }),
      client.readContract({ address: asset, abi: zerc20TokenAbi, functionName: "decimals" }),
    ]);
    return { symbol, decimals };
  } catch {
    return undefined;
  }
}

/** An amount as people read it: `1.01 ZRC (1010000000000000000 base units)`, or base units alone. */
export function formatAmount(amount: string | bigint, token: TokenInfo | undefined): string {
  const base = `${amount.toString()} base units`;
  return token === undefined ? base : `${formatUnits(BigInt(amount), token.decimals)} ${token.symbol} (${base})`;
}
