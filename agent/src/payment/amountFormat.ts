import { formatUnits } from "viem";

import type { Policy } from "../policy/policy.js";
import { readTokenInfo, type TokenInfo } from "./tokenInfo.js";

/** Turns an amount in base units into the text a human reads. */
export type AmountFormat = (amount: string | bigint) => string;

/** Amounts in base units only: the fallback when the token's symbol and decimals are unknown. */
export const BASE_UNITS_FORMAT: AmountFormat = (amount) => `${amount.toString()} base units`;

/**
 * Amounts the way `cast` prints token values: decimal token units and the symbol (`0.00101 zFIX`), never
 * a float; with `baseUnits` the exact base units follow in brackets. Without token data, base units.
 */
export function amountFormat(token: TokenInfo | undefined, options: { baseUnits?: boolean | undefined } = {}): AmountFormat {
  if (token === undefined) return BASE_UNITS_FORMAT;
  return (amount) => {
    const units = `${formatUnits(BigInt(amount), token.decimals)} ${token.symbol}`;
    return options.baseUnits === true ? `${units} (${amount.toString()} base units)` : units;
  };
}

/**
 * Reads the symbol and decimals of each token once (best effort, in parallel) and returns a format per
 * token address (lower-case lookup); unknown tokens fall back to base units.
 */
export async function readAmountFormats(
  policy: Policy,
  assets: readonly string[],
  options: { baseUnits?: boolean | undefined } = {},
): Promise<(asset: string) => AmountFormat> {
  const tokenFor = await readTokens(policy, assets);
  return (asset) => amountFormat(tokenFor(asset), options);
}

/** Reads the symbol and decimals of each token once (best effort, in parallel); lookup ignores case. */
export async function readTokens(policy: Policy, assets: readonly string[]): Promise<(asset: string) => TokenInfo | undefined> {
  const unique = [...new Set(assets.map((asset) => asset.toLowerCase()))];
  const infos = await Promise.all(unique.map((asset) => readTokenInfo(policy, asset as `0x${string}`)));
  const tokens = new Map(unique.map((asset, index) => [asset, infos[index]]));
  return (asset) => tokens.get(asset.toLowerCase());
}
