import { decideApproval } from "../../approvals/decideApproval.js";
import { loadPolicy } from "../../policy/loadPolicy.js";
import type { Command } from "../clipanion.js";
import { EXIT_OK } from "../exitCodes.js";
import { writeLine } from "../writeLine.js";

/** Writes a decision for `approvals approve` and `approvals deny`, which differ only in the answer. */
export async function decide(command: Command, id: string, decision: "approved" | "denied"): Promise<number> {
  const policy = loadPolicy(command.context.env);
  await decideApproval({ stateDir: policy.stateDir, id, decision, by: "cli" });
  writeLine(command.context.stdout, `${decision} ${id}`);
  return EXIT_OK;
}
