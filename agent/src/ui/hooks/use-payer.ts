import { useCallback } from "react";

import type { TuiDependencies } from "../tuiDependencies.js";
import { usePolled } from "./use-polled.js";

/** The payer shown in the header: its address, and its balance of `asset` when one is known. */
export type PayerView = { address: `0x${string}` | undefined; balance: bigint | undefined };

/** The payer's address and token balance, re-read with the spend so a payment shows up in it. */
export function usePayer(dependencies: TuiDependencies, asset: string | undefined): PayerView {
  const { balance } = dependencies;
  const read = useCallback(async () => (asset === undefined || balance === undefined ? undefined : balance(asset as `0x${string}`)), [asset, balance]);
  const { value } = usePolled(read, Math.max(dependencies.pollMs, 2_000));
  return { address: dependencies.payerAddress, balance: value };
}
