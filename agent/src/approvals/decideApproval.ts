import { APPROVAL_ID_PATTERN, ApprovalDecisionSchema, ApprovalRequestSchema, approvalPaths, readJsonFile } from "./approvalFiles.js";
import { ApprovalAgentGoneError, ApprovalAlreadyDecidedError, ApprovalExpiredError, ApprovalNotFoundError } from "./errors.js";
import { isProcessAlive } from "../ledger/isProcessAlive.js";
import { writeDecisionOnce } from "./writeDecisionOnce.js";

/** Inputs to `decideApproval`. */
export type DecideApprovalParameters = {
  stateDir: string;
  id: string;
  decision: "approved" | "denied";
  /** Who decided, for the record: `cli`, `tui`. */
  by: string;
};

/**
 * Answers a headless agent's pending approval by writing its decision file atomically; the first decision
 * wins. Throws `ApprovalNotFoundError` when no request is on file under `id`, `ApprovalExpiredError` past its
 * deadline, `ApprovalAgentGoneError` when its agent has died, and `ApprovalAlreadyDecidedError` when a
 * decision is already on file.
 *
 * @example
 * await decideApproval({ stateDir: policy.stateDir, id: "3f9a0c1b2d4e", decision: "approved", by: "cli" });
 */
export async function decideApproval(parameters: DecideApprovalParameters): Promise<void> {
  const { stateDir, id, decision, by } = parameters;
  if (!APPROVAL_ID_PATTERN.test(id)) throw new ApprovalNotFoundError({ id });
  const paths = approvalPaths(stateDir, id);
  const request = await readJsonFile(paths.request, ApprovalRequestSchema);
  if (request === undefined) throw new ApprovalNotFoundError({ id });
  if (request.decideBy <= Date.now()) {
    throw new ApprovalExpiredError({ id, decideBy: request.decideBy, offerBound: request.decideByReason === "offer_expiry" });
  }
  if (!isProcessAlive(request.pid)) throw new ApprovalAgentGoneError({ id, pid: request.pid });
  const written = await writeDecisionOnce(paths.decision, { id, decision, by, decidedAt: new Date().toISOString() });
  if (!written) {
    const existing = await readJsonFile(paths.decision, ApprovalDecisionSchema);
    throw new ApprovalAlreadyDecidedError({ id, decision: existing?.decision ?? "decided" });
  }
}
