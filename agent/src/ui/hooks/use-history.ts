import type { HistoryPaymentView } from "@svc/scheme";
import { useCallback, useRef, useState } from "react";

/** The history view's state: whether it is open, the payments last read, and whether a read is running or failed. */
export type HistoryView = {
  /** False when the TUI has no facilitator or payer key configured: the view cannot open. */
  available: boolean;
  open: boolean;
  loading: boolean;
  payments: HistoryPaymentView[] | undefined;
  error: string | undefined;
  /** Opens the view (reading the payments afresh) or closes it. */
  toggle: () => void;
};

/** The payer's payment history, read from the facilitator each time the view opens (never polled: logins are rate-limited). */
export function useHistory(read: (() => Promise<HistoryPaymentView[]>) | undefined): HistoryView {
  const [open, setOpen] = useState(false);
  const [loading, setLoading] = useState(false);
  const [payments, setPayments] = useState<HistoryPaymentView[]>();
  const [error, setError] = useState<string>();
  const openRef = useRef(false);
  const toggle = useCallback(() => {
    if (read === undefined) return;
    openRef.current = !openRef.current;
    setOpen(openRef.current);
    if (!openRef.current) return;
    setLoading(true);
    read().then(
      (next) => {
        setPayments(next);
        setError(undefined);
      },
      (failure: unknown) => setError(failure instanceof Error ? failure.message.split("\n")[0] : String(failure)),
    ).finally(() => setLoading(false));
  }, [read]);
  return { available: read !== undefined, open, loading, payments, error, toggle };
}
