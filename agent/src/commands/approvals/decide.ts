import { decideApproval } from "../../approvals/decideApproval.js";
import { ApprovalClosedError, ApprovalNotFoundError } from "../../approvals/errors.js";
import { Ledger } from "../../ledger/ledger.js";
import { loadPolicy } from "../../policy/loadPolicy.js";
import type { Command } from "../clipanion.js";
import { EXIT_OK } from "../exitCodes.js";
import { writeLine } from "../writeLine.js";

/**
 * Writes a decision for `approvals approve` and `approvals deny`, which differ only in the answer. A
 * payment the ledger knows but that no longer waits is named with its status, so a late answer is never
 * mistaken for a typo.
 */
export async function decide(command: Command, id: string, decision: "approved" | "denied"): Promise<number> {
  const policy = loadPolicy(command.context.env);
  try {
    await decideApproval({ stateDir: policy.stateDir, id, decision, by: "cli" });
  } catch (error) {
    if (!(error instanceof ApprovalNotFoundError)) throw error;
    const entry = (await new Ledger(policy.stateDir).entries()).find((candidate) => candidate.id === id);
    if (entry === undefined) throw error;
    throw new ApprovalClosedError({ id, status: entry.status, message: entry.message });
  }
  writeLine(command.context.stdout, `${decision} ${id}`);
  return EXIT_OK;
}
