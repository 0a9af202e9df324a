/** The replacement policy of the daemon's senders, from the `[gas]` table. */
import type { GasConfig } from "../config/facilitatorConfigSchema.js";
import type { GasPolicy } from "./createTransactionMonitor.js";

const WEI_PER_GWEI = 1_000_000_000;

/**
 * `[gas] replace_after_seconds` and `max_fee_gwei` as the monitor takes them (milliseconds, wei).
 *
 * @example
 * const policy = gasPolicyOf(config.gas); // { replaceAfterMs: 30000, maxFeePerGas: undefined }
 */
export function gasPolicyOf(gas: GasConfig): GasPolicy {
  return {
    replaceAfterMs: Math.round(gas.replace_after_seconds * 1000),
    // Whole wei: the schema bounds the value, so the product stays an exact integer in a double.
    maxFeePerGas: gas.max_fee_gwei === undefined ? undefined : BigInt(Math.round(gas.max_fee_gwei * WEI_PER_GWEI)),
  };
}
