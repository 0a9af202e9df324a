import { formatUnits } from "viem";

import type { TokenInfo } from "../payment/tokenInfo.js";
import { PolicyConfigError } from "./errors.js";

/**
 * A limit as the person wrote it: in token units (`0.002`, converted with each token's decimals when an
 * offer is judged) or, with the `base` suffix, in base units (`2000000000000000base`).
 */
export type SpendAmount = { unit: "token"; text: string } | { unit: "base"; value: bigint };

/** The suffix that marks a limit written in base units. */
export const BASE_UNITS_SUFFIX = "base";

/** uint256 has 78 decimal digits; a longer number cannot be an amount. */
const MAX_DIGITS = 78;

const EXPECTED = `token units with a decimal point (0.002, 10.0), 0, or base units with the \`${BASE_UNITS_SUFFIX}\` suffix (2000${BASE_UNITS_SUFFIX}); no sign, exponent, separator or leading zero`;

/**
 * Parses a limit variable. A plain integer other than `0` is refused: it meant base units before limits
 * were written in token units, and reading it in token units now would silently raise the limit by
 * 10^decimals.
 */
export function parseSpendAmount(variable: string, value: string): SpendAmount {
  if (value === "0") return { unit: "base", value: 0n };
  const base = new RegExp(`^(0|[1-9][0-9]{0,${MAX_DIGITS - 1}})${BASE_UNITS_SUFFIX}$`).exec(value);
  if (base?.[1] !== undefined) return { unit: "base", value: BigInt(base[1]) };
  if (new RegExp(`^(0|[1-9][0-9]{0,${MAX_DIGITS - 1}})\\.[0-9]{1,${MAX_DIGITS}}$`).test(value)) return { unit: "token", text: value };
  if (/^[1-9][0-9]*$/.test(value)) {
    throw new PolicyConfigError({
      variable,
      expected: `${EXPECTED}. A plain integer is ambiguous: it meant base units in earlier versions; write 10.0 for ten tokens or append \`${BASE_UNITS_SUFFIX}\` to keep base units`,
    });
  }
  throw new PolicyConfigError({ variable, expected: EXPECTED });
}

/**
 * The amount in base units of a token with `decimals`, or `undefined` for token units when the decimals
 * are unknown. Digits beyond the token's precision are dropped: a limit only ever rounds down.
 */
export function spendAmountInBaseUnits(amount: SpendAmount, decimals: number | undefined): bigint | undefined {
  if (amount.unit === "base") return amount.value;
  if (decimals === undefined) return undefined;
  const [whole = "0", fraction = ""] = amount.text.split(".");
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.slice(0, decimals).padEnd(decimals, "0") || "0");
}

/** A limit as people read it: `0.002 zFIX`, `0.002 token units` when the token is unknown, base units as written. */
export function describeSpendAmount(amount: SpendAmount, token: TokenInfo | undefined, options: { baseUnits?: boolean | undefined } = {}): string {
  const base = spendAmountInBaseUnits(amount, token?.decimals);
  if (token === undefined || base === undefined) return amount.unit === "base" ? `${amount.value} base units` : `${amount.text} token units`;
  const units = `${formatUnits(base, token.decimals)} ${token.symbol}`;
  return options.baseUnits === true ? `${units} (${base} base units)` : units;
}

/** The amount as written in the environment, for `--json` output. */
export function spendAmountText(amount: SpendAmount): string {
  return amount.unit === "base" ? `${amount.value}${BASE_UNITS_SUFFIX}` : amount.text;
}
