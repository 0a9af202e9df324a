import { mkdir, unlink } from "node:fs/promises";
import { setTimeout as delay } from "node:timers/promises";

import { z } from "zod";

import { atomicWriteFile } from "../ledger/atomicWriteFile.js";
import { ApprovalDecisionSchema, approvalPaths, type ApprovalRequest, ApprovalRequestSchema, readJsonFile } from "./approvalFiles.js";
import { ApprovalInterruptedError } from "./errors.js";
import { writeDecisionOnce } from "./writeDecisionOnce.js";

/** How often a waiting agent looks for a decision file. */
export const APPROVAL_POLL_MS = 100;

/** How a pending approval ended for the agent that asked. */
export type ApprovalResult = "approved" | "denied" | "timed-out";

/** Inputs to `requestApproval`. */
export type RequestApprovalParameters = {
  stateDir: string;
  /** The request to publish; `decideBy` is the deadline. */
  request: ApprovalRequest;
  /** Called once the request file is on disk, so a caller can tell a supervisor where to look. */
  onPending?: ((request: ApprovalRequest) => void) | undefined;
  pollMs?: number | undefined;
  /** Stops waiting (the agent is being interrupted): the request is withdrawn and `ApprovalInterruptedError` thrown. */
  signal?: AbortSignal | undefined;
};

/**
 * Publishes a pending approval as `approvals/<id>.request.json` and waits for a human's decision file,
 * written by `approvals approve|deny` or the TUI in another terminal. At `decideBy` the agent writes an
 * `expired` decision itself with the same first-writer-wins rule, so a human decision racing the timeout is
 * either honoured or refused, never lost. Both files are removed afterwards.
 *
 * @example
 * const result = await requestApproval({ stateDir, request });
 * if (result !== "approved") releaseReservation();
 */
export async function requestApproval(parameters: RequestApprovalParameters): Promise<ApprovalResult> {
  const { stateDir, request } = parameters;
  const paths = approvalPaths(stateDir, request.id);
  await mkdir(paths.dir, { recursive: true, mode: 0o700 });
  await atomicWriteFile(paths.request, `${JSON.stringify(z.encode(ApprovalRequestSchema, request), null, 2)}\n`);
  parameters.onPending?.(request);
  try {
    for (;;) {
      const decision = await readJsonFile(paths.decision, ApprovalDecisionSchema);
      if (decision !== undefined) return decision.decision === "approved" ? "approved" : decision.decision === "denied" ? "denied" : "timed-out";
      if (Date.now() >= request.decideBy) {
        const expired = { id: request.id, decision: "expired" as const, by: "agent", decidedAt: new Date().toISOString() };
        if (await writeDecisionOnce(paths.decision, expired)) return "timed-out";
        // A human decided in the same instant: read it on the next pass.
        continue;
      }
      if (parameters.signal?.aborted === true) throw new ApprovalInterruptedError({ id: request.id });
      await delay(Math.min(parameters.pollMs ?? APPROVAL_POLL_MS, Math.max(1, request.decideBy - Date.now())));
    }
  } finally {
    await Promise.all([unlink(paths.request).catch(() => undefined), unlink(paths.decision).catch(() => undefined)]);
  }
}
