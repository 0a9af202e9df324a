import { useCallback } from "react";

import { summarizeSpend, type SpendSummary } from "../../ledger/summarizeSpend.js";
import type { TuiDependencies } from "../tuiDependencies.js";
import { usePolled } from "./use-polled.js";

/** Spend per network and token from the ledger, re-read on a timer and on `refresh`. */
export function useSpend(dependencies: TuiDependencies): { summaries: readonly SpendSummary[]; error: string | undefined; refresh: () => void } {
  const read = useCallback(async () => summarizeSpend(await dependencies.spend()), [dependencies]);
  const { value, error, refresh } = usePolled(read, dependencies.pollMs);
  return { summaries: value ?? [], error, refresh };
}
