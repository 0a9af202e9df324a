import { useCallback } from "react";

import type { LedgerEntry } from "../../ledger/ledgerEntry.js";
import { summarizeSpend, type SpendSummary } from "../../ledger/summarizeSpend.js";
import type { TuiDependencies } from "../tuiDependencies.js";
import { usePolled } from "./use-polled.js";

/** The ledger as the TUI shows it: spend per network and token, and the entries (for payment ids). */
export type SpendView = { summaries: readonly SpendSummary[]; entries: readonly LedgerEntry[]; error: string | undefined; refresh: () => void };

/** Spend per network and token from the ledger, re-read on a timer and on `refresh`. */
export function useSpend(dependencies: TuiDependencies): SpendView {
  const read = useCallback(async () => {
    const entries = await dependencies.spend();
    return { entries, summaries: summarizeSpend(entries) };
  }, [dependencies]);
  const { value, error, refresh } = usePolled(read, dependencies.pollMs);
  return { summaries: value?.summaries ?? [], entries: value?.entries ?? [], error, refresh };
}
