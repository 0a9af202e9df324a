import type { HistoryPaymentView } from "@svc/scheme";
import { useCallback, useRef, useState } from "react";

import { describeError } from "../../errors/describeError.js";

/** The history view's state: whether it is open, the payments last read, the scroll position, and whether a read is running or failed. */
export type HistoryView = {
  /** False when the TUI has no facilitator or payer key configured: the view cannot open. */
  available: boolean;
  open: boolean;
  loading: boolean;
  payments: HistoryPaymentView[] | undefined;
  error: string | undefined;
  /** Index of the first payment shown. */
  offset: number;
  /** Opens the view (reading the payments afresh) or closes it. */
  toggle: () => void;
  /** Moves the first shown payment by `delta`, within the list. */
  scroll: (delta: number) => void;
};

/** The payer's payment history, read from the facilitator each time the view opens (never polled: logins are rate-limited). */
export function useHistory(read: (() => Promise<HistoryPaymentView[]>) | undefined): HistoryView {
  const [open, setOpen] = useState(false);
  const [loading, setLoading] = useState(false);
  const [payments, setPayments] = useState<HistoryPaymentView[]>();
  const [error, setError] = useState<string>();
  const [offset, setOffset] = useState(0);
  const openRef = useRef(false);
  const toggle = useCallback(() => {
    if (read === undefined) return;
    openRef.current = !openRef.current;
    setOpen(openRef.current);
    if (!openRef.current) return;
    setLoading(true);
    setOffset(0);
    read()
      .then(
        (next) => {
          setPayments(next);
          setError(undefined);
        },
        (failure: unknown) => setError(describeError(failure)),
      )
      .finally(() => setLoading(false));
  }, [read]);
  const count = payments?.length ?? 0;
  const scroll = useCallback((delta: number) => setOffset((current) => Math.max(0, Math.min(Math.max(0, count - 1), current + delta))), [count]);
  return { available: read !== undefined, open, loading, payments, error, offset, toggle, scroll };
}
