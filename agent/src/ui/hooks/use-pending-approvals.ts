import { useCallback, useEffect, useRef, useState } from "react";

import type { ApprovalRequest } from "../../approvals/approvalFiles.js";
import { describeError } from "../../errors/describeError.js";
import type { TuiDependencies } from "../tuiDependencies.js";
import { usePolled } from "./use-polled.js";

/** The headless agents' pending approvals, the selected one, and the result of the last decision. */
export type PendingApprovals = {
  pending: readonly ApprovalRequest[];
  /** Index into `pending`, kept in range. */
  selected: number;
  /** Moves the selection by `delta`. */
  move: (delta: number) => void;
  /** Approves or denies the selected approval. */
  decideSelected: (decision: "approved" | "denied") => void;
  /** Approves or denies the approval `id` (after the screen asked for confirmation). */
  decide: (id: string, decision: "approved" | "denied") => void;
  /** The newest request that arrived while the TUI was running, until it is answered or gone. */
  arrived: ApprovalRequest | undefined;
  /** What the last decision did, or why it failed. */
  notice: string | undefined;
  /** Why the approval folder could not be read. */
  error: string | undefined;
};

/** Watches the state folder for approvals other agents wait on, and answers them from the keyboard. */
export function usePendingApprovals(dependencies: TuiDependencies): PendingApprovals {
  const { value, error, refresh } = usePolled(dependencies.pendingApprovals, dependencies.pollMs);
  const pending = value ?? [];
  const [cursor, setCursor] = useState(0);
  const [notice, setNotice] = useState<string>();
  const [arrivedId, setArrivedId] = useState<string>();
  const seen = useRef<Set<string> | undefined>(undefined);
  const selected = Math.min(cursor, Math.max(0, pending.length - 1));

  const ids = pending.map((request) => request.id).join(",");
  useEffect(() => {
    if (value === undefined) return;
    const current = ids === "" ? [] : ids.split(",");
    // Requests already waiting when the TUI starts are listed; only later arrivals are announced.
    if (seen.current !== undefined) {
      const fresh = current.filter((id) => !seen.current?.has(id));
      const newest = fresh[fresh.length - 1];
      if (newest !== undefined) {
        setArrivedId(newest);
        setCursor(current.indexOf(newest));
      }
    }
    seen.current = new Set(current);
  }, [ids, value]);

  const move = useCallback((delta: number) => setCursor((current) => Math.max(0, current + delta)), []);
  const decide = useCallback(
    (id: string, decision: "approved" | "denied") => {
      dependencies
        .decide(id, decision)
        .then(
          () => setNotice(`${decision} ${id}`),
          (failure: unknown) => setNotice(`could not answer ${id}: ${describeError(failure)}`),
        )
        .finally(refresh);
    },
    [dependencies, refresh],
  );
  const decideSelected = useCallback(
    (decision: "approved" | "denied") => {
      const request = pending[selected];
      if (request !== undefined) decide(request.id, decision);
    },
    [decide, pending, selected],
  );
  const arrived = pending.find((request) => request.id === arrivedId);
  return { pending, selected, move, decideSelected, decide, arrived, notice, error };
}
