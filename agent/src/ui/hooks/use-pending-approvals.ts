import { useCallback, useState } from "react";

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
  const selected = Math.min(cursor, Math.max(0, pending.length - 1));

  const move = useCallback((delta: number) => setCursor((current) => Math.max(0, current + delta)), []);
  const decideSelected = useCallback(
    (decision: "approved" | "denied") => {
      const request = pending[selected];
      if (request === undefined) return;
      dependencies.decide(request.id, decision).then(
        () => setNotice(`${decision} ${request.id}`),
        (failure: unknown) => setNotice(`could not answer ${request.id}: ${describeError(failure)}`),
      ).finally(refresh);
    },
    [dependencies, pending, selected, refresh],
  );
  return { pending, selected, move, decideSelected, notice, error };
}
